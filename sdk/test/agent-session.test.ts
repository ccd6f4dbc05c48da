// The hosted-session client against a scripted fake HookHost on a temporary Unix socket: the test
// plays the daemon's side frame by frame and checks every reply (request ids, payloads), how
// follow-ups settle, aborts at turn end, stream errors, problems, detach/close and metadata.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Server, status } from "@grpc/grpc-js";
import type { Metadata } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { StatusError, assistantMessage, connectHost, pluginMessage, toolFailure, userMessage } from "../src/index.js";
import { toProtoMessage, toProtoToolResult } from "../src/internal.js";
import type { AgentHandlers, HostClient, SessionEvent, ToolCall, TurnEnd } from "../src/index.js";
import { addService, bindServer, pb } from "../src/internal.js";

type ResponseInit = MessageInitShape<typeof pb.SessionResponseSchema>;
type RequestCase = NonNullable<pb.SessionRequest["frame"]["case"]>;
type RequestValue<C extends RequestCase> = Extract<pb.SessionRequest["frame"], { case: C }>["value"];

const MAX = 9223372036854775807n; // 2^63-1
const MAX_JSON = '{"n":9223372036854775807}';

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The daemon's side of one Session stream, driven by the test. */
interface DaemonSide {
  readonly metadata: Metadata;
  readonly signal: AbortSignal;
  /** The next frame the agent sent; undefined once the agent half-closed or cancelled. */
  next(): Promise<pb.SessionRequest | undefined>;
  send(frame: ResponseInit): Promise<void>;
  /** Ends the call: OK, or with this status. */
  finish(error?: StatusError): void;
}

let dir: string;
let server: Server;
let address: string;
let arrivals: { push(side: DaemonSide): void; next(): Promise<DaemonSide> };
let clients: HostClient[];

function queue<T>(): { push(item: T): void; next(): Promise<T> } {
  const items: T[] = [];
  const waiters: ((item: T) => void)[] = [];
  return {
    push(item) {
      const waiter = waiters.shift();
      if (waiter) waiter(item);
      else items.push(item);
    },
    next() {
      if (items.length > 0) return Promise.resolve(items.shift() as T);
      return new Promise<T>((resolve) => waiters.push(resolve));
    },
  };
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-agent-"));
  arrivals = queue<DaemonSide>();
  clients = [];
  server = new Server();
  addService(server, pb.HookHost, {
    async session(requests, call) {
      const iterator = requests[Symbol.asyncIterator]();
      const finished = deferred<StatusError | undefined>();
      arrivals.push({
        metadata: call.metadata,
        signal: call.signal,
        async next() {
          try {
            const read = await iterator.next();
            return read.done === true ? undefined : read.value;
          } catch {
            return undefined; // a cancelled call's requests end with an error
          }
        },
        send: (frame) => call.send(frame),
        finish: (error) => finished.resolve(error),
      });
      const error = await finished.promise;
      if (error) throw error;
    },
  });
  address = `unix://${join(dir, "host.sock")}`;
  await bindServer(server, address);
});

afterEach(async () => {
  for (const client of clients) client.close();
  server.forceShutdown();
  await rm(dir, { recursive: true, force: true });
});

function connect(options: Parameters<typeof connectHost>[1] = { agentId: "agent-7" }): HostClient {
  const client = connectHost(address, options);
  clients.push(client);
  return client;
}

async function expectFrame<C extends RequestCase>(daemon: DaemonSide, kind: C): Promise<RequestValue<C>> {
  const request = await daemon.next();
  expect(request?.frame.case).toBe(kind);
  return request?.frame.value as RequestValue<C>;
}

const TOOLS = [{ name: "echo", description: "echoes", inputSchemaJson: "", concurrencySafe: true }] as const;

function sealedCall(callId: string, turn = 1, argumentsJson = MAX_JSON): MessageInitShape<typeof pb.ToolCallSchema> {
  return { callId, rootCallId: callId, toolName: "echo", argumentsJson, sessionId: "s1", turn, step: 1 };
}

/** Handlers that fail the test if the daemon asks for something the test did not script. */
function handlers(overrides: Partial<AgentHandlers> = {}): AgentHandlers {
  return {
    runStep: () => Promise.reject(new Error("unexpected step")),
    dispatch: () => Promise.reject(new Error("unexpected dispatch")),
    ...overrides,
  };
}

/** Opens a session and plays SessionOpened; returns both ends. */
async function openSession(client: HostClient, agent: AgentHandlers) {
  const session = client.openSession({ sessionId: "s1", cwd: "/work", tools: TOOLS }, agent);
  const daemon = await arrivals.next();
  const open = await expectFrame(daemon, "open");
  await daemon.send({ frame: { case: "opened", value: { sessionId: "s1", resumed: false, contexts: [] } } });
  await session.opened;
  return { session, daemon, open };
}

const turnStarted = (turn: number): ResponseInit => ({ frame: { case: "turnStarted", value: { turn } } });
const turnEnded = (turn: number, reason: pb.TurnEndReason, detail = "", steps = 1): ResponseInit => ({
  frame: { case: "turnEnded", value: { turn, reason, detail, steps } },
});

describe("a hosted turn", () => {
  test("plays open, step, dispatch, tool result, approval, context and turn end, answering each request by id", async () => {
    const events: SessionEvent[] = [];
    const dispatched: ToolCall[] = [];
    const client = connect();
    const session = client.openSession(
      { sessionId: "s1", cwd: "/work", tools: TOOLS },
      {
        async runStep({ turn, step, messages }) {
          expect({ turn, step, texts: messages.map((m) => m.content) }).toEqual({ turn: 1, step: 1, texts: [[{ type: "text", text: "hello" }]] });
          expect(Object.isFrozen(messages)).toBe(true);
          return { assistant: assistantMessage("calling echo"), toolCalls: [{ callId: "c1", toolName: "echo", arguments: { n: MAX } }] };
        },
        async dispatch(call) {
          dispatched.push(call);
          return { echoed: call.arguments };
        },
        async approve({ call, reason, askedBy, deadlineMs }) {
          expect({ callId: call.callId, reason, askedBy, deadlineMs }).toEqual({ callId: "c2", reason: "run echo?", askedBy: "policy", deadlineMs: 60_000 });
          return "allowed-once";
        },
        onEvent: (event) => events.push(event),
      },
    );

    const daemon = await arrivals.next();
    expect(daemon.metadata.get("x-hookd-agent")).toEqual(["agent-7"]);
    expect(daemon.metadata.get("authorization")).toEqual([]);
    const open = await expectFrame(daemon, "open");
    expect(open).toMatchObject({ sessionId: "s1", source: pb.SessionSource.STARTUP, cwd: "/work", agentId: "agent-7" });
    expect(open.tools.map((tool) => [tool.name, tool.concurrencySafe])).toEqual([["echo", true]]);

    // SessionOpened.contexts is deprecated: an older daemon that still fills it also puts the
    // contexts in the first step's batch, so the client reads them there only (no duplicate).
    const seeded = toProtoMessage(pluginMessage("seed", "house rules"));
    await daemon.send({ frame: { case: "opened", value: { sessionId: "s1", resumed: false, contexts: [seeded] } } });
    const opened = await session.opened;
    expect(opened).toEqual({ sessionId: "s1", resumed: false, contexts: [], heartbeatIntervalMs: 0, instanceId: "" });

    const turn = session.followUp("hello");
    const prompt = await expectFrame(daemon, "prompt");
    expect(prompt.kind).toBe(pb.PromptKind.FOLLOW_UP);
    expect(prompt.content).toMatchObject([{ block: { case: "text", value: "hello" } }]);

    await daemon.send(turnStarted(1));
    await daemon.send({ frame: { case: "stepRequest", value: { requestId: "step-1", turn: 1, step: 1, messages: [toProtoMessage(userMessage("hello"))] } } });
    const step = await expectFrame(daemon, "stepReply");
    expect(step.requestId).toBe("step-1");
    expect(step.error).toBe("");
    expect(step.assistantMessage?.role).toBe(pb.Role.ASSISTANT);
    expect(step.toolCalls.map((c) => [c.callId, c.toolName, c.argumentsJson])).toEqual([["c1", "echo", MAX_JSON]]);

    await daemon.send({ frame: { case: "dispatchRequest", value: { requestId: "dispatch-1", call: sealedCall("c1") } } });
    const dispatch = await expectFrame(daemon, "dispatchReply");
    expect(dispatch.requestId).toBe("dispatch-1");
    expect(dispatch.result?.outcome).toMatchObject({ case: "success", value: { valueJson: `{"echoed":${MAX_JSON}}` } });
    expect(dispatched[0]?.arguments).toEqual({ n: MAX });
    expect(Object.isFrozen(dispatched[0]?.arguments)).toBe(true);

    const final = toProtoToolResult({ isError: false, value: "done", content: [], contexts: [] });
    const trace = { decidedBy: "policy", failureCause: "", durationUs: 1234n };
    await daemon.send({ frame: { case: "toolResult", value: { call: sealedCall("c1"), result: final, trace } } });

    const ask = { requestId: "approval-1", call: sealedCall("c2"), reason: "run echo?", askedBy: "policy", deadlineMs: 60_000 };
    await daemon.send({ frame: { case: "approvalRequest", value: ask } });
    const approval = await expectFrame(daemon, "approvalReply");
    expect(approval).toMatchObject({ requestId: "approval-1", outcome: pb.ApprovalOutcome.ALLOWED_ONCE });

    await daemon.send({ frame: { case: "context", value: { messages: [toProtoMessage(pluginMessage("lint", "2 warnings"))] } } });
    await daemon.send(turnEnded(1, pb.TurnEndReason.COMPLETED, "", 2));
    expect(await turn).toEqual({ turn: 1, reason: "completed", detail: "", steps: 2 });

    expect(events.map((event) => event.type)).toEqual(["opened", "turn-started", "tool-result", "context", "turn-ended"]);
    expect(events[2]).toMatchObject({
      type: "tool-result",
      call: { callId: "c1", arguments: { n: MAX }, argumentsJson: MAX_JSON },
      result: { isError: false, value: "done" },
      trace: { decidedBy: "policy", durationUs: 1234 },
    });
    expect(events[2]?.type === "tool-result" && "failureCause" in events[2].trace).toBe(false);
    expect(events[3]).toEqual({ type: "context", messages: [pluginMessage("lint", "2 warnings")] });
    expect(session.problems).toEqual([]);
  });

  test("settles follow-ups with their own turn's end, in order; a follow-up that never ran matches turn 0", async () => {
    const { session, daemon } = await openSession(connect(), handlers());
    const settled: [string, TurnEnd][] = [];
    const track = (name: string, promise: Promise<TurnEnd>) => promise.then((end) => settled.push([name, end]));
    const first = track("first", session.followUp("one"));
    const second = track("second", session.followUp("two"));
    const third = track("third", session.followUp([{ type: "json", json: '{"three":3}' }]));
    for (let index = 0; index < 3; index++) expect((await expectFrame(daemon, "prompt")).kind).toBe(pb.PromptKind.FOLLOW_UP);

    await daemon.send(turnStarted(1));
    await daemon.send(turnEnded(1, pb.TurnEndReason.COMPLETED));
    await first;
    await daemon.send(turnStarted(2));
    // As when the session closes mid-turn: the queued follow-up is dropped before the running turn ends.
    await daemon.send(turnEnded(0, pb.TurnEndReason.ABORTED, "session closed; the follow-up never ran", 0));
    await daemon.send(turnEnded(2, pb.TurnEndReason.BLOCKED, "rejected by gate"));
    await Promise.all([second, third]);

    expect(settled).toEqual([
      ["first", { turn: 1, reason: "completed", detail: "", steps: 1 }],
      ["third", { turn: 0, reason: "cancelled", detail: "session closed; the follow-up never ran", steps: 0 }],
      ["second", { turn: 2, reason: "blocked", detail: "rejected by gate", steps: 1 }],
    ]);
    expect(session.problems).toEqual([]);
  });

  test("a throwing runStep answers StepReply.error and no step content", async () => {
    const { session, daemon } = await openSession(connect(), handlers({ runStep: () => Promise.reject(new RangeError("model exploded")) }));
    const turn = session.followUp("go");
    await expectFrame(daemon, "prompt");
    await daemon.send(turnStarted(1));
    await daemon.send({ frame: { case: "stepRequest", value: { requestId: "step-9", turn: 1, step: 1, messages: [] } } });
    const reply = await expectFrame(daemon, "stepReply");
    expect(reply).toMatchObject({ requestId: "step-9", error: "model exploded", toolCalls: [] });
    expect(reply.assistantMessage).toBeUndefined();
    await daemon.send(turnEnded(1, pb.TurnEndReason.ERROR, "model exploded"));
    expect(await turn).toMatchObject({ reason: "error", detail: "model exploded" });
  });

  test("runs dispatches concurrently; a throw becomes a tool_error failure and a bad result an invalid_result one", async () => {
    const secondStarted = deferred();
    const { daemon } = await openSession(
      connect(),
      handlers({
        async dispatch(call) {
          if (call.callId === "slow") {
            await secondStarted.promise; // finishes only if "fails" runs meanwhile
            return toolFailure("quota", { code: "quota_exceeded", name: "echo" });
          }
          if (call.callId === "bad") return { isError: false, content: "not a list" };
          secondStarted.resolve();
          throw new TypeError("echo broke");
        },
      }),
    );
    await daemon.send({ frame: { case: "dispatchRequest", value: { requestId: "d-slow", call: sealedCall("slow") } } });
    await daemon.send({ frame: { case: "dispatchRequest", value: { requestId: "d-fails", call: sealedCall("fails") } } });
    const fails = await expectFrame(daemon, "dispatchReply");
    expect(fails.requestId).toBe("d-fails");
    expect(fails.result?.outcome).toMatchObject({
      case: "failure",
      value: { message: "echo broke", code: "tool_error", name: "TypeError", content: [{ block: { case: "text", value: "Error: echo broke" } }] },
    });
    const slow = await expectFrame(daemon, "dispatchReply");
    expect(slow.requestId).toBe("d-slow");
    expect(slow.result?.outcome).toMatchObject({ case: "failure", value: { message: "quota", code: "quota_exceeded", name: "echo" } });

    await daemon.send({ frame: { case: "dispatchRequest", value: { requestId: "d-bad", call: sealedCall("bad") } } });
    const bad = await expectFrame(daemon, "dispatchReply");
    expect(bad.requestId).toBe("d-bad");
    expect(bad.result?.outcome).toMatchObject({ case: "failure", value: { code: "invalid_result" } });
  });

  test("cancel sends CancelTurn; the turn's end aborts its in-flight handlers and their replies are dropped", async () => {
    const stepAborted = deferred<unknown>();
    const { session, daemon } = await openSession(
      connect(),
      handlers({
        runStep: ({ signal }) =>
          new Promise((_resolve, reject) => {
            signal.addEventListener("abort", () => {
              stepAborted.resolve(signal.reason);
              reject(signal.reason as Error);
            });
          }),
      }),
    );
    const turn = session.followUp("long task");
    await expectFrame(daemon, "prompt");
    await daemon.send(turnStarted(1));
    await daemon.send({ frame: { case: "stepRequest", value: { requestId: "step-1", turn: 1, step: 1, messages: [] } } });

    await session.cancel("user pressed escape");
    expect(await expectFrame(daemon, "cancel")).toMatchObject({ reason: "user pressed escape" });
    await daemon.send(turnEnded(1, pb.TurnEndReason.ABORTED, "user pressed escape", 0));
    expect(await turn).toEqual({ turn: 1, reason: "cancelled", detail: "user pressed escape", steps: 0 });
    expect(await stepAborted.promise).toMatchObject({ code: "cancelled", message: "turn 1 ended (cancelled)" });

    // The aborted step's error reply was dropped: the next frame is the steer sent after it.
    await session.steer("next time, be brief");
    const steer = await expectFrame(daemon, "prompt");
    expect(steer.kind).toBe(pb.PromptKind.STEER);
    await session.inject([{ type: "text", text: "fyi" }]);
    expect((await expectFrame(daemon, "prompt")).kind).toBe(pb.PromptKind.INJECT);
  });
});

describe("approvals", () => {
  test("without an approver every ask is answered cancelled at once, with a note", async () => {
    const { daemon } = await openSession(connect(), handlers());
    await daemon.send({ frame: { case: "approvalRequest", value: { requestId: "a-1", call: sealedCall("c1"), reason: "ok?", askedBy: "p", deadlineMs: 60_000 } } });
    expect(await expectFrame(daemon, "approvalReply")).toMatchObject({ requestId: "a-1", outcome: pb.ApprovalOutcome.CANCELLED, note: "agent has no approver" });
  });

  test("an approver's note travels; one that throws is answered cancelled with its error", async () => {
    const { daemon } = await openSession(
      connect(),
      handlers({
        approve: async ({ call }) => {
          if (call.callId === "c1") return { outcome: "rejected", note: "not on weekends" };
          throw new Error("UI crashed");
        },
      }),
    );
    await daemon.send({ frame: { case: "approvalRequest", value: { requestId: "a-1", call: sealedCall("c1"), reason: "ok?", askedBy: "p", deadlineMs: 0 } } });
    expect(await expectFrame(daemon, "approvalReply")).toMatchObject({ requestId: "a-1", outcome: pb.ApprovalOutcome.REJECTED, note: "not on weekends" });
    await daemon.send({ frame: { case: "approvalRequest", value: { requestId: "a-2", call: sealedCall("c2"), reason: "ok?", askedBy: "p", deadlineMs: 0 } } });
    expect(await expectFrame(daemon, "approvalReply")).toMatchObject({
      requestId: "a-2",
      outcome: pb.ApprovalOutcome.CANCELLED,
      note: "the approver failed: UI crashed",
    });
  });

  test("the approver's signal aborts at the local deadline, and its late answer is not sent", async () => {
    const sawDeadline = deferred<unknown>();
    const { daemon } = await openSession(
      connect(),
      handlers({
        approve: ({ call, signal }) =>
          call.callId === "quick"
            ? Promise.resolve("rejected")
            : new Promise((resolve) => {
                signal.addEventListener("abort", () => {
                  sawDeadline.resolve(signal.reason);
                  resolve("allowed-once"); // too late: the daemon has denied already
                });
              }),
      }),
    );
    await daemon.send({ frame: { case: "approvalRequest", value: { requestId: "a-slow", call: sealedCall("slow"), reason: "?", askedBy: "p", deadlineMs: 1 } } });
    expect(await sawDeadline.promise).toMatchObject({ code: "deadline_exceeded" });
    await daemon.send({ frame: { case: "approvalRequest", value: { requestId: "a-quick", call: sealedCall("quick"), reason: "?", askedBy: "p", deadlineMs: 0 } } });
    expect(await expectFrame(daemon, "approvalReply")).toMatchObject({ requestId: "a-quick", outcome: pb.ApprovalOutcome.REJECTED });
  });
});

describe("finalize", () => {
  const candidate = toProtoToolResult({ isError: true, code: "denied", name: "policy", message: "no", content: [{ type: "text", text: "Error: no" }], contexts: [] });
  const request = (requestId: string, callId: string, toolName = "echo"): ResponseInit => ({
    frame: { case: "finalizeRequest", value: { requestId, call: { ...sealedCall(callId), toolName }, candidate, deadlineMs: 0 } },
  });

  test("a tool with finalize is declared finalizes_content; its answers are content or keep, by request id", async () => {
    const seen: [string, boolean, number][] = [];
    const tools = [
      { ...TOOLS[0], finalize: ({ call, candidate: c, deadlineMs }: { call: ToolCall; candidate: { isError: boolean }; deadlineMs: number }) => {
        seen.push([call.callId, c.isError, deadlineMs]);
        if (call.callId === "throws") throw new Error("broke");
        return call.callId === "keep" ? undefined : [{ type: "text" as const, text: "[final]" }];
      } },
      { name: "plain", description: "", inputSchemaJson: "", concurrencySafe: false },
    ];
    const session = connect().openSession({ sessionId: "s1", tools }, handlers());
    const daemon = await arrivals.next();
    const open = await expectFrame(daemon, "open");
    expect(open.tools.map((tool) => [tool.name, tool.finalizesContent])).toEqual([["echo", true], ["plain", false]]);
    await daemon.send({ frame: { case: "opened", value: { sessionId: "s1", resumed: false } } });
    await session.opened;

    await daemon.send(request("f-1", "replace"));
    expect(await expectFrame(daemon, "finalizeReply")).toMatchObject({ requestId: "f-1", content: { blocks: [{ block: { case: "text", value: "[final]" } }] } });
    for (const [id, callId, toolName] of [["f-2", "keep", "echo"], ["f-3", "throws", "echo"], ["f-4", "other", "plain"]] as const) {
      await daemon.send(request(id, callId, toolName));
      const reply = await expectFrame(daemon, "finalizeReply");
      expect(reply.requestId).toBe(id);
      expect(reply.content).toBeUndefined();
    }
    expect(seen).toEqual([["replace", true, 0], ["keep", true, 0], ["throws", true, 0]]);
    expect(session.problems).toEqual([]);
  });

  test("openSession refuses a finalize that is not a function, naming the field", () => {
    const tools = [{ ...TOOLS[0], finalize: "yes" as unknown as () => undefined }];
    expect(() => connect().openSession({ sessionId: "s1", tools }, handlers())).toThrow(/tools\[0\]\.finalize must be a function/);
  });
});

describe("failures and problems", () => {
  test("a stream that ends with an error status rejects opened and pending follow-ups with it", async () => {
    const client = connect();
    const session = client.openSession({ sessionId: "s1", tools: [] }, handlers());
    const daemon = await arrivals.next();
    await expectFrame(daemon, "open");
    const pending = session.followUp("hello");
    await expectFrame(daemon, "prompt");
    daemon.finish(new StatusError(status.PERMISSION_DENIED, "session s1 belongs to another agent"));

    const error = await pending.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(StatusError);
    expect(error).toMatchObject({ code: status.PERMISSION_DENIED, details: "session s1 belongs to another agent" });
    await expect(session.opened).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await session.ended).toMatchObject({ code: status.PERMISSION_DENIED });
    await expect(session.followUp("again")).rejects.toMatchObject({ code: status.FAILED_PRECONDITION });
  });

  test("a stream the daemon ends cleanly mid-turn rejects the pending follow-up with UNAVAILABLE and aborts its handlers", async () => {
    const stepSignal = deferred<AbortSignal>();
    const { session, daemon } = await openSession(
      connect({ agentId: "agent-7", reconnect: { maxAttempts: 0 } }),
      handlers({
        runStep: ({ signal }) => {
          stepSignal.resolve(signal);
          return new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
        },
      }),
    );
    const pending = session.followUp("hello");
    await expectFrame(daemon, "prompt");
    await daemon.send(turnStarted(1));
    await daemon.send({ frame: { case: "stepRequest", value: { requestId: "step-1", turn: 1, step: 1, messages: [] } } });
    const signal = await stepSignal.promise;
    daemon.finish();
    await expect(pending).rejects.toMatchObject({ code: status.UNAVAILABLE, details: "the daemon ended session s1's stream" });
    expect(await session.ended).toBeUndefined(); // it waited for the aborted step to settle
    expect(signal.aborted).toBe(true);
  });

  test("problem frames and unusable frames are recorded and reported; the session keeps going", async () => {
    const events: SessionEvent[] = [];
    let throwOnce = true;
    const { session, daemon } = await openSession(
      connect(),
      handlers({
        dispatch: () => Promise.reject(new Error("must not run")),
        onEvent(event) {
          events.push(event);
          if (throwOnce) {
            throwOnce = false;
            throw new Error("observer bug");
          }
        },
      }),
    );
    await daemon.send({ frame: { case: "problem", value: { code: "INVALID_ARGUMENT", message: "step_reply.request_id: unknown", requestId: "r-x" } } });
    await daemon.send({ frame: { case: "dispatchRequest", value: { requestId: "d-1", call: sealedCall("c1", 1, "{not json") } } });
    const reply = await expectFrame(daemon, "dispatchReply");
    expect(reply.result?.outcome).toMatchObject({ case: "failure", value: { code: "invalid_arguments" } });

    const turn = session.followUp("still here");
    await expectFrame(daemon, "prompt");
    await daemon.send(turnStarted(1));
    await daemon.send(turnEnded(1, pb.TurnEndReason.COMPLETED));
    expect(await turn).toMatchObject({ turn: 1, reason: "completed" });

    expect(session.problems).toEqual([
      // "opened" was the first event, so the throwing onEvent is the first problem.
      { origin: "agent", code: "INTERNAL", message: "onEvent threw on opened: observer bug" },
      { origin: "daemon", code: "INVALID_ARGUMENT", message: "step_reply.request_id: unknown", requestId: "r-x" },
      expect.objectContaining({ origin: "agent", code: "INVALID_ARGUMENT", requestId: "d-1", message: expect.stringContaining("dispatch_request.call.arguments_json") as unknown }),
    ]);
    expect(events.filter((event) => event.type === "problem")).toHaveLength(2);
  });

  test("a prompt the daemon would refuse is rejected locally and never sent", async () => {
    const { session, daemon } = await openSession(connect(), handlers());
    await expect(session.followUp("")).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    await expect(session.followUp([])).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    await expect(session.steer([{ type: "json", json: "{nope" }])).rejects.toMatchObject({ code: status.INVALID_ARGUMENT });
    await session.cancel();
    expect(await expectFrame(daemon, "cancel")).toMatchObject({ reason: "cancelled by the agent" });
  });
});

describe("ending a session", () => {
  test("detach ends the stream without CloseSession; a pending follow-up settles as cancelled", async () => {
    const started = deferred();
    const { session, daemon } = await openSession(connect(), handlers({ onEvent: (event) => event.type === "turn-started" && started.resolve() }));
    const pending = session.followUp("hello");
    await expectFrame(daemon, "prompt");
    await daemon.send(turnStarted(3));
    await started.promise;
    await session.detach();
    expect(await daemon.next()).toBeUndefined(); // no close frame: the stream just ended
    expect(await pending).toMatchObject({ turn: 3, reason: "cancelled" });
    expect(await session.ended).toBeUndefined();
    await expect(session.steer("late")).rejects.toMatchObject({ code: status.FAILED_PRECONDITION });
  });

  test("close sends CloseSession, half-closes and waits for the daemon to end the stream", async () => {
    const { session, daemon } = await openSession(connect(), handlers());
    const closing = session.close();
    await expectFrame(daemon, "close");
    expect(await daemon.next()).toBeUndefined(); // half-closed
    expect(daemon.signal.aborted).toBe(false); // not cancelled
    daemon.finish();
    await closing;
    expect(await session.ended).toBeUndefined();
  });

  test("with a token, every call carries it as a bearer header and no agent header", async () => {
    const client = connect({ token: "s3cr3t" });
    const { daemon, open } = await openSession(client, handlers());
    expect(daemon.metadata.get("authorization")).toEqual(["Bearer s3cr3t"]);
    expect(daemon.metadata.get("x-hookd-agent")).toEqual([]);
    expect(daemon.metadata.get("x-hookd-session")).toEqual(["s1"]);
    expect(open.agentId).toBe("");
    expect(() => connectHost(address, { token: "two\nlines" })).toThrow(/token/);
  });

  test("resume opens with source resume and reports a resumed session", async () => {
    const client = connect();
    const session = client.openSession({ sessionId: "s1", source: "resume", tools: [] }, handlers());
    const daemon = await arrivals.next();
    expect(await expectFrame(daemon, "open")).toMatchObject({ sessionId: "s1", source: pb.SessionSource.RESUME });
    await daemon.send({ frame: { case: "opened", value: { sessionId: "s1", resumed: true, contexts: [] } } });
    expect(await session.opened).toEqual({ sessionId: "s1", resumed: true, contexts: [], heartbeatIntervalMs: 0, instanceId: "" });
  });
});

describe("affinity metadata, heartbeats and reconnect-and-resume", () => {
  const opened = (resumed: boolean, heartbeatIntervalMs = 0): ResponseInit => ({ frame: { case: "opened", value: { sessionId: "s1", resumed, heartbeatIntervalMs } } });

  test("the Session stream carries the agent and the session as metadata", async () => {
    const { daemon } = await openSession(connect(), handlers());
    expect(daemon.metadata.get("x-hookd-agent")).toEqual(["agent-7"]);
    expect(daemon.metadata.get("x-hookd-session")).toEqual(["s1"]);
  });

  test("a stream broken with INTERNAL (a proxy's RST_STREAM) is resumed on a new stream; the lost turn's follow-up rejects, new ones work", async () => {
    const events: SessionEvent[] = [];
    const { session, daemon } = await openSession(connect({ agentId: "agent-7", reconnect: { initialBackoffMs: 1 } }), handlers({ onEvent: (event) => events.push(event) }));
    const lost = session.followUp("first");
    await expectFrame(daemon, "prompt");
    daemon.finish(new StatusError(status.INTERNAL, "Received RST_STREAM with code 2 triggered by internal client error"));
    await expect(lost).rejects.toMatchObject({ code: status.INTERNAL });

    const again = await arrivals.next();
    expect(again.metadata.get("x-hookd-session")).toEqual(["s1"]);
    expect(await expectFrame(again, "open")).toMatchObject({ sessionId: "s1", source: pb.SessionSource.RESUME, agentId: "agent-7" });
    // A follow-up made while the new stream opens waits for it.
    const next = session.followUp("second");
    await again.send(opened(true));
    expect(await expectFrame(again, "prompt")).toMatchObject({ content: [{ block: { case: "text", value: "second" } }] });
    await again.send(turnStarted(2));
    await again.send(turnEnded(2, pb.TurnEndReason.COMPLETED));
    await expect(next).resolves.toMatchObject({ turn: 2, reason: "completed" });
    expect(events.filter((e) => e.type === "disconnected" || e.type === "reconnected").map((e) => e.type)).toEqual(["disconnected", "reconnected"]);
    expect(events.find((e) => e.type === "reconnected")).toMatchObject({ attempts: 1, opened: { resumed: true } });
    again.finish();
    await session.detach();
    expect(await session.ended).toBeUndefined();
  });

  test("close() while reconnecting closes the session on the resumed stream; detach() stops reconnecting", async () => {
    const { session, daemon } = await openSession(connect({ agentId: "agent-7", reconnect: { initialBackoffMs: 1 } }), handlers());
    daemon.finish(new StatusError(status.UNAVAILABLE, "gone"));
    const again = await arrivals.next();
    await expectFrame(again, "open");
    const closing = session.close("cleared");
    await again.send(opened(true));
    expect(await expectFrame(again, "close")).toMatchObject({ reason: pb.SessionEndReason.CLEARED });
    again.finish();
    await closing;
    expect(await session.ended).toBeUndefined();

    const broke = deferred();
    const onEvent = (event: SessionEvent) => event.type === "disconnected" && broke.resolve();
    const second = await openSession(connect({ agentId: "agent-7", reconnect: { initialBackoffMs: 60_000, maxBackoffMs: 60_000 } }), handlers({ onEvent }));
    second.daemon.finish(new StatusError(status.UNAVAILABLE, "gone"));
    await broke.promise; // the client is now in its minute-long backoff
    await second.session.detach(); // wakes the minute-long backoff: no new stream is opened
    expect(await second.session.ended).toBeUndefined();
  });

  test("a resume refused NOT_FOUND ends the session with NOT_FOUND at once, without further attempts", async () => {
    const { session, daemon } = await openSession(connect({ agentId: "agent-7", reconnect: { initialBackoffMs: 1, maxAttempts: 5 } }), handlers());
    daemon.finish(new StatusError(status.UNAVAILABLE, "instance gone"));
    const again = await arrivals.next();
    await expectFrame(again, "open");
    again.finish(new StatusError(status.NOT_FOUND, 'open.session_id: session "s1" of agent "agent-7" is not known to this daemon'));
    const ended = await session.ended;
    expect(ended).toBeInstanceOf(StatusError);
    expect(ended).toMatchObject({ code: status.NOT_FOUND, details: expect.stringContaining('session "s1"') as unknown });
    await expect(session.followUp("too late")).rejects.toMatchObject({ code: status.FAILED_PRECONDITION, details: expect.stringContaining("is over") as unknown });
  });

  test("the attempts are bounded: the last status ends the session, saying how many were made", async () => {
    const { session, daemon } = await openSession(connect({ agentId: "agent-7", reconnect: { initialBackoffMs: 1, maxBackoffMs: 2, maxAttempts: 2 } }), handlers());
    daemon.finish(new StatusError(status.UNAVAILABLE, "gone"));
    for (let attempt = 0; attempt < 2; attempt++) {
      const again = await arrivals.next();
      await expectFrame(again, "open");
      again.finish(new StatusError(status.FAILED_PRECONDITION, 'open.session_id: session "s1" is attached to another stream'));
    }
    expect(await session.ended).toMatchObject({ code: status.FAILED_PRECONDITION, details: expect.stringContaining("could not be resumed in 2 attempts") as unknown });
  });

  test("a resume the daemon answers with a fresh session is no resume: NOT_FOUND", async () => {
    const { session, daemon } = await openSession(connect({ agentId: "agent-7", reconnect: { initialBackoffMs: 1 } }), handlers());
    daemon.finish();
    const again = await arrivals.next();
    await expectFrame(again, "open");
    await again.send(opened(false));
    expect(await session.ended).toMatchObject({ code: status.NOT_FOUND, details: expect.stringContaining("a fresh session") as unknown });
  });

  test("sends heartbeats on the announced interval while idle, ignores the daemon's, and records no problem", async () => {
    const session = connect().openSession({ sessionId: "s1", tools: [] }, handlers());
    const daemon = await arrivals.next();
    await expectFrame(daemon, "open");
    await daemon.send(opened(false, 20));
    await session.opened;
    await daemon.send({ frame: { case: "heartbeat", value: { sequence: 1n } } });
    const first = await expectFrame(daemon, "heartbeat");
    const second = await expectFrame(daemon, "heartbeat");
    expect([first.sequence, second.sequence]).toEqual([1n, 2n]);
    expect(session.problems).toEqual([]);
    await session.detach();
  });

  test("refuses bad reconnect options and service configs, naming the field", () => {
    expect(() => connectHost(address, { reconnect: { maxAttempts: -1 } })).toThrow(/reconnect\.maxAttempts/);
    expect(() => connectHost(address, { reconnect: { initialBackoffMs: 0 } })).toThrow(/reconnect\.initialBackoffMs/);
    expect(() => connectHost(address, { serviceConfig: { loadBalancingConfig: "round_robin" } })).toThrow(/connectHost: .*loadBalancingConfig/i);
  });
});
