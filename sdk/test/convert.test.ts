// convert.ts: every decision variant and every event, proto → typed → proto and typed → proto →
// typed without loss (also across the wire), and unusable proto input reported with its field path.
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { create, equals, fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import type { AgentMessage, HookdError, PointName, ToolCall, ToolResult } from "../src/index.js";
import type { DecisionPoint, ProtoDecision, ProtoEvent, Result, TypedDecision, TypedEvent } from "../src/internal.js";
import { POINTS, POINT_TABLE, abstain, accept, allow, approve, ask, assistantMessage, block, deny, enter, inject, pass, patch, pluginMessage, reject, replace, steer, text } from "../src/index.js";
import { DECISION_POINTS, decisionCodec, eventCodec, fromProtoDecision, fromProtoEvent, fromProtoFailurePolicy, fromProtoMessage, fromProtoPoint, fromProtoSessionSource, fromProtoToolCall, fromProtoToolDefinition, fromProtoToolResult, toProtoDecision, toProtoEvent, toProtoFailurePolicy, toProtoPoint, toProtoSessionSource, toProtoToolCall, toProtoToolResult } from "../src/internal.js";
import * as pb from "../src/proto.js";

// ---- fixtures: each typed value beside its hand-written proto form -------------------------

const BIG = "9223372036854775807"; // 2^63-1
const UNICODE = "héllo ☃ 𝄞";

const session = { sessionId: "s1", agentId: "agent-a", cwd: "/work" };
const sessionPb = create(pb.SessionInfoSchema, session);
// A subagent's session: the lineage survives both ways; empty lineage fields are absent when typed.
const child = { sessionId: "s2", agentId: "agent-a", cwd: "/work", parentSessionId: "s1", agentType: "explorer" };
const childPb = create(pb.SessionInfoSchema, child);

const m1: AgentMessage = {
  id: "m1",
  role: "user",
  content: [
    text(`hi ${UNICODE}`),
    // Not canonical on purpose: a json block keeps its text byte for byte.
    { type: "json", json: `{ "n" : ${BIG} }` },
    { type: "image", uri: "file:///a.png", mediaType: "image/png" },
  ],
  source: { kind: "user" },
};
const m1Pb = create(pb.MessageSchema, {
  id: "m1",
  role: pb.Role.USER,
  content: [
    { block: { case: "text", value: `hi ${UNICODE}` } },
    { block: { case: "json", value: `{ "n" : ${BIG} }` } },
    { block: { case: "image", value: { uri: "file:///a.png", mediaType: "image/png" } } },
  ],
  source: { kind: { case: "user", value: {} } },
});
const m2 = pluginMessage("audit", "remember the rules");
const m2Pb = create(pb.MessageSchema, {
  role: pb.Role.USER,
  content: [{ block: { case: "text", value: "remember the rules" } }],
  source: { kind: { case: "plugin", value: { name: "audit" } } },
});
const m3: AgentMessage = { id: "m3", role: "user", content: [text("out")], source: { kind: "tool", callId: "c1" } };
const m3Pb = create(pb.MessageSchema, {
  id: "m3",
  role: pb.Role.USER,
  content: [{ block: { case: "text", value: "out" } }],
  source: { kind: { case: "tool", value: { callId: "c1" } } },
});
const m4 = assistantMessage("done");
const m4Pb = create(pb.MessageSchema, {
  role: pb.Role.ASSISTANT,
  content: [{ block: { case: "text", value: "done" } }],
  source: { kind: { case: "model", value: {} } },
});

const argsJson = `{"n":${BIG},"s":"${UNICODE}","list":[1,0.5,null,true,-12]}`;
const nestedCall: ToolCall = {
  callId: "c2",
  rootCallId: "c1",
  parentCallId: "c1",
  toolName: "bash",
  arguments: { n: 9223372036854775807n, s: UNICODE, list: [1, 0.5, null, true, -12] },
  argumentsJson: argsJson,
  sessionId: "s1",
  turn: 2,
  step: 3,
};
const nestedCallPb = create(pb.ToolCallSchema, {
  callId: "c2",
  rootCallId: "c1",
  parentCallId: "c1",
  toolName: "bash",
  argumentsJson: argsJson,
  sessionId: "s1",
  turn: 2,
  step: 3,
});
const topCall: ToolCall = {
  callId: "c1",
  rootCallId: "c1",
  toolName: "read",
  arguments: { path: "a.txt" },
  argumentsJson: `{"path":"a.txt"}`,
  sessionId: "s1",
  turn: 1,
  step: 1,
};
const topCallPb = create(pb.ToolCallSchema, {
  callId: "c1",
  rootCallId: "c1",
  toolName: "read",
  argumentsJson: `{"path":"a.txt"}`,
  sessionId: "s1",
  turn: 1,
  step: 1,
});

// A call two rewrite plugins changed: both argument versions and the rewriters, in order.
const rewrittenCall: ToolCall = {
  ...topCall,
  arguments: { path: "/safe/a.txt", n: 9223372036854775807n },
  argumentsJson: `{"path":"/safe/a.txt","n":${BIG}}`,
  originalArguments: { path: "a.txt" },
  originalArgumentsJson: `{"path":"a.txt"}`,
  rewrittenBy: ["confine", "tag"],
};
const rewrittenCallPb = create(pb.ToolCallSchema, {
  callId: "c1",
  rootCallId: "c1",
  toolName: "read",
  argumentsJson: `{"path":"/safe/a.txt","n":${BIG}}`,
  sessionId: "s1",
  turn: 1,
  step: 1,
  originalArgumentsJson: `{"path":"a.txt"}`,
  rewrittenBy: ["confine", "tag"],
});

const success: ToolResult = {
  isError: false,
  value: { id: 9223372036854775807n, name: UNICODE },
  content: [text("ok")],
  metadata: { ms: 12, tags: ["a"] },
  contexts: [m2],
};
const successPb = create(pb.ToolResultSchema, {
  outcome: {
    case: "success",
    value: {
      valueJson: `{"id":${BIG},"name":"${UNICODE}"}`,
      content: [{ block: { case: "text", value: "ok" } }],
      metadataJson: `{"ms":12,"tags":["a"]}`,
    },
  },
  contexts: [m2Pb],
});
const bareSuccess: ToolResult = { isError: false, value: null, content: [], contexts: [] };
const bareSuccessPb = create(pb.ToolResultSchema, { outcome: { case: "success", value: { valueJson: "null" } } });
const failure: ToolResult = {
  isError: true,
  message: "denied by policy",
  code: "denied",
  name: "policy",
  content: [text("Error: denied by policy")],
  contexts: [m3],
};
const failurePb = create(pb.ToolResultSchema, {
  outcome: {
    case: "failure",
    value: {
      message: "denied by policy",
      code: "denied",
      name: "policy",
      content: [{ block: { case: "text", value: "Error: denied by policy" } }],
    },
  },
  contexts: [m3Pb],
});

/** Compares two messages: the JSON diff explains a failure, `equals` is the real check. */
function expectSameProto(schema: DescMessage, actual: unknown, expected: unknown): void {
  const a = actual as MessageShape<DescMessage>;
  const b = expected as MessageShape<DescMessage>;
  expect(toJson(schema, a)).toEqual(toJson(schema, b));
  expect(equals(schema, a, b)).toBe(true);
}

function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

// ---- decisions -----------------------------------------------------------------------------

interface DecisionRow {
  readonly point: DecisionPoint;
  readonly name: string;
  readonly proto: ProtoDecision<DecisionPoint>;
  readonly typed: TypedDecision<DecisionPoint>;
}
const row = <P extends DecisionPoint>(point: P, name: string, proto: ProtoDecision<P>, typed: TypedDecision<P>): DecisionRow => ({
  point,
  name,
  proto,
  typed,
});
const PASS_PB = { case: "pass", value: {} } as const;

const DECISIONS: readonly DecisionRow[] = [
  row("session-start", "pass", create(pb.SessionStartDecisionSchema, { decision: PASS_PB }), pass()),
  row("session-start", "inject", create(pb.SessionStartDecisionSchema, { decision: { case: "inject", value: { messages: [m2Pb, m1Pb] } } }), inject([m2, m1])),
  row("pre-step", "pass", create(pb.PreStepDecisionSchema, { decision: PASS_PB }), pass()),
  row("pre-step", "enter", create(pb.PreStepDecisionSchema, { decision: { case: "enter", value: { messages: [m1Pb, m2Pb, m3Pb, m4Pb] } } }), enter([m1, m2, m3, m4])),
  row("pre-step", "enter an empty batch", create(pb.PreStepDecisionSchema, { decision: { case: "enter", value: {} } }), enter([])),
  row("pre-step", "reject", create(pb.PreStepDecisionSchema, { decision: { case: "reject", value: { reason: "too long" } } }), reject("too long")),
  row("rewrite", "pass", create(pb.RewriteDecisionSchema, { decision: PASS_PB }), pass()),
  row("rewrite", "replace", create(pb.RewriteDecisionSchema, { decision: { case: "replace", value: { argumentsJson: `{"n":${BIG},"s":"${UNICODE}"}` } } }), replace({ n: 9223372036854775807n, s: UNICODE })),
  row("rewrite", "patch", create(pb.RewriteDecisionSchema, { decision: { case: "patch", value: { mergePatchJson: `{"drop":null,"n":${BIG}}` } } }), patch({ drop: null, n: 9223372036854775807n })),
  row("pre-tool", "pass", create(pb.PreToolDecisionSchema, { decision: PASS_PB }), pass()),
  row("pre-tool", "allow", create(pb.PreToolDecisionSchema, { decision: { case: "allow", value: {} } }), allow()),
  row("pre-tool", "deny", create(pb.PreToolDecisionSchema, { decision: { case: "deny", value: { reason: `no ${UNICODE}` } } }), deny(`no ${UNICODE}`)),
  row("pre-tool", "ask", create(pb.PreToolDecisionSchema, { decision: { case: "ask", value: { reason: "run rm?" } } }), ask("run rm?")),
  row("approval", "pass", create(pb.ApprovalDecisionSchema, { decision: PASS_PB }), pass()),
  row("approval", "approve", create(pb.ApprovalDecisionSchema, { decision: { case: "approve", value: {} } }), approve()),
  row("approval", "reject", create(pb.ApprovalDecisionSchema, { decision: { case: "reject", value: { reason: "not on main" } } }), reject("not on main")),
  row("guard", "abstain", create(pb.GuardDecisionSchema, { decision: { case: "abstain", value: {} } }), abstain()),
  row("guard", "deny", create(pb.GuardDecisionSchema, { decision: { case: "deny", value: { reason: "forbidden path" } } }), deny("forbidden path")),
  row("execute", "pass", create(pb.ExecuteDecisionSchema, { decision: PASS_PB }), pass()),
  row("execute", "success with metadata and contexts", create(pb.ExecuteDecisionSchema, { decision: { case: "result", value: successPb } }), success),
  row("execute", "bare success (null value)", create(pb.ExecuteDecisionSchema, { decision: { case: "result", value: bareSuccessPb } }), bareSuccess),
  row("execute", "failure", create(pb.ExecuteDecisionSchema, { decision: { case: "result", value: failurePb } }), failure),
  row("post-tool", "pass", create(pb.PostToolDecisionSchema, { decision: PASS_PB }), pass()),
  row("post-tool", "accept unchanged", create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: {} } }), accept()),
  row(
    "post-tool",
    "accept with content",
    create(pb.PostToolDecisionSchema, {
      decision: { case: "accept", value: { content: { blocks: [{ block: { case: "text", value: UNICODE } }] } } },
    }),
    accept({ content: [text(UNICODE)] }),
  ),
  row(
    "post-tool",
    "accept with empty content",
    create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: { content: {} } } }),
    accept({ content: [] }),
  ),
  row(
    "post-tool",
    "accept with a 2^63-1 value",
    create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: { valueJson: `{"max":${BIG},"s":"${UNICODE}"}` } } }),
    accept({ value: { max: 9223372036854775807n, s: UNICODE } }),
  ),
  row(
    "post-tool",
    "accept with a null value",
    create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: { valueJson: "null" } } }),
    accept({ value: null }),
  ),
  row(
    "post-tool",
    "accept with contexts",
    create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: { additionalContexts: [m2Pb] } } }),
    accept({ additionalContexts: [m2] }),
  ),
  row(
    "post-tool",
    "accept with a value and contexts",
    create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: { valueJson: BIG, additionalContexts: [m2Pb, m3Pb] } } }),
    accept({ value: 9223372036854775807n, additionalContexts: [m2, m3] }),
  ),
  row("post-tool", "block", create(pb.PostToolDecisionSchema, { decision: { case: "block", value: { feedback: "too big" } } }), block("too big")),
  row(
    "post-tool",
    "block with empty feedback and contexts",
    create(pb.PostToolDecisionSchema, { decision: { case: "block", value: { feedback: "", additionalContexts: [m2Pb] } } }),
    block("", [m2]),
  ),
  row("turn-stopping", "pass", create(pb.TurnStoppingDecisionSchema, { decision: PASS_PB }), pass()),
  row("turn-stopping", "steer", create(pb.TurnStoppingDecisionSchema, { decision: { case: "steer", value: { messages: [m2Pb] } } }), steer([m2])),
];

describe("decisions", () => {
  test("the table covers every oneof case of every decision point", () => {
    for (const point of DECISION_POINTS) {
      const cases = decisionCodec[point].schema.oneofs[0]?.fields.map((field) => field.localName) ?? [];
      const covered = new Set(DECISIONS.filter((r) => r.point === point).map((r) => (r.proto as { decision: { case: string } }).decision.case));
      expect([...covered].sort(), point).toEqual([...cases].sort());
    }
  });

  describe.each(DECISIONS)("$point: $name", ({ point, proto, typed }) => {
    const schema = decisionCodec[point].schema;

    test("proto → typed", () => {
      expect(fromProtoDecision(point, proto)).toEqual({ ok: true, value: typed });
    });

    test("typed → proto", () => {
      expectSameProto(schema, toProtoDecision(point, typed), proto);
    });

    test("proto → wire → typed → proto is lossless", () => {
      const wire = fromBinary(schema, toBinary(schema, proto as MessageShape<DescMessage>)) as ProtoDecision<DecisionPoint>;
      expectSameProto(schema, toProtoDecision(point, unwrap(fromProtoDecision(point, wire))), proto);
    });

    test("typed → proto → typed is lossless", () => {
      expect(unwrap(fromProtoDecision(point, toProtoDecision(point, typed)))).toEqual(typed);
    });

    test("the typed form is deep-frozen", () => {
      expectDeepFrozen(unwrap(fromProtoDecision(point, proto)));
    });
  });

  test("an accepted 2^63-1 keeps every digit", () => {
    const proto = create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: { valueJson: BIG } } });
    const typed = unwrap(fromProtoDecision("post-tool", proto));
    expect(typed).toEqual({ kind: "accept", value: 9223372036854775807n });
    const back = toProtoDecision("post-tool", typed);
    expect(back.decision.case === "accept" && back.decision.value.valueJson).toBe(BIG);
  });

  test("a value with decimals a double cannot hold stays exact", () => {
    const digits = "0.1000000000000000055511151231257827";
    const proto = create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: { valueJson: `[${digits}]` } } });
    const back = toProtoDecision("post-tool", unwrap(fromProtoDecision("post-tool", proto)));
    expect(back.decision.case === "accept" && back.decision.value.valueJson).toBe(`[${digits}]`);
  });

  test("typed → proto refuses what the types forbid", () => {
    const both = { kind: "accept", content: [], value: 1 } as unknown as TypedDecision<"post-tool">;
    expect(() => toProtoDecision("post-tool", both)).toThrow(
      expect.objectContaining({ code: "invalid_decision", message: "decision: accept cannot replace both content and value" }),
    );
    expect(() => toProtoDecision("post-tool", accept({ value: { n: NaN } }))).toThrow(
      expect.objectContaining({ code: "invalid_json", message: "decision.value.n: NaN is not a JSON number" }),
    );
    expect(() => toProtoDecision("pre-tool", { kind: "maybe" } as unknown as TypedDecision<"pre-tool">)).toThrow(
      expect.objectContaining({ code: "invalid_decision", message: 'decision: unknown variant {"kind":"maybe"}' }),
    );
  });
});

// ---- events --------------------------------------------------------------------------------

interface EventRow {
  readonly point: PointName;
  readonly name: string;
  readonly proto: ProtoEvent<PointName>;
  readonly typed: TypedEvent<PointName>;
}
const eventRow = <P extends PointName>(point: P, name: string, proto: ProtoEvent<P>, typed: TypedEvent<P>): EventRow => ({
  point,
  name,
  proto,
  typed,
});

const tools = [
  { name: "bash", description: "Runs a command", inputSchemaJson: `{"type": "object"}`, concurrencySafe: false },
  { name: "read", description: "", inputSchemaJson: "", concurrencySafe: true },
];

const EVENTS: readonly EventRow[] = [
  eventRow(
    "session-start",
    "startup with tools",
    create(pb.SessionStartEventSchema, { session: sessionPb, source: pb.SessionSource.STARTUP, tools }),
    { session, source: "startup", tools },
  ),
  eventRow("session-start", "resume", create(pb.SessionStartEventSchema, { session: sessionPb, source: pb.SessionSource.RESUME }), {
    session,
    source: "resume",
    tools: [],
  }),
  eventRow(
    "pre-step",
    "a batch",
    create(pb.PreStepEventSchema, { session: sessionPb, turn: 1, step: 2, messages: [m1Pb, m2Pb] }),
    { session, turn: 1, step: 2, messages: [m1, m2] },
  ),
  eventRow("pre-step", "an empty continuation", create(pb.PreStepEventSchema, { session: sessionPb, turn: 4, step: 7 }), {
    session,
    turn: 4,
    step: 7,
    messages: [],
  }),
  eventRow("pre-tool", "a nested call", create(pb.PreToolEventSchema, { session: sessionPb, call: nestedCallPb }), { session, call: nestedCall }),
  eventRow("rewrite", "a call an earlier plugin rewrote", create(pb.RewriteEventSchema, { session: sessionPb, call: rewrittenCallPb }), { session, call: rewrittenCall }),
  eventRow(
    "approval",
    "an ask about a nested call",
    create(pb.ApprovalEventSchema, { session: sessionPb, call: nestedCallPb, reason: "run rm?", askedBy: "policy" }),
    { session, call: nestedCall, reason: "run rm?", askedBy: "policy" },
  ),
  eventRow("guard", "a top-level call", create(pb.GuardEventSchema, { session: sessionPb, call: topCallPb }), { session, call: topCall }),
  eventRow("execute", "a nested call", create(pb.ExecuteEventSchema, { session: sessionPb, call: nestedCallPb }), { session, call: nestedCall }),
  eventRow("post-tool", "a success", create(pb.PostToolEventSchema, { session: sessionPb, call: nestedCallPb, result: successPb }), {
    session,
    call: nestedCall,
    result: success,
  }),
  eventRow("post-tool", "a failure", create(pb.PostToolEventSchema, { session: sessionPb, call: topCallPb, result: failurePb }), {
    session,
    call: topCall,
    result: failure,
  }),
  eventRow("tool-result", "a success", create(pb.ToolResultEventSchema, { session: sessionPb, call: topCallPb, result: bareSuccessPb }), {
    session,
    call: topCall,
    result: bareSuccess,
  }),
  eventRow(
    "turn-stopping",
    "with a last message",
    create(pb.TurnStoppingEventSchema, {
      session: sessionPb,
      turn: 3,
      step: 5,
      stopHookActive: true,
      steeredContinuations: 2,
      lastAssistantMessage: m4Pb,
    }),
    { session, turn: 3, step: 5, stopHookActive: true, steeredContinuations: 2, lastAssistantMessage: m4 },
  ),
  eventRow(
    "turn-stopping",
    "without a last message",
    create(pb.TurnStoppingEventSchema, { session: sessionPb, turn: 1, step: 1 }),
    { session, turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0 },
  ),
  eventRow(
    "session-start",
    "a subagent, with its lineage",
    create(pb.SessionStartEventSchema, { session: childPb, source: pb.SessionSource.SUBAGENT }),
    { session: child, source: "subagent", tools: [] },
  ),
  eventRow(
    "turn-end",
    "cancelled, of a subagent",
    create(pb.TurnEndEventSchema, { session: childPb, turn: 2, outcome: pb.TurnEndOutcome.CANCELLED, detail: "escape", steps: 3 }),
    { session: child, turn: 2, outcome: "cancelled", detail: "escape", steps: 3 },
  ),
  eventRow(
    "turn-end",
    "at the continuation cap",
    create(pb.TurnEndEventSchema, { session: sessionPb, turn: 1, outcome: pb.TurnEndOutcome.CONTINUATION_CAP, detail: "cap", steps: 9 }),
    { session, turn: 1, outcome: "continuation_cap", detail: "cap", steps: 9 },
  ),
  eventRow(
    "session-end",
    "daemon stopping",
    create(pb.SessionEndEventSchema, { session: childPb, reason: pb.SessionEndReason.DAEMON_STOPPING, detail: "SIGTERM", turns: 4 }),
    { session: child, reason: "daemon_stopping", detail: "SIGTERM", turns: 4 },
  ),
  eventRow(
    "agent-event",
    "a Claude Code PreCompact, its integers kept to the digit",
    create(pb.AgentEventEventSchema, { session: sessionPb, dialect: pb.AgentDialect.CLAUDE_CODE, eventName: "PreCompact", payloadJson: `{"n":${BIG},"trigger":"auto"}` }),
    { session, dialect: "claude-code", eventName: "PreCompact", payload: { n: 9223372036854775807n, trigger: "auto" } },
  ),
  eventRow(
    "agent-event",
    "a Gemini CLI BeforeModel of a subagent, a payload that is not an object",
    create(pb.AgentEventEventSchema, { session: childPb, dialect: pb.AgentDialect.GEMINI, eventName: "BeforeModel", payloadJson: `[1,"two",null]` }),
    { session: child, dialect: "gemini", eventName: "BeforeModel", payload: [1, "two", null] },
  ),
];

describe("events", () => {
  test("the table covers every point", () => {
    expect(new Set(EVENTS.map((r) => r.point))).toEqual(new Set(POINTS));
  });

  describe.each(EVENTS)("$point: $name", ({ point, proto, typed }) => {
    const schema = eventCodec[point].schema;

    test("proto → typed", () => {
      expect(fromProtoEvent(point, proto)).toEqual({ ok: true, value: typed });
    });

    test("typed → proto", () => {
      expectSameProto(schema, toProtoEvent(point, typed), proto);
    });

    test("proto → wire → typed → proto is lossless", () => {
      const wire = fromBinary(schema, toBinary(schema, proto as MessageShape<DescMessage>)) as ProtoEvent<PointName>;
      expectSameProto(schema, toProtoEvent(point, unwrap(fromProtoEvent(point, wire))), proto);
    });

    test("typed → proto → typed is lossless and deep-frozen", () => {
      const back = unwrap(fromProtoEvent(point, toProtoEvent(point, typed)));
      expect(back).toEqual(typed);
      expectDeepFrozen(back);
    });
  });
});

// ---- the shared vocabulary -----------------------------------------------------------------

describe("tool calls", () => {
  test("arguments are parsed losslessly and deep-frozen; argumentsJson is the canonical text", () => {
    const proto = create(pb.ToolCallSchema, { ...topCallPb, argumentsJson: `{ "n" : ${BIG}, "s" : "${UNICODE}" }` });
    const call = unwrap(fromProtoToolCall(proto));
    expect(call.arguments).toEqual({ n: 9223372036854775807n, s: UNICODE });
    expect(call.argumentsJson).toBe(`{"n":${BIG},"s":"${UNICODE}"}`);
    expect(Object.isFrozen(call)).toBe(true);
    expect(Object.isFrozen(call.arguments)).toBe(true);
    expect(toProtoToolCall(call).argumentsJson).toBe(call.argumentsJson);
  });

  test("a missing parent stays absent; an empty parent id is kept", () => {
    expect("parentCallId" in unwrap(fromProtoToolCall(topCallPb))).toBe(false);
    const emptyParent = create(pb.ToolCallSchema, { ...topCallPb, parentCallId: "" });
    expect(unwrap(fromProtoToolCall(emptyParent)).parentCallId).toBe("");
    expect(toProtoToolCall(unwrap(fromProtoToolCall(emptyParent))).parentCallId).toBe("");
  });
});

describe("tool results", () => {
  test.each([
    ["success", successPb, success],
    ["bare success", bareSuccessPb, bareSuccess],
    ["failure", failurePb, failure],
  ] as const)("%s round-trips", (_name, proto, typed) => {
    expect(fromProtoToolResult(proto)).toEqual({ ok: true, value: typed });
    expectSameProto(pb.ToolResultSchema, toProtoToolResult(typed), proto);
  });

  test("typed → proto refuses a value that is not JSON", () => {
    const bad = { ...bareSuccess, value: { f: Infinity } } as ToolResult;
    expect(() => toProtoToolResult(bad)).toThrow(expect.objectContaining({ code: "invalid_json", message: "result.value.f: Infinity is not a JSON number" }));
  });
});

describe("enums", () => {
  test("every point maps to its proto number and back", () => {
    // Points added later are numbered in the order they were added, not where they fire.
    POINTS.forEach((point) => {
      expect(toProtoPoint(point)).toBe(POINT_TABLE[point].proto);
      expect(pb.Point[POINT_TABLE[point].proto]).toBe(point.toUpperCase().replaceAll("-", "_"));
      expect(fromProtoPoint(toProtoPoint(point))).toEqual({ ok: true, value: point });
    });
    expect(new Set(POINTS.map(toProtoPoint)).size).toBe(POINTS.length);
  });

  test("failure policies: the point default is UNSPECIFIED", () => {
    expect(toProtoFailurePolicy(undefined)).toBe(pb.FailurePolicy.UNSPECIFIED);
    expect(toProtoFailurePolicy("fail-closed")).toBe(pb.FailurePolicy.FAIL_CLOSED);
    expect(toProtoFailurePolicy("fail-open")).toBe(pb.FailurePolicy.FAIL_OPEN);
    expect(fromProtoFailurePolicy(pb.FailurePolicy.UNSPECIFIED)).toEqual({ ok: true, value: undefined });
    expect(fromProtoFailurePolicy(pb.FailurePolicy.FAIL_CLOSED)).toEqual({ ok: true, value: "fail-closed" });
    expect(fromProtoFailurePolicy(pb.FailurePolicy.FAIL_OPEN)).toEqual({ ok: true, value: "fail-open" });
  });

  test("session sources", () => {
    for (const source of ["startup", "resume", "clear", "compact"] as const) {
      expect(fromProtoSessionSource(toProtoSessionSource(source))).toEqual({ ok: true, value: source });
    }
    expect(toProtoSessionSource("compact")).toBe(pb.SessionSource.COMPACT);
  });
});

// ---- unusable proto input ------------------------------------------------------------------

const postTool = (value: MessageShape<typeof pb.AcceptSchema> | Parameters<typeof create<typeof pb.AcceptSchema>>[1]) =>
  create(pb.PostToolDecisionSchema, { decision: { case: "accept", value: create(pb.AcceptSchema, value) } });
const steerWith = (message: Parameters<typeof create<typeof pb.MessageSchema>>[1]) =>
  create(pb.TurnStoppingDecisionSchema, { decision: { case: "steer", value: { messages: [m2Pb, create(pb.MessageSchema, message)] } } });

// A plugin may leave the source of what it contributes unset: the daemon sources it (authorship.ts).
test("a contributed message without a source, or with a source of no kind, reads as an unnamed plugin's", () => {
  for (const source of [undefined, {}]) {
    const read = fromProtoDecision("turn-stopping", steerWith({ role: pb.Role.USER, content: [{ block: { case: "text", value: "x" } }], ...(source === undefined ? {} : { source }) }));
    expect(read).toMatchObject({ ok: true, value: { kind: "steer", messages: [{}, { source: { kind: "plugin", name: "" } }] } });
  }
});

const ERRORS: readonly [string, () => Result<unknown>, HookdError["code"], string][] = [
  ["an unset decision", () => fromProtoDecision("pre-tool", create(pb.PreToolDecisionSchema)), "invalid_decision", "decision: no decision set"],
  ["an unset guard decision", () => fromProtoDecision("guard", create(pb.GuardDecisionSchema)), "invalid_decision", "decision: no decision set"],
  [
    "an accepted value that is not JSON",
    () => fromProtoDecision("post-tool", postTool({ valueJson: "nope" })),
    "invalid_json",
    "decision.accept.value_json: not valid JSON (JSON value expected but got 'n' at position 0)",
  ],
  [
    "an accepted value that is empty text",
    () => fromProtoDecision("post-tool", postTool({ valueJson: "" })),
    "invalid_json",
    "decision.accept.value_json: not valid JSON (JSON value expected but reached end of input at position 0)",
  ],
  [
    "an accept with both content and value",
    () => fromProtoDecision("post-tool", postTool({ content: {}, valueJson: "1" })),
    "invalid_decision",
    "decision.accept: cannot replace both content and value",
  ],
  [
    "a message without a role",
    () => fromProtoDecision("turn-stopping", steerWith({ content: [{ block: { case: "text", value: "x" } }], source: m2Pb.source })),
    "invalid_decision",
    "decision.steer.messages[1].role: unspecified",
  ],
  [
    "a message with an unknown role",
    () => fromProtoDecision("turn-stopping", steerWith({ role: 9 as pb.Role, source: m2Pb.source })),
    "invalid_decision",
    "decision.steer.messages[1].role: unknown value 9",
  ],
  [
    "an unset content block",
    () => fromProtoDecision("turn-stopping", steerWith({ role: pb.Role.USER, source: m2Pb.source, content: [{ block: { case: "text", value: "" } }, {}] })),
    "invalid_decision",
    "decision.steer.messages[1].content[1]: no block set",
  ],
  [
    "a json block that is not JSON",
    () => fromProtoDecision("turn-stopping", steerWith({ role: pb.Role.USER, source: m2Pb.source, content: [{ block: { case: "json", value: "{" } }] })),
    "invalid_json",
    "decision.steer.messages[1].content[0].json: not valid JSON (Quoted object key or end of object '}' expected but reached end of input at position 1)",
  ],
  [
    "replacement content with an unset block",
    () => fromProtoDecision("post-tool", postTool({ content: { blocks: [{}] } })),
    "invalid_decision",
    "decision.accept.content.blocks[0]: no block set",
  ],
  [
    "a block context without a role",
    () =>
      fromProtoDecision("post-tool", create(pb.PostToolDecisionSchema, { decision: { case: "block", value: { additionalContexts: [{ source: m2Pb.source }] } } })),
    "invalid_decision",
    "decision.block.additional_contexts[0].role: unspecified",
  ],
  [
    "an execute result with no outcome",
    () => fromProtoDecision("execute", create(pb.ExecuteDecisionSchema, { decision: { case: "result", value: {} } })),
    "invalid_decision",
    "decision.result: no outcome set",
  ],
  [
    "an execute result whose value is not JSON",
    () =>
      fromProtoDecision("execute", create(pb.ExecuteDecisionSchema, { decision: { case: "result", value: { outcome: { case: "success", value: { valueJson: "[1,]" } } } } })),
    "invalid_json",
    "decision.result.success.value_json: not valid JSON (Array item expected but got ']' at position 3)",
  ],
  [
    "metadata that is not an object",
    () =>
      fromProtoDecision("execute", create(pb.ExecuteDecisionSchema, { decision: { case: "result", value: { outcome: { case: "success", value: { valueJson: "1", metadataJson: "[1]" } } } } })),
    "invalid_decision",
    "decision.result.success.metadata_json: expected a JSON object",
  ],
  [
    "duplicate keys in JSON",
    () => fromProtoToolResult(create(pb.ToolResultSchema, { outcome: { case: "success", value: { valueJson: `{"a":1,"a":2}` } } })),
    "invalid_json",
    "result.success.value_json: not valid JSON (Duplicate key 'a' encountered at position 8)",
  ],
  [
    "an unknown oneof case (a newer peer)",
    () => fromProtoDecision("pre-tool", { $typeName: "hookd.v1.PreToolDecision", decision: { case: "defer", value: {} } } as unknown as pb.PreToolDecision),
    "invalid_decision",
    'decision: unknown case "defer"',
  ],
  [
    "a hand-built object that is no message at all",
    () => fromProtoDecision("pre-tool", {} as pb.PreToolDecision),
    "invalid_decision",
    "decision: not a well-formed message (Cannot read properties of undefined (reading 'case'))",
  ],
  [
    "a deny whose value is missing",
    () => fromProtoDecision("guard", { $typeName: "hookd.v1.GuardDecision", decision: { case: "deny" } } as unknown as pb.GuardDecision),
    "invalid_decision",
    "decision: not a well-formed message (Cannot read properties of undefined (reading 'reason'))",
  ],
  [
    "a point without decisions",
    () => fromProtoDecision("tool-result" as DecisionPoint, create(pb.PreToolDecisionSchema, { decision: PASS_PB })),
    "invalid_decision",
    'decision: no decision for point "tool-result"',
  ],
  ["an event without a session", () => fromProtoEvent("pre-tool", create(pb.PreToolEventSchema, { call: topCallPb })), "invalid_argument", "event.session: missing"],
  ["an event without a call", () => fromProtoEvent("guard", create(pb.GuardEventSchema, { session: sessionPb })), "invalid_argument", "event.call: missing"],
  [
    "a post-tool event without a result",
    () => fromProtoEvent("post-tool", create(pb.PostToolEventSchema, { session: sessionPb, call: topCallPb })),
    "invalid_argument",
    "event.result: missing",
  ],
  [
    "a call whose arguments are not JSON",
    () => fromProtoEvent("execute", create(pb.ExecuteEventSchema, { session: sessionPb, call: { ...topCallPb, argumentsJson: "{'a':1}" } })),
    "invalid_json",
    "event.call.arguments_json: not valid JSON (Quoted object key expected but got ''' at position 1)",
  ],
  [
    "an unspecified session source",
    () => fromProtoEvent("session-start", create(pb.SessionStartEventSchema, { session: sessionPb })),
    "invalid_argument",
    "event.source: unspecified",
  ],
  [
    "a tool definition with a schema that is not JSON",
    () =>
      fromProtoEvent(
        "session-start",
        create(pb.SessionStartEventSchema, { session: sessionPb, source: pb.SessionSource.STARTUP, tools: [tools[1] ?? {}, { name: "x", inputSchemaJson: "{" }] }),
      ),
    "invalid_json",
    "event.tools[1].input_schema_json: not valid JSON (Quoted object key or end of object '}' expected but reached end of input at position 1)",
  ],
  [
    "a last assistant message without a source",
    () => fromProtoEvent("turn-stopping", create(pb.TurnStoppingEventSchema, { session: sessionPb, lastAssistantMessage: { role: pb.Role.ASSISTANT } })),
    "invalid_argument",
    "event.last_assistant_message.source: missing",
  ],
  [
    "a turn-end with an unspecified outcome",
    () => fromProtoEvent("turn-end", create(pb.TurnEndEventSchema, { session: sessionPb, turn: 1 })),
    "invalid_argument",
    "event.outcome: unspecified",
  ],
  [
    "a session-end with an unknown reason",
    () => fromProtoEvent("session-end", create(pb.SessionEndEventSchema, { session: sessionPb, reason: 42 as pb.SessionEndReason })),
    "invalid_argument",
    "event.reason: unknown value 42",
  ],
  ["a session-end without a session", () => fromProtoEvent("session-end", create(pb.SessionEndEventSchema, { reason: pb.SessionEndReason.CLOSED })), "invalid_argument", "event.session: missing"],
  ["an unknown point of an event", () => fromProtoEvent("pre-commit" as PointName, create(pb.PreToolEventSchema)), "invalid_argument", 'event: unknown point "pre-commit"'],
  ["an unspecified point", () => fromProtoPoint(pb.Point.UNSPECIFIED), "invalid_argument", "point: unspecified"],
  ["an unknown point number", () => fromProtoPoint(99 as pb.Point), "invalid_argument", "point: unknown value 99"],
  ["an unknown failure policy", () => fromProtoFailurePolicy(3 as pb.FailurePolicy), "invalid_argument", "failure_policy: unknown value 3"],
  [
    "a caller-chosen root path",
    () => fromProtoMessage(create(pb.MessageSchema, { role: pb.Role.USER }), "request.assistant_message"),
    "invalid_argument",
    "request.assistant_message.source: missing",
  ],
  [
    "a tool definition on its own",
    () => fromProtoToolDefinition(create(pb.ToolDefinitionSchema, { inputSchemaJson: "nope" })),
    "invalid_json",
    "tool.input_schema_json: not valid JSON (JSON value expected but got 'n' at position 0)",
  ],
];

describe("unusable proto input is an error naming the field", () => {
  test.each(ERRORS)("%s", (_name, run, code, message) => {
    const result = run();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.name).toBe("HookdError");
    expect(result.error.message).toBe(message);
    expect(result.error.code).toBe(code);
  });
});

function expectDeepFrozen(value: unknown, path = "value"): void {
  if (typeof value !== "object" || value === null) return;
  expect(Object.isFrozen(value), `${path} is frozen`).toBe(true);
  for (const [key, item] of Object.entries(value)) expectDeepFrozen(item, `${path}.${key}`);
}
