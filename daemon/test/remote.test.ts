// RemotePlugin over real Unix sockets in a temp dir: the manifest becomes listeners (with the
// config's overrides), answers cross the wire as typed decisions, and every kind of unusable
// answer (another point's decision, garbage bytes, no decision, an invalid combination, an error
// status), a missed deadline and a caller's cancellation become PluginFaults that the failure
// policy turns into a decision. Plugin servers are made with servePlugin or the fake plugin's raw handlers.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { status } from "@grpc/grpc-js";
import type { ServerWritableStream, UntypedHandleCall, sendUnaryData } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accept, allow, block, definePlugin, deny, pass, servePlugin, snapshotJson, text } from "@hookd/sdk";
import type { PluginDefinition, PointName, PostToolEvent, ToolResult } from "@hookd/sdk";
import { LazyAbort, pb } from "@hookd/sdk/internal";
import { isPluginFault } from "../src/engine/faults.js";
import type { PluginFault } from "../src/engine/faults.js";
import { callListener } from "../src/engine/invoke.js";
import type { CallResult, ContextFactory } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { RemotePlugin } from "../src/plugins/index.js";
import type { RemotePluginOptions } from "../src/plugins/index.js";
import { answering, bytes, serveFakePlugin } from "./fixtures/fake-plugin.js";
import type { FakePluginOptions } from "./fixtures/fake-plugin.js";
import { deferred, listenerCall, preToolEvent } from "./fixtures/listeners.js";

let dir: string;
let cleanups: (() => Promise<void> | void)[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-remote-"));
  cleanups = [];
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

const socket = (name: string): string => `unix://${join(dir, `${name}.sock`)}`;

async function serveDefinition(definition: PluginDefinition, name = definition.name): Promise<string> {
  const server = await servePlugin(definition, { address: socket(name), onError: () => {} });
  cleanups.push(() => server.close());
  return server.address;
}

/** A plugin server whose HookPlugin handlers answer raw bytes (anything, valid or not). */
async function serveRaw(name: string, raw: Record<string, UntypedHandleCall>, definition?: FakePluginOptions["definition"]): Promise<string> {
  const server = await serveFakePlugin(socket(name), { raw, definition });
  cleanups.push(() => server.close());
  return server.address;
}

function describeAs(name: string, point: pb.Point, failurePolicy = pb.FailurePolicy.UNSPECIFIED): UntypedHandleCall {
  return answering(bytes(pb.DescribeResponseSchema, { manifest: { name, version: "9", subscriptions: [{ point, failurePolicy }] } }));
}

async function connect(target: string, options: Partial<RemotePluginOptions> = {}): Promise<RemotePlugin> {
  const plugin = new RemotePlugin({ name: "p", target, health: { initialBackoffMs: 10, maxBackoffMs: 100 }, ...options });
  cleanups.push(() => plugin.close());
  await plugin.start();
  return plugin;
}

function only<P extends PointName>(plugin: RemotePlugin, point: P): Listener<P> {
  const found = plugin.listeners().find((listener) => listener.point === point);
  if (found === undefined) throw new Error(`no ${point} listener`);
  return found as Listener<P>;
}

const ctxFor =
  <P extends PointName>(): ContextFactory<P> =>
  (abort) =>
    ({ signal: abort.signal, plugin: "p", next: () => Promise.reject(new Error("no inner plugins")) });

const open = () => ({ signal: new AbortController().signal });

function postToolEvent(): PostToolEvent {
  const result: ToolResult = { isError: false, value: snapshotJson({ ok: true }).value, content: [text("ok")], contexts: [] };
  return { ...preToolEvent("Read"), result };
}

async function faultOf(promise: Promise<unknown>): Promise<PluginFault> {
  try {
    await promise;
  } catch (error) {
    if (isPluginFault(error)) return error;
    throw error;
  }
  throw new Error("expected a plugin fault");
}

describe("manifest and listeners", () => {
  it("builds one remote listener per subscription, with the config's overrides, and leaves non-matching calls to the registry", async () => {
    const target = await serveDefinition(
      definePlugin({
        name: "policy",
        version: "2.1.0",
        sideEffectFree: true,
        points: {
          "pre-tool": { tools: ["Bash"], priority: 5, deadlineMs: 1_500, failurePolicy: "fail-open", handler: () => allow() },
          "post-tool": () => pass(),
          "turn-stopping": { priority: -3, handler: () => pass() },
        },
      }),
    );
    const plugin = await connect(target, {
      name: "policy",
      defaultDeadlineMs: 700,
      overrides: { "pre-tool": { priority: 1, tools: ["Read", "mcp__*"] }, "post-tool": { failurePolicy: "fail-open" }, guard: { priority: 9 } },
    });
    expect(plugin.health).toBe("serving");
    const [preTool, postTool, stopping] = plugin.listeners();
    expect(plugin.listeners().map((l) => l.point)).toEqual(["pre-tool", "post-tool", "turn-stopping"]);
    expect(preTool).toMatchObject({ plugin: "policy", kind: "remote", priority: 1, deadlineMs: 1_500, failurePolicy: "fail-open", sideEffectFree: true });
    expect([preTool?.matches("Read"), preTool?.matches("mcp__fs"), preTool?.matches("Bash")]).toEqual([true, true, false]);
    expect(postTool).toMatchObject({ priority: 0, deadlineMs: 700, failurePolicy: "fail-open" });
    expect(stopping).toMatchObject({ priority: -3, deadlineMs: 700, failurePolicy: "fail-open" });
    expect(plugin.status()).toMatchObject({
      name: "policy",
      kind: "remote",
      target,
      health: "serving",
      points: ["pre-tool", "post-tool", "turn-stopping"],
      manifest: { name: "policy", version: "2.1.0" },
      calls: 0,
      restarts: 0,
    });
    // The matcher is the registry's to apply: a Bash call never reaches this plugin.
    const registry = new PluginRegistry(plugin.listeners());
    expect(registry.listeners("pre-tool", "Bash")).toEqual([]);
    expect(registry.listeners("pre-tool", "Read")).toEqual([preTool]);
  });

  it("refuses an invalid manifest and keeps the plugin unavailable, naming the field", async () => {
    const manifest = bytes(pb.DescribeResponseSchema, {
      manifest: { name: "dup", subscriptions: [{ point: pb.Point.PRE_TOOL }, { point: pb.Point.PRE_TOOL }] },
    });
    const target = await serveRaw("dup", { describe: answering(manifest) });
    const plugin = await connect(target, { overrides: { "pre-tool": {} } });
    expect(plugin.status()).toMatchObject({ health: "unavailable", lastError: expect.stringMatching(/manifest\.subscriptions\[1\]\.point: pre-tool is subscribed twice/) as unknown });
    const result = await callListener(only(plugin, "pre-tool"), preToolEvent(), ctxFor(), open());
    expect(result).toMatchObject({ type: "answer", answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "unavailable" } });
  });
});

describe("answers", () => {
  const seen: { plugin?: string; frozen?: boolean } = {};
  const definition = definePlugin({
    name: "answers",
    points: {
      "pre-tool": (event, ctx) => {
        seen.plugin = ctx.plugin;
        seen.frozen = Object.isFrozen(event.call.arguments);
        const command = (event.call.arguments as { command?: string }).command;
        return command === "ok" ? allow() : command === "bad" ? deny(`no ${command}`) : pass();
      },
      "post-tool": (event) =>
        event.call.toolName === "Blocked" ? block("nope", [{ id: "", role: "user", content: [text("ctx")], source: { kind: "plugin", name: "answers" } }]) : accept({ content: [text("redacted")] }),
      "tool-result": () => {},
    },
  });

  it("turns allow, deny and pass into the typed decisions, with the plugin's name and a frozen event", async () => {
    const plugin = await connect(await serveDefinition(definition), { name: "answers" });
    const preTool = only(plugin, "pre-tool");
    expect(await callListener(preTool, preToolEvent("Bash", { command: "ok" }), ctxFor(), open())).toMatchObject({ answer: { kind: "allow" }, invocation: { kind: "remote", outcome: "answered" } });
    expect(await callListener(preTool, preToolEvent("Bash", { command: "bad" }), ctxFor(), open())).toMatchObject({ answer: { kind: "deny", reason: "no bad" } });
    expect(await callListener(preTool, preToolEvent("Bash", { command: "ls" }), ctxFor(), open())).toMatchObject({ answer: { kind: "pass" }, invocation: { outcome: "passed" } });
    expect(seen).toEqual({ plugin: "answers", frozen: true });
    expect(plugin.status()).toMatchObject({ calls: 3, failures: 0 });
    expect(plugin.status().latencyP50Us).toBeGreaterThan(0);
    expect(plugin.status().latencyP99Us).toBeGreaterThanOrEqual(plugin.status().latencyP50Us);
  });

  it("turns post-tool block and accept-with-content into typed decisions, and a tool-result observer into pass", async () => {
    const plugin = await connect(await serveDefinition(definition), { name: "answers" });
    const postTool = only(plugin, "post-tool");
    expect(await callListener(postTool, postToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "accept", content: [{ type: "text", text: "redacted" }] } });
    const blocked = { ...postToolEvent(), call: { ...postToolEvent().call, toolName: "Blocked" } };
    expect(await callListener(postTool, blocked, ctxFor(), open())).toMatchObject({
      answer: { kind: "block", feedback: "nope", additionalContexts: [{ content: [{ type: "text", text: "ctx" }], source: { kind: "plugin", name: "answers" } }] },
    });
    expect(await callListener(only(plugin, "tool-result"), postToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "pass" }, invocation: { outcome: "passed" } });
  });

  it("keeps short answers apart by their bytes and point, and gives the same frozen answer for the same bytes", async () => {
    const plain = definePlugin({
      name: "plain",
      points: {
        "post-tool": (event) => (event.call.toolName === "Keep" ? accept() : pass()),
        "pre-tool": () => allow(),
      },
    });
    const plugin = await connect(await serveDefinition(plain), { name: "plain" });
    const postTool = only(plugin, "post-tool");
    const keep = { ...postToolEvent(), call: { ...postToolEvent().call, toolName: "Keep" } };
    const answers: unknown[] = [];
    for (const event of [keep, postToolEvent(), keep, postToolEvent()]) {
      const result = await callListener(postTool, event, ctxFor(), open());
      answers.push(result.type === "answer" ? result.answer : result.error);
    }
    expect(answers).toEqual([{ kind: "accept" }, { kind: "pass" }, { kind: "accept" }, { kind: "pass" }]);
    expect(answers[2]).toBe(answers[0]);
    expect(Object.isFrozen(answers[0])).toBe(true);
    // Each point remembers its own answers.
    for (let i = 0; i < 2; i++) expect(await callListener(only(plugin, "pre-tool"), preToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "allow" } });
  });
});

describe("unusable answers go through the failure policy", () => {
  it("reports another point's decision (PostToolResponse bytes to PreTool) as wrong_point", async () => {
    const calls = { count: 0 };
    const target = await serveRaw("wrong", {
      describe: describeAs("wrong", pb.Point.PRE_TOOL),
      preTool: answering(bytes(pb.PostToolResponseSchema, { decision: { decision: { case: "accept", value: {} } } }), calls),
    });
    const plugin = await connect(target);
    const result = await callListener(only(plugin, "pre-tool"), preToolEvent(), ctxFor(), open());
    expect(calls.count).toBe(1);
    expect(result).toMatchObject({ type: "answer", answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "wrong_point" } });
    expect(result.invocation.detail).toMatch(/^plugin p at pre-tool: wrong point: the pre-tool RPC was answered with the decision of post-tool \(field 6, expected 3\)/);
  });

  it.each([
    ["garbage bytes", Buffer.from([0xff, 0xff, 0xff, 0xff]), /PreToolResponse: cannot decode 4 bytes/],
    ["no decision", Buffer.alloc(0), /PreToolResponse: no decision/],
    ["an unset oneof", bytes(pb.PreToolResponseSchema, { decision: {} }), /decision: no decision set/],
  ])("reports %s as invalid_answer: fail-closed denies, fail-open passes", async (_name, answer, detail) => {
    const target = await serveRaw("bad", { describe: describeAs("bad", pb.Point.PRE_TOOL), preTool: answering(answer) });
    const closed = await connect(target);
    const denied = await callListener(only(closed, "pre-tool"), preToolEvent(), ctxFor(), open());
    expect(denied).toMatchObject({ answer: { kind: "deny" }, invocation: { fault: "invalid_answer" } });
    expect(denied.invocation.detail).toMatch(detail);
    const opened = await connect(target, { name: "open", overrides: { "pre-tool": { failurePolicy: "fail-open" } } });
    expect(await callListener(only(opened, "pre-tool"), preToolEvent(), ctxFor(), open())).toMatchObject({
      answer: { kind: "pass" },
      invocation: { outcome: "fault", decision: "pass", fault: "invalid_answer" },
    });
  });

  it("reports an accept replacing both content and value as invalid_answer: fail-closed blocks, fail-open passes", async () => {
    const both = bytes(pb.PostToolResponseSchema, {
      decision: { decision: { case: "accept", value: { content: { blocks: [{ block: { case: "text", value: "x" } }] }, valueJson: "1" } } },
    });
    const target = await serveRaw("both", { describe: describeAs("both", pb.Point.POST_TOOL), postTool: answering(both) });
    const closed = await connect(target);
    const blocked = await callListener(only(closed, "post-tool"), postToolEvent(), ctxFor(), open());
    expect(blocked).toMatchObject({ answer: { kind: "block" }, invocation: { fault: "invalid_answer" } });
    expect(blocked.invocation.detail).toMatch(/decision\.accept: cannot replace both content and value/);
    const opened = await connect(target, { name: "open", overrides: { "post-tool": { failurePolicy: "fail-open" } } });
    expect(await callListener(only(opened, "post-tool"), postToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "pass" }, invocation: { fault: "invalid_answer" } });
  });

  it("reports a decision the engine's validation refuses (an empty deny reason) as invalid_answer", async () => {
    const target = await serveRaw("empty", {
      describe: describeAs("empty", pb.Point.PRE_TOOL),
      preTool: answering(bytes(pb.PreToolResponseSchema, { decision: { decision: { case: "deny", value: { reason: "" } } } })),
    });
    const plugin = await connect(target);
    const result = await callListener(only(plugin, "pre-tool"), preToolEvent(), ctxFor(), open());
    expect(result).toMatchObject({ answer: { kind: "deny" }, invocation: { fault: "invalid_answer", detail: expect.stringMatching(/decision\.reason: a deny needs a non-empty reason/) as unknown } });
  });

  it("keeps an error status's code and message as error_status", async () => {
    const target = await serveRaw("err", {
      describe: describeAs("err", pb.Point.PRE_TOOL),
      preTool: (_call: unknown, callback: sendUnaryData<Buffer>) => callback({ code: status.PERMISSION_DENIED, details: "policy store offline" }),
    });
    const plugin = await connect(target);
    const fault = await faultOf(Promise.resolve(only(plugin, "pre-tool").call(preToolEvent(), ctxFor<"pre-tool">()(new LazyAbort()), listenerCall())));
    expect(fault.details).toMatchObject({ plugin: "p", point: "pre-tool", fault: "error_status" });
    expect(fault.message).toBe("plugin p at pre-tool: error status: PERMISSION_DENIED: policy store offline");
    expect(plugin.status()).toMatchObject({ calls: 1, failures: 1, consecutiveFailures: 1, lastError: "pre-tool: error status: PERMISSION_DENIED: policy store offline" });
  });

  it("refuses a second response to the unary call as an error status", async () => {
    // A server that streams its answer to PreTool: the daemon's unary call cancels at the second.
    const allowBytes = bytes(pb.PreToolResponseSchema, { decision: { decision: { case: "allow", value: {} } } });
    const address = await serveRaw(
      "chatty",
      {
        describe: describeAs("chatty", pb.Point.PRE_TOOL),
        preTool: (call: ServerWritableStream<unknown, Buffer>) => {
          call.write(allowBytes);
          call.write(allowBytes);
          call.end();
        },
      },
      (plugin) => ({ ...plugin, preTool: { ...plugin.preTool, responseStream: true } }),
    );
    const chatty = await connect(address);
    const fault = await faultOf(Promise.resolve(only(chatty, "pre-tool").call(preToolEvent(), ctxFor<"pre-tool">()(new LazyAbort()), listenerCall())));
    expect(fault.details).toMatchObject({ fault: "error_status" });
    expect(fault.message).toBe("plugin p at pre-tool: error status: UNIMPLEMENTED: more than one response to a unary call");
  });
});

describe("deadlines and cancellation", () => {
  /** A pre-tool plugin that never answers and reports the server-side signal of each call. */
  async function hangingPlugin(options: Partial<RemotePluginOptions> = {}) {
    const entered = deferred<AbortSignal>();
    const target = await serveDefinition(
      definePlugin({
        name: "hang",
        points: {
          "pre-tool": (_event, ctx) => {
            entered.resolve(ctx.signal);
            return new Promise<never>(() => {});
          },
        },
      }),
    );
    const plugin = await connect(target, { name: "hang", ...options });
    return { plugin, entered: entered.promise };
  }

  function abortedWith(signal: AbortSignal): Promise<unknown> {
    return new Promise((resolve) => {
      if (signal.aborted) resolve(signal.reason);
      else signal.addEventListener("abort", () => resolve(signal.reason), { once: true });
    });
  }

  it("ends a call to a plugin that never answers at its deadline, and the server sees the cancellation", async () => {
    const { plugin, entered } = await hangingPlugin({ overrides: { "pre-tool": { deadlineMs: 300 } } });
    const result: CallResult<"pre-tool"> = await callListener(only(plugin, "pre-tool"), preToolEvent(), ctxFor(), open());
    // The listener's own deadline ended it (not the caller, not a transport error); how long that
    // took is the benchmark's business, not this test's.
    expect(result).toMatchObject({
      type: "answer",
      answer: { kind: "deny" },
      invocation: { outcome: "fault", fault: "deadline_exceeded", detail: expect.stringMatching(/no answer within 300 ms/) as unknown },
    });
    const serverSignal = await entered;
    expect(await abortedWith(serverSignal)).toBeInstanceOf(DOMException);
    expect(plugin.status()).toMatchObject({ failures: 1, consecutiveFailures: 1 });
  });

  it("sets a gRPC deadline of the listener's deadlineMs even without the engine's timer", async () => {
    const { plugin, entered } = await hangingPlugin({ overrides: { "pre-tool": { deadlineMs: 200 } } });
    const fault = await faultOf(Promise.resolve(only(plugin, "pre-tool").call(preToolEvent(), ctxFor<"pre-tool">()(new LazyAbort()), listenerCall())));
    expect(fault.details).toMatchObject({ fault: "deadline_exceeded" });
    expect(fault.message).toMatch(/^plugin hang at pre-tool: deadline exceeded: no answer within 200 ms/);
    expect(await abortedWith(await entered)).toMatchObject({ name: expect.stringMatching(/^(TimeoutError|AbortError)$/) as unknown });
  });

  it("does not hold a point budget that ran out before the plugin's own deadline against the plugin", async () => {
    const { plugin, entered } = await hangingPlugin({ overrides: { "pre-tool": { deadlineMs: 60_000 } } });
    const result = await callListener(only(plugin, "pre-tool"), preToolEvent(), ctxFor(), { ...open(), budgetEnd: performance.now() + 150 });
    expect(result).toMatchObject({ answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "deadline_exceeded" } });
    expect(await abortedWith(await entered)).toMatchObject({ name: "AbortError" });
    expect(plugin.status()).toMatchObject({ calls: 1, failures: 0, cancelled: 1, consecutiveFailures: 0 });
  });

  it("cancels the call in flight when the caller's signal aborts, and does not count it as the plugin's failure", async () => {
    const { plugin, entered } = await hangingPlugin();
    const caller = new AbortController();
    const reason = new Error("turn aborted");
    const pending = callListener(only(plugin, "pre-tool"), preToolEvent(), ctxFor(), { signal: caller.signal });
    const serverSignal = await entered;
    caller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    const serverReason = await abortedWith(serverSignal);
    expect(serverReason).toMatchObject({ name: "AbortError" });
    expect(plugin.status()).toMatchObject({ calls: 1, failures: 0, cancelled: 1, consecutiveFailures: 0, health: "serving" });
  });
});
