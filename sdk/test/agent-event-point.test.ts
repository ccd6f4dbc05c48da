// The agent-event point's spec: its envelope's conversion refuses what an agent event cannot be
// (no event name, payload text that is not JSON, no dialect) naming the proto field, its match key
// is the event name, and it is an observe-only, fail-open notification with an evaluate RPC.
import { create } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import type { PointSpec } from "../src/index.js";
import { EVALUATE_TABLE, MATCHED_POINTS, POINT_TABLE, TOOL_POINTS, matchKeyOf, parseJson } from "../src/index.js";
import { fromProtoEvent, toProtoEvent } from "../src/internal.js";
import * as pb from "../src/proto.js";

const sessionPb = create(pb.SessionInfoSchema, { sessionId: "s1", agentId: "a1", cwd: "/w" });
const envelope = (fields: Partial<{ dialect: pb.AgentDialect; eventName: string; payloadJson: string }>) =>
  create(pb.AgentEventEventSchema, { session: sessionPb, dialect: pb.AgentDialect.CODEX, eventName: "PostCompact", payloadJson: "{}", ...fields });

describe("agent-event conversion", () => {
  test.each([
    ["no event name", envelope({ eventName: "" }), "invalid_argument", "event.event_name: required"],
    ["payload text that is not JSON", envelope({ payloadJson: "{not json" }), "invalid_json", "event.payload_json: not valid JSON"],
    ["an empty payload", envelope({ payloadJson: "" }), "invalid_json", "event.payload_json: not valid JSON"],
    ["no dialect", envelope({ dialect: pb.AgentDialect.UNSPECIFIED }), "invalid_argument", "event.dialect: unspecified"],
    ["an unknown dialect", envelope({ dialect: 99 as pb.AgentDialect }), "invalid_argument", "event.dialect: unknown value 99"],
    ["no session", create(pb.AgentEventEventSchema, { dialect: pb.AgentDialect.CODEX, eventName: "X", payloadJson: "{}" }), "invalid_argument", "event.session: missing"],
  ])("refuses %s, naming the field", (_name, message, code, text) => {
    const result = fromProtoEvent("agent-event", message, "event");
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : { code: result.error.code, message: result.error.message }).toMatchObject({ code, message: expect.stringContaining(text) as string });
  });

  test("every dialect round-trips; the payload travels as canonical JSON text", () => {
    for (const dialect of ["claude-code", "codex", "gemini"] as const) {
      const typed = { session: { sessionId: "s1", agentId: "a1", cwd: "/w" }, dialect, eventName: "Notification", payload: parseJson(`{ "big": 12345678901234567890, "x": [1.5] }`) };
      const proto = toProtoEvent("agent-event", typed);
      expect(proto.payloadJson).toBe(`{"big":12345678901234567890,"x":[1.5]}`);
      expect(fromProtoEvent("agent-event", proto)).toEqual({ ok: true, value: typed });
    }
  });
});

describe("agent-event spec", () => {
  test("an observe-only, fail-open notification, evaluated, matched by event name", () => {
    const spec: PointSpec = POINT_TABLE["agent-event"];
    expect([spec.mode, spec.gate, spec.toolScoped, spec.decision, spec.pluginMethod]).toEqual(["notification", false, false, undefined, "agentEvent"]);
    expect(spec.readAnswer({ kind: "deny", reason: "x" }, "answer")).toEqual({ kind: "pass" });
    expect(EVALUATE_TABLE["agent-event"].method).toBe("evaluateAgentEvent");
    expect(MATCHED_POINTS.has("agent-event")).toBe(true);
    expect(TOOL_POINTS.has("agent-event")).toBe(false);
    expect(matchKeyOf("agent-event", { session: { sessionId: "s", agentId: "a", cwd: "" }, dialect: "gemini", eventName: "BeforeModel", payload: null })).toBe("BeforeModel");
  });

  test("matched points are exactly the tool points and agent-event", () => {
    expect([...MATCHED_POINTS].sort()).toEqual([...TOOL_POINTS, "agent-event"].sort());
  });
});
