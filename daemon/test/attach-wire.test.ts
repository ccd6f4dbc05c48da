// The Attach call frame as bytes: decoded by the generated schema, it carries the call id, the
// deadline, the point's request and, with tracing on, AttachCall.traceparent; tracing off adds
// nothing to the frame.
import { fromBinary, toBinary, create } from "@bufbuild/protobuf";
import { pb } from "@hookd/sdk/internal";
import { describe, expect, it } from "vitest";
import { callFrame } from "../src/plugins/remote/attach-wire.js";

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
const request = toBinary(pb.PreToolRequestSchema, create(pb.PreToolRequestSchema, { event: { call: { callId: "c1", toolName: "Bash" } } }));

function decoded(frame: Buffer): pb.AttachCall {
  const message = fromBinary(pb.AttachRequestSchema, frame);
  if (message.frame.case !== "call") throw new Error(`expected a call frame, got ${String(message.frame.case)}`);
  return message.frame.value;
}

describe("Attach call frames", () => {
  it("carry the traceparent in AttachCall.traceparent", () => {
    const call = decoded(callFrame(7, 1500, pb.Point.PRE_TOOL, request, TRACEPARENT));
    expect(call.callId).toBe(7n);
    expect(call.deadlineMs).toBe(1500);
    expect(call.traceparent).toBe(TRACEPARENT);
    expect(call.request.case).toBe("preTool");
    expect(call.request.case === "preTool" ? call.request.value.event?.call?.toolName : undefined).toBe("Bash");
  });

  it("add nothing without one", () => {
    const untraced = callFrame(7, 1500, pb.Point.PRE_TOOL, request);
    expect(decoded(untraced).traceparent).toBe("");
    expect(callFrame(7, 1500, pb.Point.PRE_TOOL, request, "").equals(untraced)).toBe(true);
    expect(callFrame(7, 1500, pb.Point.PRE_TOOL, request, TRACEPARENT).length).toBe(untraced.length + 2 + TRACEPARENT.length);
  });
});
