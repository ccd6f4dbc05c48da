// The agent client's open and close frames for subagents and session ends: the lineage goes out
// on OpenSession, a close names CLOSED or CLEARED, and any other close reason is refused locally.
import { describe, expect, test } from "vitest";
import { closeFrame, openFrame } from "../src/agent/frames.js";
import * as pb from "../src/proto.js";

describe("agent frames", () => {
  test("a subagent's open frame carries its source and lineage; a top-level one sends them empty", () => {
    const sub = openFrame({ sessionId: "sub", source: "subagent", parentSessionId: "main", agentType: "explorer", tools: [] }, "alice");
    expect(sub.frame).toMatchObject({ case: "open", value: { sessionId: "sub", source: pb.SessionSource.SUBAGENT, parentSessionId: "main", agentType: "explorer", agentId: "alice" } });
    expect(openFrame({ sessionId: "main", tools: [] }, undefined).frame).toMatchObject({ value: { source: pb.SessionSource.STARTUP, parentSessionId: "", agentType: "" } });
  });

  test("close names CLOSED or CLEARED and refuses anything else, naming the reason", () => {
    expect(closeFrame("closed").frame).toEqual({ case: "close", value: { reason: pb.SessionEndReason.CLOSED } });
    expect(closeFrame("cleared").frame).toEqual({ case: "close", value: { reason: pb.SessionEndReason.CLEARED } });
    expect(() => closeFrame("expired" as "closed")).toThrow('close: reason must be "closed" or "cleared", got "expired"');
  });
});
