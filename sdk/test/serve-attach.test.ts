// servePlugin's Attach, driven by a typed grpc-js client over a real Unix socket: calls run
// concurrently and are answered by id; a cancel frame aborts the handler's signal and the call is
// not answered; deadline_ms aborts it as a TimeoutError; a handler's throw and every protocol
// mistake are answered with a CallError naming the field (the stream goes on), except a stream
// that does not start with `open`, which ends with INVALID_ARGUMENT naming the frame.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { allow, definePlugin, deny, servePlugin } from "../src/index.js";
import type { PluginServer } from "../src/index.js";
import { closeClient, createClient, pb } from "../src/internal.js";
import type { BidiCall, TypedClient } from "../src/internal.js";

type Attach = (typeof pb.HookPlugin.method)["attach"];

let dir: string;
let server: PluginServer;
let client: TypedClient<typeof pb.HookPlugin>;
const seen: string[] = [];
const gates = new Map<string, () => void>();

const plugin = definePlugin({
  name: "attached",
  points: {
    "pre-tool": async (event, ctx) => {
      const command = (event.call.arguments as { command: string }).command;
      if (command === "boom") throw new Error("boom");
      if (command.startsWith("wait")) {
        await new Promise<void>((resolve, reject) => {
          gates.set(command, resolve);
          ctx.signal.addEventListener("abort", () => {
            const reason = ctx.signal.reason as DOMException;
            seen.push(`${command}: ${reason.name}: ${reason.message}`);
            reject(reason);
          });
        });
      }
      // Says which trace context the handler was given, so the answer shows it.
      if (command === "trace") return deny(`traceparent ${ctx.traceparent ?? "(none)"}`);
      return command === "deny" ? deny("no") : allow();
    },
  },
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-sdk-attach-"));
  server = await servePlugin(plugin, { address: `unix://${join(dir, "p.sock")}`, onError: () => {} });
  client = createClient(pb.HookPlugin, server.address);
  seen.length = 0;
  gates.clear();
});

afterEach(async () => {
  closeClient(client);
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

function preToolRequest(command: string): pb.AttachCall["request"] {
  const argumentsJson = JSON.stringify({ command });
  const call = { callId: "c", rootCallId: "c", toolName: "Bash", argumentsJson, sessionId: "s", turn: 1, step: 1 };
  return { case: "preTool", value: create(pb.PreToolRequestSchema, { event: { session: { sessionId: "s", agentId: "a", cwd: "/" }, call } }) };
}

async function opened(): Promise<{ stream: BidiCall<Attach>; answers: AsyncIterator<pb.AttachResponse> }> {
  const stream = client.attach();
  await stream.send({ frame: { case: "open", value: { daemonVersion: "test", pluginName: "attached", window: 8 } } });
  return { stream, answers: stream.responses[Symbol.asyncIterator]() };
}

async function next(answers: AsyncIterator<pb.AttachResponse>): Promise<pb.AttachResponse> {
  const result = await answers.next();
  if (result.done === true) throw new Error("the stream ended");
  return result.value;
}

const call = (callId: bigint, request: pb.AttachCall["request"], deadlineMs = 0, traceparent = "") => ({ frame: { case: "call" as const, value: { callId, deadlineMs, request, traceparent } } });

const TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

function deniedReason(answer: pb.AttachResponse): string | undefined {
  return answer.reply.case === "preTool" && answer.reply.value.decision?.decision.case === "deny" ? answer.reply.value.decision.decision.value.reason : undefined;
}

describe("servePlugin serves Attach", () => {
  test("answers each call by its id as it finishes, out of order, with the point's response", async () => {
    const { stream, answers } = await opened();
    await stream.send(call(1n, preToolRequest("wait-1")));
    await stream.send(call(2n, preToolRequest("deny")));
    const first = await next(answers);
    expect({ id: first.callId, reply: first.reply.case }).toEqual({ id: 2n, reply: "preTool" });
    expect(first.reply.case === "preTool" && first.reply.value.decision?.decision.case).toBe("deny");
    gates.get("wait-1")?.();
    const second = await next(answers);
    expect({ id: second.callId, decision: second.reply.case === "preTool" ? second.reply.value.decision?.decision.case : undefined }).toEqual({ id: 1n, decision: "allow" });
    stream.cancel();
  });

  test("a cancel frame aborts the handler's signal and the call is not answered; deadline_ms aborts it as a timeout", async () => {
    const { stream, answers } = await opened();
    await stream.send(call(1n, preToolRequest("wait-cancel")));
    await stream.send(call(2n, preToolRequest("wait-deadline"), 50));
    await expect.poll(() => gates.size).toBe(2);
    await stream.send({ frame: { case: "cancel", value: { callId: 1n } } });
    const timedOut = await next(answers);
    expect(timedOut).toMatchObject({ callId: 2n, reply: { case: "error", value: { code: status.DEADLINE_EXCEEDED } } });
    await stream.send(call(3n, preToolRequest("allow")));
    // The next answer is call 3's: the cancelled call 1 was never answered.
    expect(await next(answers)).toMatchObject({ callId: 3n, reply: { case: "preTool" } });
    expect(seen.sort()).toEqual(["wait-cancel: AbortError: the daemon cancelled the call", "wait-deadline: TimeoutError: the call's deadline passed"]);
    stream.cancel();
  });

  test("answers a throw and each protocol mistake with a CallError naming the field; the stream goes on", async () => {
    const { stream, answers } = await opened();
    await stream.send(call(1n, preToolRequest("boom")));
    expect(await next(answers)).toMatchObject({ callId: 1n, reply: { case: "error", value: { code: status.UNKNOWN, message: "plugin attached at pre-tool threw: boom" } } });
    await stream.send(call(2n, { case: undefined }));
    expect(await next(answers)).toMatchObject({ callId: 2n, reply: { case: "error", value: { code: status.INVALID_ARGUMENT, message: "call.request: missing" } } });
    await stream.send(call(3n, { case: "postTool", value: create(pb.PostToolRequestSchema, {}) }));
    expect(await next(answers)).toMatchObject({ callId: 3n, reply: { case: "error", value: { code: status.UNIMPLEMENTED, message: "the plugin does not handle post-tool" } } });
    await stream.send(call(4n, preToolRequest("wait-4")));
    await expect.poll(() => gates.has("wait-4")).toBe(true);
    await stream.send(call(4n, preToolRequest("allow")));
    expect(await next(answers)).toMatchObject({ callId: 4n, reply: { case: "error", value: { code: status.INVALID_ARGUMENT, message: "call.call_id: 4 is already in flight on this stream" } } });
    gates.get("wait-4")?.();
    expect(await next(answers)).toMatchObject({ callId: 4n, reply: { case: "preTool" } });
    stream.cancel();
  });

  test("ends a stream whose first frame is not open with INVALID_ARGUMENT naming the frame", async () => {
    const stream = client.attach();
    await stream.send(call(1n, preToolRequest("allow")));
    const answers = stream.responses[Symbol.asyncIterator]();
    await expect(answers.next()).rejects.toMatchObject({ code: status.INVALID_ARGUMENT, details: "frame: the first frame of an Attach stream must be open" });
  });
  test("hands the handler the daemon's traceparent: from the call frame on Attach, from the metadata on a unary call, none when none was sent", async () => {
    const { stream, answers } = await opened();
    await stream.send(call(1n, preToolRequest("trace"), 0, TRACEPARENT));
    expect(deniedReason(await next(answers))).toBe(`traceparent ${TRACEPARENT}`);
    await stream.send(call(2n, preToolRequest("trace")));
    expect(deniedReason(await next(answers))).toBe("traceparent (none)");
    stream.cancel();
    const request = preToolRequest("trace").value as pb.PreToolRequest;
    const unary = await client.preTool(request, { metadata: { traceparent: TRACEPARENT } });
    expect(unary.decision?.decision).toMatchObject({ case: "deny", value: { reason: `traceparent ${TRACEPARENT}` } });
    const untraced = await client.preTool(request, {});
    expect(untraced.decision?.decision).toMatchObject({ case: "deny", value: { reason: "traceparent (none)" } });
  });
});
