// HookHost.Evaluate through a real `hookd serve`, on raw streams: every evaluated point answered
// exactly as its unary RPC answers (decision, trace, the plugin's view, and the same status for a
// bad request), many requests multiplexed on one stream; a request's deadline and a cancel frame
// reach the plugin's signal (TimeoutError, AbortError) while the other requests on the stream go
// on; protocol mistakes (a reused id, no request, a point this daemon does not know) are
// answered for their id and the stream stays open; a client that goes
// away cancels what it had in flight.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { create, toJson } from "@bufbuild/protobuf";
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { WireType } from "@bufbuild/protobuf/wire";
import { EVALUATED_POINTS, EVALUATE_TABLE, POINT_TABLE, assistantMessage, connectHost, snapshotJson, userMessage } from "@hookd/sdk";
import type { EvaluatedPoint, SessionInfo, ToolCall, ToolResult } from "@hookd/sdk";
import { EVALUATE_STREAM_CASES, StatusError, closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { CallOptions, TypedClient } from "@hookd/sdk/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, waitForFile, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { RawEvaluateStream, callError } from "../support/evaluate-stream.js";

const POLICY = `
import { appendFileSync } from "node:fs";
import { accept, allow, approve, ask, definePlugin, deny, inject, patch, pass, pluginMessage, reject, steer, toJsonText, userMessage } from "@hookd/sdk";
const text = (m) => (m?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");
// What a notification saw, without the session id (which differs between the two transports).
const seen = (point, e) => appendFileSync(process.env.HOOKD_TEST_LOG, toJsonText({ point, via: e.session.sessionId, event: { ...e, session: { ...e.session, sessionId: "" } } }) + "\\n");
const waitForAbort = (ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason), { once: true }));
export default definePlugin({
  name: "parity",
  points: {
    "session-start": (e) => inject([pluginMessage("parity", "rules for " + e.source)]),
    "pre-step": (e) => (e.messages.some((m) => text(m).includes("secret")) ? reject("no secrets in prompts") : pass()),
    rewrite: (e) => (e.call.arguments.path === undefined ? pass() : patch({ path: "/sandbox/" + e.call.arguments.path })),
    "pre-tool": {
      deadlineMs: 60000,
      handler: async (e, ctx) => {
        const command = String(e.call.arguments.command);
        if (command === "hang") {
          appendFileSync(process.env.HOOKD_TEST_LOG, "started " + e.call.callId + "\\n");
          const reason = await waitForAbort(ctx);
          appendFileSync(process.env.HOOKD_TEST_LOG, "aborted " + e.call.callId + " " + reason?.name + "\\n");
          return allow();
        }
        if (command.includes("curl")) return deny("network is off");
        if (command.startsWith("sudo")) return ask("root needs a human");
        return pass();
      },
    },
    approval: (e) => (e.call.arguments.command === "sudo ls" ? approve() : reject("not as root")),
    "post-tool": (e) => accept({ additionalContexts: [pluginMessage("parity", "seen " + e.call.toolName)] }),
    "tool-result": (e) => seen("tool-result", e),
    "turn-stopping": (e) => (e.stopHookActive ? pass() : steer([userMessage("continue")])),
    "turn-end": (e) => seen("turn-end", e),
    "session-end": (e) => seen("session-end", e),
    "agent-event": { tools: ["Notification"], handler: (e) => seen("agent-event", e) },
  },
});
`;

type Host = TypedClient<typeof pb.HookHost>;
type LooseCall = (request: Record<string, unknown>, options: CallOptions) => Promise<Message>;

let daemon: DaemonProcess;
let host: Host;
let logFile: string;
let metricsAt: string;
const metadata = { "x-hookd-agent": "eve" };
const MAX_MESSAGE_BYTES = 256 * 1024;

beforeAll(async () => {
  const module = await writePluginModule("parity", POLICY);
  logFile = join(module, "..", "plugin.log");
  await writeFile(logFile, "");
  daemon = await startDaemon({ config: { plugins: [{ name: "parity", kind: "in-process", module }], limits: { maxMessageBytes: MAX_MESSAGE_BYTES }, metrics: { listen: "127.0.0.1:0" } }, env: { HOOKD_TEST_LOG: logFile } });
  host = createClient(pb.HookHost, daemon.target);
  metricsAt = String((await daemon.waitForLog((line) => line.msg === "metrics serving")).address);
});

afterAll(async () => {
  if (host !== undefined) closeClient(host);
  await daemon?.stop();
});

function sessionOf(sessionId: string): SessionInfo {
  return { sessionId, agentId: "eve", cwd: "/work" };
}

function toolCall(sessionId: string, callId: string, args: Record<string, unknown>): ToolCall {
  const snap = snapshotJson(args);
  return { callId, rootCallId: callId, toolName: "Bash", arguments: snap.value, argumentsJson: snap.text, sessionId, turn: 1, step: 1 };
}

const RESULT: ToolResult = { isError: false, value: "ok", content: [{ type: "text", text: "ok" }], contexts: [] };

/** One request per case: the point, its typed event for a session, the request's other fields, and a text its answer must hold. */
const CASES: readonly { label: string; point: EvaluatedPoint; event: (s: string) => object; fields?: Record<string, unknown>; holds: string }[] = [
  { label: "session-start", point: "session-start", event: (s) => ({ session: sessionOf(s), source: "startup", tools: [] }), holds: "rules for startup" },
  { label: "pre-step reject", point: "pre-step", event: (s) => ({ session: sessionOf(s), turn: 1, step: 1, messages: [userMessage("tell me the secret")] }), holds: "no secrets in prompts" },
  { label: "pre-step pass", point: "pre-step", event: (s) => ({ session: sessionOf(s), turn: 1, step: 2, messages: [userMessage("hello")] }), holds: "default" },
  { label: "rewrite", point: "rewrite", event: (s) => ({ session: sessionOf(s), call: toolCall(s, "r1", { path: "a.txt" }) }), holds: "/sandbox/a.txt" },
  { label: "pre-tool deny", point: "pre-tool", event: (s) => ({ session: sessionOf(s), call: toolCall(s, "t1", { command: "curl evil.sh" }) }), holds: "network is off" },
  { label: "pre-tool ask approved", point: "pre-tool", event: (s) => ({ session: sessionOf(s), call: toolCall(s, "t2", { command: "sudo ls" }) }), holds: "allow" },
  {
    label: "pre-tool ask refused, the agent resolving",
    point: "pre-tool",
    event: (s) => ({ session: sessionOf(s), call: toolCall(s, "t3", { command: "sudo rm" }) }),
    fields: { agentResolvesAsk: true },
    holds: "not as root",
  },
  { label: "approval", point: "approval", event: (s) => ({ session: sessionOf(s), call: toolCall(s, "a1", { command: "sudo rm" }), reason: "root", askedBy: "parity" }), holds: "not as root" },
  { label: "post-tool", point: "post-tool", event: (s) => ({ session: sessionOf(s), call: toolCall(s, "p1", { command: "ls" }), result: RESULT }), holds: "seen Bash" },
  { label: "tool-result", point: "tool-result", event: (s) => ({ session: sessionOf(s), call: toolCall(s, "p1", { command: "ls" }), result: RESULT }), holds: "{}" },
  {
    label: "turn-stopping",
    point: "turn-stopping",
    event: (s) => ({ session: sessionOf(s), turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0, lastAssistantMessage: assistantMessage("done") }),
    holds: "continue",
  },
  { label: "turn-end", point: "turn-end", event: (s) => ({ session: sessionOf(s), turn: 1, outcome: "completed", detail: "", steps: 1 }), holds: "{}" },
  { label: "session-end", point: "session-end", event: (s) => ({ session: sessionOf(s), reason: "closed", detail: "bye", turns: 1 }), holds: "{}" },
  { label: "agent-event", point: "agent-event", event: (s) => ({ session: sessionOf(s), dialect: "claude-code", eventName: "Notification", payload: { n: 1 } }), holds: "{}" },
];

function requestOf(point: EvaluatedPoint, event: object, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const codec = POINT_TABLE[point].event as { toProto(event: object): Message };
  return { event: codec.toProto(event), ...fields };
}

function unary(point: EvaluatedPoint, request: Record<string, unknown>, options: CallOptions = { metadata }): Promise<Message> {
  return (host[EVALUATE_TABLE[point].method] as unknown as LooseCall)(request, options);
}

function streamRequest(point: EvaluatedPoint, request: Record<string, unknown>): pb.EvaluateRequest["request"] {
  return { case: EVALUATE_STREAM_CASES[point].request, value: request } as unknown as pb.EvaluateRequest["request"];
}

/** The response as JSON, its durations zeroed (the one thing that differs between two runs). */
function comparable(schema: DescMessage, message: Message): string {
  return JSON.stringify(toJson(schema, message), (key, value: unknown) => (key === "durationUs" ? 0 : value));
}

async function unaryError(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(StatusError);
  return { code: (error as StatusError).codeName, message: (error as StatusError).details };
}

/** The daemon's gauge of open Evaluate streams. */
async function evaluateStreamsOpen(): Promise<number | undefined> {
  const body = await (await fetch(`http://${metricsAt}/metrics`)).text();
  const line = body.split("\n").find((l) => l.startsWith("hookd_evaluate_streams_open "));
  return line === undefined ? undefined : Number(line.split(" ")[1]);
}

// First in the file: no stream of another test is open (or still closing) yet.
describe("the agent client against the daemon", () => {
  it("evaluates over one Evaluate stream by default (the daemon's gauge counts it), and over none when told unary", async () => {
    await expect(evaluateStreamsOpen()).resolves.toBe(0);
    const unaryClient = connectHost(daemon.target, { agentId: "eve", evaluateTransport: "unary" });
    const streamClient = connectHost(daemon.target, { agentId: "eve" });
    try {
      const event = { session: sessionOf("gauge"), call: toolCall("gauge", "g1", { command: "curl x" }) };
      await expect(unaryClient.evaluatePreTool(event)).resolves.toMatchObject({ decision: { kind: "deny", reason: "network is off" } });
      await expect(evaluateStreamsOpen()).resolves.toBe(0);
      const answers = await Promise.all([streamClient.evaluatePreTool(event), streamClient.evaluatePreStep({ session: sessionOf("gauge"), turn: 1, step: 1, messages: [userMessage("a secret")] })]);
      expect(answers.map((a) => a.decision.kind)).toEqual(["deny", "reject"]);
      await expect(evaluateStreamsOpen()).resolves.toBe(1);
      await streamClient.evaluatePreTool(event);
      await expect(evaluateStreamsOpen()).resolves.toBe(1);
    } finally {
      unaryClient.close();
      streamClient.close();
    }
  });
});

describe("the Evaluate stream against the unary evaluate RPCs", () => {
  it("covers every evaluated point", () => {
    expect(new Set(CASES.map((c) => c.point))).toEqual(new Set(EVALUATED_POINTS));
  });

  it("answers every point exactly as its unary RPC, with all requests in flight on one stream at once", async () => {
    const viaUnary = await Promise.all(CASES.map((c) => unary(c.point, requestOf(c.point, c.event("par-unary"), c.fields))));
    const stream = new RawEvaluateStream(host, metadata);
    const ids = CASES.map((_, index) => BigInt(100 + index));
    const answers = ids.map((id) => stream.answer(id));
    await Promise.all(CASES.map((c, index) => stream.send(ids[index] ?? 0n, streamRequest(c.point, requestOf(c.point, c.event("par-stream"), c.fields)))));
    const viaStream = await Promise.all(answers);
    for (const [index, c] of CASES.entries()) {
      const { responseSchema, response } = EVALUATE_STREAM_CASES[c.point];
      const streamed = viaStream[index];
      expect(streamed?.reply.case, c.label).toBe(response);
      const expected = comparable(responseSchema, viaUnary[index] as Message);
      // The two runs differ by their session ids alone.
      expect(comparable(responseSchema, streamed?.reply.value as Message).replaceAll('"par-stream"', '"par-unary"'), c.label).toBe(expected);
      expect(expected, c.label).toContain(c.holds);
    }
    // The notifications reached the plugin alike.
    const lines = (await readFile(logFile, "utf8")).split("\n").filter((line) => line.startsWith("{"));
    const seen = (via: string) =>
      lines
        .map((line) => JSON.parse(line) as { point: string; via: string; event: unknown })
        .filter((l) => l.via === via)
        .map(({ point, event }) => ({ point, event: JSON.stringify(event).replaceAll('"par-stream"', '"par-unary"') }));
    expect(seen("par-unary").map((l) => l.point).sort()).toEqual(["agent-event", "session-end", "tool-result", "turn-end"]);
    expect(seen("par-stream")).toEqual(expect.arrayContaining(seen("par-unary")));
    expect(seen("par-stream")).toHaveLength(4);
    stream.end();
    await expect(stream.ended).resolves.toBeUndefined();
  });

  it("answers a bad request with the status its unary RPC ends with, for every point, and the stream stays open", async () => {
    const stream = new RawEvaluateStream(host, metadata);
    let id = 1n;
    for (const point of EVALUATED_POINTS) {
      const good = CASES.find((c) => c.point === point)?.event("bad") ?? {};
      const badEvents: [string, Record<string, unknown>][] = [
        ["no event", {}],
        ["no session id", requestOf(point, { ...good, session: { ...sessionOf(""), sessionId: "" } })],
        ["another agent's id", requestOf(point, { ...good, session: { ...sessionOf("bad"), agentId: "mallory" } })],
      ];
      for (const [what, request] of badEvents) {
        const expected = await unaryError(unary(point, request));
        expect(expected.code, `${point}, ${what}`).toMatch(/INVALID_ARGUMENT|PERMISSION_DENIED/);
        expect(callError(await stream.ask(id++, streamRequest(point, request))), `${point}, ${what}`).toEqual(expected);
      }
    }
    expect(callError(await stream.ask(id++, streamRequest("pre-tool", requestOf("pre-tool", { session: sessionOf("bad"), call: toolCall("bad", "ok", { command: "ls" }) }))))).toBeUndefined();
    stream.end();
    await expect(stream.ended).resolves.toBeUndefined();
  });
});

describe("requests sharing one stream", () => {
  const hang = (callId: string) => streamRequest("pre-tool", requestOf("pre-tool", { session: sessionOf("shared"), call: toolCall("shared", callId, { command: "hang" }) }));
  const quick = (callId: string) => streamRequest("pre-tool", requestOf("pre-tool", { session: sessionOf("shared"), call: toolCall("shared", callId, { command: "ls" }) }));

  it("times out one request by its deadline_ms (the plugin sees a TimeoutError) and cancels another by a cancel frame (AbortError); the rest are served", async () => {
    const stream = new RawEvaluateStream(host, metadata);
    const timed = stream.answer(1n);
    await stream.send(1n, hang("d1"), 400);
    const cancelled = stream.answer(2n);
    await stream.send(2n, hang("d2"));
    await waitForFile(logFile, "started d1");
    await waitForFile(logFile, "started d2");
    // Both hang; a request behind them is answered at once.
    expect((await stream.ask(3n, quick("d3"))).reply.case).toBe("preTool");
    expect(callError(await timed)).toEqual({ code: "DEADLINE_EXCEEDED", message: "deadline_ms: the request's deadline of 400 ms passed" });
    await waitForFile(logFile, "aborted d1 TimeoutError");
    await stream.sendCancel(2n);
    expect(callError(await cancelled)).toEqual({ code: "CANCELLED", message: "the client cancelled the request" });
    await waitForFile(logFile, "aborted d2 AbortError");
    // Each request was answered once: the evaluations the deadline and cancel ended say nothing more.
    expect((await stream.ask(4n, quick("d4"))).reply.case).toBe("preTool");
    expect(stream.received.map((r) => r.requestId).sort()).toEqual([1n, 2n, 3n, 4n]);
    stream.end();
    await expect(stream.ended).resolves.toBeUndefined();
  });

  it("answers a reused id still in flight, a frame without a request and a request of an unknown point with an error for that id; the stream stays open", async () => {
    const stream = new RawEvaluateStream(host, metadata);
    await stream.send(7n, hang("u1"));
    await waitForFile(logFile, "started u1");
    const reused = await stream.ask(7n, quick("u2"));
    expect(callError(reused)).toEqual({ code: "INVALID_ARGUMENT", message: "request_id: 7 is already in flight on this stream" });
    expect(callError(await stream.ask(9n, { case: undefined }))).toEqual({ code: "INVALID_ARGUMENT", message: "request: required: one evaluate request or cancel" });
    // A request of a point this daemon does not know (a field of a newer proto) is UNIMPLEMENTED, as a unary call to a missing method.
    const newer = stream.answer(10n);
    const frame = create(pb.EvaluateRequestSchema, { requestId: 10n });
    frame.$unknown = [{ no: 40, wireType: WireType.LengthDelimited, data: new Uint8Array([0]) }];
    await stream.sendFrame(frame);
    expect(callError(await newer)).toEqual({ code: "UNIMPLEMENTED", message: "request: field 40 is no evaluate request this daemon knows" });
    // A cancel of an id not in flight is no mistake: nothing answers it.
    await stream.sendCancel(11n);
    expect((await stream.ask(12n, quick("u3"))).reply.case).toBe("preTool");
    await stream.sendCancel(7n);
    expect(callError(await stream.answer(7n))).toMatchObject({ code: "CANCELLED" });
    await waitForFile(logFile, "aborted u1 AbortError");
    // Once answered, the id may be used again.
    expect((await stream.ask(7n, quick("u4"))).reply.case).toBe("preTool");
    expect(stream.received.some((r) => r.requestId === 11n)).toBe(false);
    stream.end();
    await expect(stream.ended).resolves.toBeUndefined();
  });

  it("cancels the requests in flight when the client goes away, and the daemon goes on serving", async () => {
    const stream = new RawEvaluateStream(host, metadata);
    await stream.send(1n, hang("g1"));
    await waitForFile(logFile, "started g1");
    stream.cancel();
    await waitForFile(logFile, "aborted g1 AbortError");
    await expect(stream.ended).resolves.toMatchObject({ codeName: "CANCELLED" });
    const next = new RawEvaluateStream(host, metadata);
    expect((await next.ask(1n, quick("g2"))).reply.case).toBe("preTool");
    next.end();
    await expect(next.ended).resolves.toBeUndefined();
  });
});

describe("a request over limits.maxMessageBytes", () => {
  it("ends the stream with INVALID_ARGUMENT naming the size (its id cannot be read); the agent client fails the call so and serves the next on a new stream", async () => {
    const client = connectHost(daemon.target, { agentId: "eve" });
    try {
      const big = { session: sessionOf("big"), call: toolCall("big", "b1", { command: "ls", padding: "x".repeat(MAX_MESSAGE_BYTES) }) };
      const error = await unaryError(client.evaluatePreTool(big));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(error.message).toMatch(new RegExp(`^the Evaluate stream broke: INVALID_ARGUMENT: hookd\\.v1\\.EvaluateRequest: a message of \\d+ bytes is over the limit of ${MAX_MESSAGE_BYTES} bytes$`));
      // The unary RPC refuses the same request with the same code, naming its own message type.
      const unaryRefusal = await unaryError(unary("pre-tool", requestOf("pre-tool", big)));
      expect(unaryRefusal.code).toBe("INVALID_ARGUMENT");
      expect(unaryRefusal.message).toMatch(/^hookd\.v1\.EvaluatePreToolRequest: a message of \d+ bytes is over the limit/);
      await expect(client.evaluatePreTool({ session: sessionOf("big"), call: toolCall("big", "b2", { command: "curl x" }) })).resolves.toMatchObject({ decision: { kind: "deny" } });
    } finally {
      client.close();
    }
  });
});
