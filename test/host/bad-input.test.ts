// Bad input from an agent, sent with the raw typed client so that any frame can be sent: a stream
// that cannot be used ends with INVALID_ARGUMENT or FAILED_PRECONDITION naming the problem; a
// mistake the session survives (a reply to nothing, malformed arguments, an oversized message) is
// a Problem frame and the session goes on; the daemon keeps serving throughout.
import { StatusError, closeClient, createClient, pb } from "@hookd/sdk/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { RawSession, opened as openedOn } from "../support/raw-session.js";
import type { HostClient, RequestFrame } from "../support/raw-session.js";

const MAX_MESSAGE_BYTES = 64 * 1024;

let daemon: DaemonProcess;
let host: HostClient;

beforeAll(async () => {
  daemon = await startDaemon({ config: { limits: { maxMessageBytes: MAX_MESSAGE_BYTES } } });
  host = createClient(pb.HookHost, daemon.target);
});

afterAll(async () => {
  if (host !== undefined) closeClient(host);
  await daemon?.stop();
});

const opened = (agent: string, sessionId: string): Promise<RawSession> => openedOn(host, agent, sessionId);

async function expectEnded(session: RawSession, codeName: string, details: RegExp): Promise<StatusError> {
  const end = await session.ended();
  expect(end).toBeInstanceOf(StatusError);
  const error = end as StatusError;
  expect({ code: error.codeName, details: error.details }).toEqual({ code: codeName, details: expect.stringMatching(details) as unknown });
  return error;
}

/** The daemon still opens, runs and closes a session for a new agent. */
async function daemonServes(agent: string): Promise<void> {
  const session = await opened(agent, `alive-${agent}`);
  await expect(session.completeTurn("still there?")).resolves.toMatchObject({ reason: pb.TurnEndReason.COMPLETED, steps: 1 });
  await session.close();
}

describe("a stream that cannot be used ends with a status naming the problem", () => {
  it("refuses a first frame that is not open with INVALID_ARGUMENT naming frame, and keeps serving", async () => {
    const session = new RawSession(host, "first-frame");
    await session.send({ case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: "hi" } }] } });
    await expectEnded(session, "INVALID_ARGUMENT", /^frame: the first frame must be open, got prompt$/);
    expect(session.seen).toEqual([]);
    await daemonServes("first-frame");
  });

  it("refuses an open without session_id, and one with duplicate tool names", async () => {
    const anonymous = new RawSession(host, "opener");
    await anonymous.open("");
    await expectEnded(anonymous, "INVALID_ARGUMENT", /^open\.session_id: required$/);

    const duplicated = new RawSession(host, "opener");
    await duplicated.open("dup-tools", { tools: ["Bash", "Read", "Bash"] });
    await expectEnded(duplicated, "INVALID_ARGUMENT", /^open\.tools\[2\]\.name: duplicate tool "Bash"$/);

    // Neither refusal left a session behind: the id is free for a startup.
    const session = await opened("opener", "dup-tools");
    await session.close();
  });

  it("refuses a startup of an existing session id, and a resume of a session attached to another stream", async () => {
    const owner = await opened("twice", "s-twice");

    const startup = new RawSession(host, "twice");
    await startup.open("s-twice");
    await expectEnded(startup, "FAILED_PRECONDITION", /^open\.session_id: session "s-twice" exists; open it with source RESUME$/);

    const resume = new RawSession(host, "twice");
    await resume.open("s-twice", { source: pb.SessionSource.RESUME });
    await expectEnded(resume, "FAILED_PRECONDITION", /^open\.session_id: session "s-twice" is attached to another stream$/);

    // The owner's stream was not disturbed by either.
    await expect(owner.completeTurn("mine")).resolves.toMatchObject({ reason: pb.TurnEndReason.COMPLETED });
    await owner.close();
  });
});

describe("mistakes the session survives are Problem frames", () => {
  it("answers a second open with FAILED_PRECONDITION and keeps the stream usable", async () => {
    const session = await opened("reopen", "s-reopen");
    await session.open("s-reopen");
    await expect(session.expect("problem")).resolves.toEqual(
      expect.objectContaining({ code: "FAILED_PRECONDITION", message: expect.stringMatching(/^open: /) as unknown, requestId: "" }),
    );
    await expect(session.completeTurn("go on")).resolves.toMatchObject({ reason: pb.TurnEndReason.COMPLETED, steps: 1 });
    await session.close();
  });

  it("answers replies to requests never sent, or of the wrong kind, with FAILED_PRECONDITION naming field and id", async () => {
    const session = await opened("replies", "s-replies");
    await session.send({ case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: "hi" } }] } });
    await session.expect("turnStarted");
    const step = await session.expect("stepRequest");

    const bogus: { frame: RequestFrame; field: string; id: string }[] = [
      { frame: { case: "stepReply", value: { requestId: "step-999" } }, field: "step_reply", id: "step-999" },
      { frame: { case: "dispatchReply", value: { requestId: "dispatch-77", result: {} } }, field: "dispatch_reply", id: "dispatch-77" },
      { frame: { case: "approvalReply", value: { requestId: "approval-5", outcome: pb.ApprovalOutcome.ALLOWED_ONCE } }, field: "approval_reply", id: "approval-5" },
      // The step request's own id, answered as if it were a dispatch or an approval.
      { frame: { case: "dispatchReply", value: { requestId: step.requestId, result: {} } }, field: "dispatch_reply", id: step.requestId },
      { frame: { case: "approvalReply", value: { requestId: step.requestId, outcome: pb.ApprovalOutcome.REJECTED } }, field: "approval_reply", id: step.requestId },
    ];
    for (const { frame, field, id } of bogus) {
      await session.send(frame);
      const problem = await session.expect("problem");
      expect(problem.code).toBe("FAILED_PRECONDITION");
      expect(problem.message).toContain(`${field}.request_id`);
      expect(problem.message).toContain(`"${id}"`);
      expect(problem.requestId).toBe(id);
    }

    // The mismatched replies did not consume the step request: answering it ends the turn.
    await session.replyStep(step.requestId);
    await expect(session.expect("turnEnded")).resolves.toMatchObject({ reason: pb.TurnEndReason.COMPLETED, steps: 1 });
    // A late second answer to the same step is a reply to a request no longer pending.
    await session.replyStep(step.requestId);
    await expect(session.expect("problem")).resolves.toMatchObject({ code: "FAILED_PRECONDITION", requestId: step.requestId });
    await expect(session.completeTurn("again")).resolves.toMatchObject({ reason: pb.TurnEndReason.COMPLETED });
    await session.close();
  });

  it("answers a tool call whose arguments_json is not JSON with INVALID_ARGUMENT; the call fails and the turn completes", async () => {
    const session = await opened("args", "s-args");
    await session.send({ case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: "call it" } }] } });
    await session.expect("turnStarted");
    const step = await session.expect("stepRequest");
    await session.replyStep(step.requestId, [{ callId: "c1", toolName: "Bash", argumentsJson: "{not json" }]);

    const problem = await session.expect("problem");
    expect(problem.code).toBe("INVALID_ARGUMENT");
    expect(problem.message).toMatch(/^step_reply\.tool_calls\[0\]\.arguments_json: not valid JSON/);
    expect(problem.requestId).toBe(step.requestId);

    const notice = await session.expect("toolResult");
    expect(notice.call?.callId).toBe("c1");
    expect(notice.result?.outcome).toMatchObject({ case: "failure", value: { code: "invalid_arguments" } });
    // The model is asked again, having seen the failure; no tool body ever ran.
    const second = await session.expect("stepRequest");
    expect(second.step).toBe(2);
    await session.replyStep(second.requestId);
    await expect(session.expect("turnEnded")).resolves.toMatchObject({ reason: pb.TurnEndReason.COMPLETED, steps: 2 });
    expect(session.seen.some((frame) => frame.case === "dispatchRequest")).toBe(false);
    await session.close();
  });
});

describe("an oversized message", () => {
  it("is refused with INVALID_ARGUMENT naming its size and the limit; the stream and the session go on", async () => {
    const session = await opened("big", "s-big");
    await expect(session.completeTurn("before")).resolves.toMatchObject({ reason: pb.TurnEndReason.COMPLETED });

    const huge = "x".repeat(MAX_MESSAGE_BYTES + 1024);
    await session.send({ case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: huge } }] } });
    const problem = await session.expect("problem");
    expect(problem.code).toBe("INVALID_ARGUMENT");
    expect(problem.message).toMatch(new RegExp(`^hookd\\.v1\\.SessionRequest: a message of \\d+ bytes is over the limit of ${MAX_MESSAGE_BYTES} bytes$`));
    // The refused prompt never entered the session: on the same stream, the next follow-up is turn 2.
    await expect(session.completeTurn("after")).resolves.toMatchObject({ turn: 2, reason: pb.TurnEndReason.COMPLETED });
    await session.close();
    await daemonServes("not-big");
  });
});

describe("evaluate calls with malformed events", () => {
  const metadata = { "x-hookd-agent": "evaluator" };
  const sessionInfo = { sessionId: "eval-bad", agentId: "evaluator", cwd: "/" };
  const toolCall = (argumentsJson: string) => ({ callId: "c1", rootCallId: "c1", toolName: "Bash", argumentsJson, sessionId: "eval-bad", turn: 1, step: 1 });

  async function refusal(promise: Promise<unknown>): Promise<StatusError> {
    const outcome = await promise.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(StatusError);
    return outcome as StatusError;
  }

  it("answers INVALID_ARGUMENT naming the field, and keeps serving", async () => {
    const missing = await refusal(host.evaluatePreTool({}, { metadata }));
    expect({ code: missing.codeName, details: missing.details }).toEqual({ code: "INVALID_ARGUMENT", details: "event: required" });

    const missingOnOther = await refusal(host.evaluateTurnStopping({}, { metadata }));
    expect({ code: missingOnOther.codeName, details: missingOnOther.details }).toEqual({ code: "INVALID_ARGUMENT", details: "event: required" });

    const badJson = await refusal(host.evaluatePreTool({ event: { session: sessionInfo, call: toolCall("{not json") } }, { metadata }));
    expect(badJson.codeName).toBe("INVALID_ARGUMENT");
    expect(badJson.details).toMatch(/^event\.call\.arguments_json: /);

    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    const tooDeep = await refusal(host.evaluatePreTool({ event: { session: sessionInfo, call: toolCall(deep) } }, { metadata }));
    expect({ code: tooDeep.codeName, details: tooDeep.details }).toEqual({ code: "INVALID_ARGUMENT", details: "event.call.arguments_json: not valid JSON (nested too deeply)" });

    const noCall = await refusal(host.evaluatePreTool({ event: { session: sessionInfo } }, { metadata }));
    expect(noCall.codeName).toBe("INVALID_ARGUMENT");
    expect(noCall.details).toMatch(/^event\.call: /);

    const allowed = await host.evaluatePreTool({ event: { session: sessionInfo, call: toolCall('{"command":"ls"}') } }, { metadata });
    expect(allowed.decision?.decision.case).toBe("allow");
  });
});
