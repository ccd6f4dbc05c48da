// Tool calls that break the contract, from an agent on the raw typed client: a call needs a
// call_id (unique within the session) and a tool_name, and its arguments are a JSON object. In
// the hosted loop a step reply whose calls lack an id or a name, or repeat an id within the
// reply, is refused with a Problem and the step fails (the turn ends with an error, the session
// goes on); arguments that are not an object fail that call alone. Evaluate calls answer
// INVALID_ARGUMENT naming the field.
import { StatusError, closeClient, createClient, pb, toProtoToolResult } from "@hookd/sdk/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { opened } from "../support/raw-session.js";
import type { HostClient, RawSession } from "../support/raw-session.js";

let daemon: DaemonProcess;
let host: HostClient;

beforeAll(async () => {
  daemon = await startDaemon();
  host = createClient(pb.HookHost, daemon.target);
});

afterAll(async () => {
  if (host !== undefined) closeClient(host);
  await daemon?.stop();
});

type Calls = { callId: string; toolName: string; argumentsJson: string }[];

const ok = (callId: string): Calls[number] => ({ callId, toolName: "Bash", argumentsJson: '{"command":"ls"}' });

/** Sends a follow-up and answers its first step with `calls`; the step request's id. */
async function proposeCalls(session: RawSession, calls: Calls): Promise<string> {
  await session.send({ case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: "call" } }] } });
  await session.expect("turnStarted");
  const step = await session.expect("stepRequest");
  await session.replyStep(step.requestId, calls);
  return step.requestId;
}

/** The step reply was refused: a Problem naming the field, then the turn ends with an error before any call ran. */
async function expectRefused(session: RawSession, requestId: string, message: string): Promise<void> {
  await expect(session.expect("problem")).resolves.toEqual(expect.objectContaining({ code: "INVALID_ARGUMENT", message, requestId }));
  const ended = await session.expect("turnEnded");
  expect(ended).toMatchObject({ reason: pb.TurnEndReason.ERROR, steps: 1 });
  expect(ended.detail).toContain(message);
  expect(session.seen.filter((frame) => frame.case === "dispatchRequest" || frame.case === "toolResult")).toEqual([]);
}

describe("a step reply with tool calls that break the contract", () => {
  let refused = 0;
  it.each([
    ["an empty call_id", [ok("a1"), { ...ok(""), toolName: "Read" }], "step_reply.tool_calls[1].call_id: required"],
    ["an empty tool_name", [{ ...ok("b1"), toolName: "" }], "step_reply.tool_calls[0].tool_name: required"],
    ["a call_id repeated in the batch", [ok("c1"), ok("c2"), ok("c1")], 'step_reply.tool_calls[2].call_id: "c1" is repeated in this step reply'],
  ])("with %s is refused with a Problem naming the field; the turn fails and the next prompt works", async (_what, calls, message) => {
    const session = await opened(host, "calls", `s-refused-${++refused}`);
    const requestId = await proposeCalls(session, calls);
    await expectRefused(session, requestId, message);
    // The session survived: the next valid frame starts a turn that completes.
    await expect(session.completeTurn("again")).resolves.toMatchObject({ turn: 2, reason: pb.TurnEndReason.COMPLETED });
    await session.close();
  });

  it.each([["an array", "[1,2]"], ["a number", "42"], ["null", "null"]])(
    "with arguments that are %s fails that call as invalid_arguments, and the turn goes on",
    async (what, argumentsJson) => {
      const session = await opened(host, "calls", `s-args-${what}`);
      const requestId = await proposeCalls(session, [{ callId: "n1", toolName: "Bash", argumentsJson }]);
      await expect(session.expect("problem")).resolves.toEqual(
        expect.objectContaining({ code: "INVALID_ARGUMENT", message: "step_reply.tool_calls[0].arguments_json: expected a JSON object", requestId }),
      );
      const notice = await session.expect("toolResult");
      expect(notice.call?.callId).toBe("n1");
      expect(notice.result?.outcome).toMatchObject({ case: "failure", value: { code: "invalid_arguments" } });
      const next = await session.expect("stepRequest");
      await session.replyStep(next.requestId);
      await expect(session.expect("turnEnded")).resolves.toMatchObject({ reason: pb.TurnEndReason.COMPLETED, steps: 2 });
      expect(session.seen.some((frame) => frame.case === "dispatchRequest")).toBe(false);
      await session.close();
    },
  );
});

describe("evaluate calls with a tool call that breaks the contract", () => {
  const metadata = { "x-hookd-agent": "evaluator" };
  const session = { sessionId: "eval-calls", agentId: "evaluator", cwd: "/" };
  const call = (fields: { callId?: string; toolName?: string; argumentsJson?: string }) => ({
    callId: "c1",
    rootCallId: "c1",
    toolName: "Bash",
    argumentsJson: '{"command":"ls"}',
    sessionId: "eval-calls",
    turn: 1,
    step: 1,
    ...fields,
  });
  const result = toProtoToolResult({ isError: false, value: "ok", content: [], contexts: [] });

  async function refusal(promise: Promise<unknown>): Promise<{ code: string; details: string }> {
    const error = await promise.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(StatusError);
    return { code: (error as StatusError).codeName, details: (error as StatusError).details };
  }

  it.each([
    [{ callId: "" }, "event.call.call_id: required"],
    [{ toolName: "" }, "event.call.tool_name: required"],
    [{ argumentsJson: "[1]" }, "event.call.arguments_json: expected a JSON object"],
    [{ argumentsJson: "1e400" }, "event.call.arguments_json: expected a JSON object"],
  ])("refuses %o with INVALID_ARGUMENT naming the field, at every tool point", async (fields, details) => {
    const event = { session, call: call(fields) };
    expect(await refusal(host.evaluatePreTool({ event }, { metadata }))).toEqual({ code: "INVALID_ARGUMENT", details });
    expect(await refusal(host.evaluatePostTool({ event: { ...event, result } }, { metadata }))).toEqual({ code: "INVALID_ARGUMENT", details });
    expect(await refusal(host.evaluateToolResult({ event: { ...event, result } }, { metadata }))).toEqual({ code: "INVALID_ARGUMENT", details });
    // The daemon keeps serving: a well-formed call is evaluated.
    const allowed = await host.evaluatePreTool({ event: { session, call: call({}) } }, { metadata });
    expect(allowed.decision?.decision.case).toBe("allow");
  });
});
