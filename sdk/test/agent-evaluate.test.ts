// The typed Evaluate* calls against a fake HookHost on a temporary Unix socket: typed events go
// out exactly (2^63-1 keeps every digit), answers come back as typed decisions and traces, a pass
// reads as the point's default, and unusable answers, error statuses and aborts reject typed.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Server, status } from "@grpc/grpc-js";
import type { Metadata } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { StatusError, connectHost, parseJson, pluginMessage, userMessage } from "../src/index.js";
import { toProtoMessage, toProtoToolResult } from "../src/internal.js";
import type { HostClient, SessionInfo, ToolCall, ToolResult } from "../src/index.js";
import { addService, bindServer, pb } from "../src/internal.js";
import type { ServiceImpl } from "../src/internal.js";

const MAX_JSON = '{"n":9223372036854775807}';
const SESSION: SessionInfo = { sessionId: "s1", agentId: "agent-7", cwd: "/work" };
const CALL: ToolCall = Object.freeze({
  callId: "c1",
  rootCallId: "c1",
  toolName: "echo",
  arguments: parseJson(MAX_JSON),
  argumentsJson: MAX_JSON,
  sessionId: "s1",
  turn: 1,
  step: 2,
});
const RESULT: ToolResult = { isError: false, value: parseJson(MAX_JSON), content: [], contexts: [] };
const TRACE = { decidedBy: "policy", failureCause: "", durationUs: 42n };

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

let dir: string;
let server: Server;
let client: HostClient;
/** What the fake daemon received, by method. */
let seen: Record<string, { readonly request: unknown; readonly metadata: Metadata }>;

/** Serves `impl` and connects a client with a token. */
async function serve(impl: Partial<ServiceImpl<typeof pb.HookHost>>): Promise<void> {
  addService(server, pb.HookHost, impl);
  const address = `unix://${join(dir, "host.sock")}`;
  await bindServer(server, address);
  client = connectHost(address, { token: "t0k" });
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-agent-eval-"));
  server = new Server();
  seen = {};
});

afterEach(async () => {
  client?.close();
  server.forceShutdown();
  await rm(dir, { recursive: true, force: true });
});

describe("evaluate calls", () => {
  test("pre-tool sends the sealed call digit for digit and reads an ask with its trace", async () => {
    await serve({
      async evaluatePreTool(request, call) {
        seen.preTool = { request, metadata: call.metadata };
        return { decision: { decision: { case: "ask", value: { reason: "really?" } } }, trace: { ...TRACE, failureCause: "deadline_exceeded" } };
      },
    });
    const answer = await client.evaluatePreTool({ session: SESSION, call: CALL }, { agentResolvesAsk: true });
    expect(answer).toEqual({ decision: { kind: "ask", reason: "really?" }, trace: { decidedBy: "policy", failureCause: "deadline_exceeded", durationUs: 42 } });
    expect(Object.isFrozen(answer)).toBe(true);
    const request = seen.preTool?.request as pb.EvaluatePreToolRequest;
    expect(request.agentResolvesAsk).toBe(true);
    expect(request.event?.call?.argumentsJson).toBe(MAX_JSON);
    expect(request.event?.session).toMatchObject({ sessionId: "s1", agentId: "agent-7", cwd: "/work" });
    expect(seen.preTool?.metadata.get("authorization")).toEqual(["Bearer t0k"]);
    expect(seen.preTool?.metadata.get("x-hookd-agent")).toEqual([]);
    // Unary (this fake has no Evaluate stream), so the call names its session for affinity.
    expect(seen.preTool?.metadata.get("x-hookd-session")).toEqual(["s1"]);
  });

  test("post-tool reads the decision, the applied result (2^63-1 intact) and the trace", async () => {
    await serve({
      async evaluatePostTool(request, call) {
        seen.postTool = { request, metadata: call.metadata };
        const replaced = { valueJson: '{"n":9223372036854775807,"m":1}', content: [] };
        return {
          decision: { decision: { case: "accept", value: { valueJson: '{"n":9223372036854775807,"m":1}', additionalContexts: [] } } },
          result: { outcome: { case: "success", value: replaced }, contexts: [] },
          trace: TRACE,
        };
      },
    });
    const answer = await client.evaluatePostTool({ session: SESSION, call: CALL, result: RESULT });
    expect((seen.postTool?.request as pb.EvaluatePostToolRequest).event?.result?.outcome).toMatchObject({ case: "success", value: { valueJson: MAX_JSON } });
    expect(answer.decision).toEqual({ kind: "accept", value: { n: 9223372036854775807n, m: 1 } });
    expect(answer.result).toMatchObject({ isError: false, value: { n: 9223372036854775807n, m: 1 } });
    expect(answer.trace).toEqual({ decidedBy: "policy", durationUs: 42 });
  });

  test("pre-step, turn-stopping, session-start and tool-result convert both ways; a pass reads as the default", async () => {
    const batch = [userMessage("hi")];
    await serve({
      async evaluatePreStep(request, call) {
        seen.preStep = { request, metadata: call.metadata };
        return { decision: { decision: { case: "pass", value: {} } }, trace: TRACE };
      },
      async evaluateTurnStopping(request, call) {
        seen.turnStopping = { request, metadata: call.metadata };
        return { decision: { decision: { case: "steer", value: { messages: [toProtoMessage(pluginMessage("p", "keep going"))] } } }, capped: true, trace: TRACE };
      },
      async evaluateSessionStart(request, call) {
        seen.sessionStart = { request, metadata: call.metadata };
        return { contexts: [toProtoMessage(pluginMessage("seed", "rules"))] };
      },
      async evaluateToolResult(request, call) {
        seen.toolResult = { request, metadata: call.metadata };
        return {};
      },
    });
    expect(await client.evaluatePreStep({ session: SESSION, turn: 1, step: 1, messages: batch })).toEqual({
      decision: { kind: "enter", messages: batch },
      trace: { decidedBy: "policy", durationUs: 42 },
    });
    const stopping = await client.evaluateTurnStopping({
      session: SESSION,
      turn: 1,
      step: 3,
      stopHookActive: true,
      steeredContinuations: 2,
      lastAssistantMessage: { id: "m9", role: "assistant", content: [{ type: "text", text: "done" }], source: { kind: "model" } },
    });
    expect(stopping).toEqual({ decision: { kind: "steer", messages: [pluginMessage("p", "keep going")] }, capped: true, trace: { decidedBy: "policy", durationUs: 42 } });
    const start = await client.evaluateSessionStart({
      session: SESSION,
      source: "resume",
      tools: [{ name: "echo", description: "", inputSchemaJson: '{"type":"object"}', concurrencySafe: false }],
    });
    expect(start).toEqual({ contexts: [pluginMessage("seed", "rules")] });
    await expect(client.evaluateToolResult({ session: SESSION, call: CALL, result: RESULT })).resolves.toBeUndefined();

    expect((seen.preStep?.request as pb.EvaluatePreStepRequest).event?.messages).toHaveLength(1);
    expect((seen.turnStopping?.request as pb.EvaluateTurnStoppingRequest).event).toMatchObject({ step: 3, stopHookActive: true, steeredContinuations: 2 });
    expect((seen.sessionStart?.request as pb.EvaluateSessionStartRequest).event).toMatchObject({ source: pb.SessionSource.RESUME });
    expect((seen.toolResult?.request as pb.EvaluateToolResultRequest).event?.call?.argumentsJson).toBe(MAX_JSON);
  });
});

describe("evaluate failures", () => {
  test("an answer without a decision or with unreadable JSON is INTERNAL naming the field", async () => {
    await serve({
      async evaluatePreTool() {
        return { trace: TRACE };
      },
      async evaluatePostTool() {
        return {
          decision: { decision: { case: "accept", value: {} } },
          result: { outcome: { case: "success", value: { valueJson: "{broken", content: [] } }, contexts: [] },
          trace: TRACE,
        };
      },
      async evaluatePreStep() {
        return { decision: { decision: { case: "reject", value: { reason: "no" } } } };
      },
    });
    await expect(client.evaluatePreTool({ session: SESSION, call: CALL })).rejects.toMatchObject({
      code: status.INTERNAL,
      details: expect.stringContaining("response.decision: missing") as unknown,
    });
    await expect(client.evaluatePostTool({ session: SESSION, call: CALL, result: RESULT })).rejects.toMatchObject({
      code: status.INTERNAL,
      details: expect.stringContaining("response.result.success.value_json") as unknown,
    });
    await expect(client.evaluatePreStep({ session: SESSION, turn: 1, step: 1, messages: [] })).rejects.toMatchObject({
      code: status.INTERNAL,
      details: expect.stringContaining("response.trace: missing") as unknown,
    });
  });

  test("an error status, an aborted signal and an event the codecs refuse reject as StatusErrors", async () => {
    const arrived = deferred();
    await serve({
      async evaluatePreTool() {
        throw new StatusError(status.PERMISSION_DENIED, "session s1 belongs to another agent");
      },
      evaluatePostTool: (_request, call) =>
        new Promise((_resolve, reject) => {
          arrived.resolve();
          call.signal.addEventListener("abort", () => reject(call.signal.reason as Error));
        }),
      async evaluateToolResult() {
        throw new Error("must not be called");
      },
    });
    const denied = client.evaluatePreTool({ session: SESSION, call: CALL });
    await expect(denied).rejects.toBeInstanceOf(StatusError);
    await expect(denied).rejects.toMatchObject({ code: status.PERMISSION_DENIED, details: "session s1 belongs to another agent" });

    const controller = new AbortController();
    const aborted = client.evaluatePostTool({ session: SESSION, call: CALL, result: RESULT }, { signal: controller.signal });
    await arrived.promise;
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: status.CANCELLED });

    const notJson = { ...RESULT, value: { bad: Number.NaN } };
    await expect(client.evaluateToolResult({ session: SESSION, call: CALL, result: notJson })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
    });
  });

  test("toProtoToolResult and the client agree on a failure result", async () => {
    const failure: ToolResult = { isError: true, message: "nope", code: "denied", name: "policy", content: [], contexts: [] };
    await serve({
      async evaluatePostTool(request) {
        return { decision: { decision: { case: "pass", value: {} } }, result: request.event?.result ?? toProtoToolResult(failure), trace: TRACE };
      },
    });
    const answer = await client.evaluatePostTool({ session: SESSION, call: CALL, result: failure });
    expect(answer.decision).toEqual({ kind: "accept" });
    expect(answer.result).toEqual(failure);
  });

  test("a closed client refuses further calls and sessions with FAILED_PRECONDITION", async () => {
    await serve({});
    client.close();
    client.close(); // idempotent
    await expect(client.evaluateToolResult({ session: SESSION, call: CALL, result: RESULT })).rejects.toMatchObject({
      code: status.FAILED_PRECONDITION,
    });
    expect(() => client.openSession({ sessionId: "s1", tools: [] }, { runStep: () => Promise.reject(new Error("no")), dispatch: async () => null })).toThrow(
      StatusError,
    );
  });
});
