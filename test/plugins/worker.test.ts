// The worker-pool runtime with real piscina workers and the fixture plugins in test/fixtures/plugins/: answers,
// lossless events, the worker-side context, deadlines that terminate a spinning worker while
// other calls keep flowing, crashes, load failures and close(). Synchronization is by messages
// the fixtures post on a BroadcastChannel, never by sleeping; no assertion is about speed. In the
// e2e lane because the workers run the built daemon/dist and sdk/dist (`npm run test:e2e` builds).
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LosslessNumber, allow, definePlugin, parseJson, snapshotJson } from "@hookd/sdk";
import type { PreToolEvent, ToolCall } from "@hookd/sdk";
import { inProcessListeners } from "../../daemon/src/plugins/in-process/listeners.js";
import { callListener } from "../../daemon/src/engine/invoke.js";
import type { ContextFactory } from "../../daemon/src/engine/invoke.js";
import type { Listener } from "../../daemon/src/engine/listener.js";
import { WorkerPool, workerEntryPath, workerListeners } from "../../daemon/src/plugins/worker/index.js";
import type * as WorkerRuntime from "../../daemon/src/plugins/worker/index.js";
import type { PluginManifest } from "../../daemon/src/plugins/worker/index.js";
import { listenerCall } from "../../daemon/test/fixtures/listeners.js";
import { LazyAbort } from "@hookd/sdk/internal";

const fixture = (name: string): URL => new URL(`../fixtures/plugins/${name}`, import.meta.url);
const GATE = fixture("gate.mjs");

function toolCall(toolName: string, args: unknown, sessionId = "s1"): ToolCall {
  const snapshot = snapshotJson(args, "arguments");
  return { callId: `c-${randomUUID()}`, rootCallId: "root", toolName, arguments: snapshot.value, argumentsJson: snapshot.text, sessionId, turn: 1, step: 1 };
}

function preTool(toolName: string, args: unknown = {}, sessionId = "s1"): PreToolEvent {
  return { session: { sessionId, agentId: "agent", cwd: "/" }, call: toolCall(toolName, args, sessionId) };
}

const waterfallContext: ContextFactory<"pre-tool"> = (abort) => ({
  signal: abort.signal,
  plugin: "caller",
  next: () => Promise.reject(new Error("the test gives no inner plugins")),
});

const open = (): { signal: AbortSignal } => ({ signal: new AbortController().signal });

function only<P extends Listener["point"]>(listeners: readonly Listener[], point: P): Listener<P> {
  const found = listeners.find((listener) => listener.point === point);
  if (found === undefined) throw new Error(`no listener at ${point}`);
  return found as Listener<P>;
}

/** A BroadcastChannel the fixture reports on; `next()` resolves with the next message. */
function reports(): { name: string; next: () => Promise<unknown>; post: (message: string) => void; close: () => void } {
  const name = `hookd-test-${randomUUID()}`;
  const channel = new BroadcastChannel(name);
  const queued: unknown[] = [];
  const waiting: ((value: unknown) => void)[] = [];
  channel.onmessage = (message: MessageEvent) => {
    const resolve = waiting.shift();
    if (resolve === undefined) queued.push(message.data);
    else resolve(message.data);
  };
  return {
    name,
    next: () => (queued.length > 0 ? Promise.resolve(queued.shift()) : new Promise((resolve) => waiting.push(resolve))),
    post: (message) => channel.postMessage(message),
    close: () => channel.close(),
  };
}

describe("worker pool", () => {
  let pool: WorkerPool;
  let gate: PluginManifest;

  beforeAll(async () => {
    pool = new WorkerPool({ size: 2, minThreads: 2 });
    gate = await pool.describe(GATE);
  });
  afterAll(async () => {
    await pool.close();
  });

  const gateAt = (overrides: Parameters<typeof workerListeners>[3] = {}): Listener<"pre-tool"> =>
    only(workerListeners(pool, GATE, gate, overrides), "pre-tool");

  it("describes a plugin module and builds worker listeners from its manifest", async () => {
    expect(gate).toEqual({ name: "gate", version: "1.2.3", sideEffectFree: false, subscriptions: { "pre-tool": {}, execute: {} } });
    const spec = await pool.describe(fixture("spec.mjs"));
    expect(spec).toEqual({
      name: "spec-plugin",
      version: "0.0.0",
      sideEffectFree: true,
      subscriptions: {
        "pre-tool": { tools: ["Bash", "mcp__*"], priority: 5, deadlineMs: 1234, failurePolicy: "fail-open" },
        "session-start": {},
      },
    });
    const listeners = workerListeners(pool, fixture("spec.mjs"), spec, { "pre-tool": { priority: -1 } }, 999);
    const preToolListener = only(listeners, "pre-tool");
    expect(preToolListener).toMatchObject({ plugin: "spec-plugin", kind: "worker", priority: -1, deadlineMs: 1234, failurePolicy: "fail-open", sideEffectFree: true });
    expect([preToolListener.matches("Bash"), preToolListener.matches("mcp__x"), preToolListener.matches("Bash2")]).toEqual([true, true, false]);
    expect(only(listeners, "session-start")).toMatchObject({ deadlineMs: 999, failurePolicy: "fail-open", priority: 0 });
    const result = await callListener(preToolListener, preTool("Bash"), waterfallContext, open());
    expect(result).toMatchObject({ type: "answer", answer: { kind: "ask", reason: "from a spec" } });
  });

  it("accepts a main-thread definition as the manifest", async () => {
    const definition = definePlugin({ name: "gate", points: { "pre-tool": { handler: () => allow(), priority: 3 } } });
    const listener = only(workerListeners(pool, GATE, definition), "pre-tool");
    expect(listener.priority).toBe(3);
    // The handler that runs is the module's, in the worker.
    const result = await callListener(listener, preTool("Bash"), waterfallContext, open());
    expect(result).toMatchObject({ type: "answer", answer: { kind: "deny", reason: "no bash" } });
  });

  it("answers allow and deny from a worker", async () => {
    const listener = gateAt();
    const [denied, allowed, passed] = await Promise.all([
      callListener(listener, preTool("Bash"), waterfallContext, open()),
      callListener(listener, preTool("Read"), waterfallContext, open()),
      callListener(listener, preTool("Pass"), waterfallContext, open()),
    ]);
    expect(denied).toMatchObject({ type: "answer", answer: { kind: "deny", reason: "no bash" }, invocation: { kind: "worker", outcome: "answered" } });
    expect(allowed).toMatchObject({ type: "answer", answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    expect(passed).toMatchObject({ type: "answer", answer: { kind: "pass" }, invocation: { outcome: "passed" } });
  });

  it("carries bigint and LosslessNumber values across in both directions", async () => {
    const args = parseJson('{"big": 123456789012345678901234567890, "exact": 0.10000000000000000000000001, "small": 7, "nested": [{"n": 1e400}]}');
    const execute = only(workerListeners(pool, GATE, gate), "execute");
    const answer = (await execute.call(preTool("Echo", args), { signal: new AbortController().signal, plugin: "gate", next: () => Promise.reject(new Error("unused")) }, listenerCall())) as {
      value: { big: unknown; exact: unknown; small: unknown; nested: { n: unknown }[] };
      content: { text: string }[];
    };
    expect(answer.content[0]?.text).toBe("big:bigint:BigInt,exact:object:LosslessNumber,small:number:Number,nested:object:Array");
    expect(answer.value.big).toBe(123456789012345678901234567890n);
    expect(answer.value.exact).toBeInstanceOf(LosslessNumber);
    expect(answer.value.exact).toEqual(new LosslessNumber("0.10000000000000000000000001"));
    expect(answer.value.small).toBe(7);
    expect(answer.value.nested[0]?.n).toEqual(new LosslessNumber("1e400"));
  });

  it("gives worker handlers a frozen event, their plugin name and a signal, and a next() that tells them to return pass()", async () => {
    const listener = gateAt();
    const context = await callListener(listener, preTool("Context", { a: { b: 1 } }), waterfallContext, open());
    if (context.type !== "answer" || context.answer.kind !== "deny") throw new Error(`unexpected ${JSON.stringify(context)}`);
    expect(JSON.parse(context.answer.reason)).toEqual({ plugin: "gate", isSignal: true, aborted: false, frozen: true, hasNext: true });
    const next = await callListener(listener, preTool("Next"), waterfallContext, open());
    expect(next).toMatchObject({ type: "answer", answer: { kind: "deny" } });
    if (next.type === "answer" && next.answer.kind === "deny") {
      expect(next.answer.reason).toMatch(/next\(\) is not available to plugins running in a worker pool; return pass\(\)/);
    }
  });

  it("reports a throwing handler as a listener error, not a fault", async () => {
    const result = await callListener(gateAt({ "pre-tool": { failurePolicy: "fail-open" } }), preTool("Throw"), waterfallContext, open());
    expect(result.type).toBe("error");
    if (result.type !== "error") return;
    expect(result.error.message).toContain("handler exploded");
    expect(result.invocation).toMatchObject({ outcome: "error", kind: "worker" });
  });

  it("reports an invalid or non-transferable answer as a listener error naming the field", async () => {
    const invalid = await callListener(gateAt(), preTool("Invalid"), waterfallContext, open());
    expect(invalid.type).toBe("error");
    if (invalid.type === "error") expect(invalid.error.message).toMatch(/reason/);
    const withFunction = await callListener(gateAt(), preTool("Function"), waterfallContext, open());
    expect(withFunction.type).toBe("error");
    if (withFunction.type === "error") expect(withFunction.error.message).toMatch(/answer\.extra: a function is not plain data/);
  });

  it("cuts a spinning plugin at its deadline under fail-closed while other calls keep flowing, then recovers", async () => {
    const channel = reports();
    try {
      const spinning = channel.next();
      const listener = gateAt({ "pre-tool": { deadlineMs: 1500, failurePolicy: "fail-closed" } });
      let spinnerSettled = false;
      const spinner = callListener(listener, preTool("Spin", { channel: channel.name }), waterfallContext, open()).finally(() => {
        spinnerSettled = true;
      });
      expect(await spinning).toBe("spinning");

      // Another session's call runs on the other worker and answers while the spinner is stuck.
      const other = await callListener(listener, preTool("Bash", {}, "s2"), waterfallContext, open());
      expect(other).toMatchObject({ type: "answer", answer: { kind: "deny", reason: "no bash" } });
      expect(spinnerSettled).toBe(false);

      // The main thread is not blocked either.
      const mainThread = inProcessListeners(definePlugin({ name: "main", points: { "pre-tool": () => allow() } }))[0] as Listener<"pre-tool">;
      expect(await callListener(mainThread, preTool("Bash", {}, "s3"), waterfallContext, open())).toMatchObject({ answer: { kind: "allow" } });
      expect(spinnerSettled).toBe(false);

      const cut = await spinner;
      expect(cut).toMatchObject({
        type: "answer",
        answer: { kind: "deny" },
        invocation: { outcome: "fault", fault: "deadline_exceeded", decision: "deny", kind: "worker" },
      });
      if (cut.type === "answer" && cut.answer.kind === "deny") expect(cut.answer.reason).toMatch(/deadline exceeded.*fail-closed/);

      // The pool recovers: the same plugin answers again, and two calls hold both workers at once
      // (the stuck worker was replaced, not left spinning).
      expect(await callListener(listener, preTool("Bash"), waterfallContext, open())).toMatchObject({ answer: { kind: "deny", reason: "no bash" } });
      const held = [1, 2].map(() => callListener(listener, preTool("Hold", { channel: channel.name }), waterfallContext, open()));
      expect([await channel.next(), await channel.next()]).toEqual(["holding", "holding"]);
      channel.post("release");
      for (const result of await Promise.all(held)) expect(result).toMatchObject({ type: "answer", answer: { kind: "allow" } });
    } finally {
      channel.close();
    }
  });

  it("treats a spinning plugin as having passed under fail-open", async () => {
    const channel = reports();
    try {
      const listener = gateAt({ "pre-tool": { deadlineMs: 300, failurePolicy: "fail-open" } });
      const result = await callListener(listener, preTool("Spin", { channel: channel.name }), waterfallContext, open());
      expect(await channel.next()).toBe("spinning");
      expect(result).toMatchObject({ type: "answer", answer: { kind: "pass" }, invocation: { outcome: "fault", fault: "deadline_exceeded", decision: "pass" } });
      expect(await callListener(listener, preTool("Read"), waterfallContext, open())).toMatchObject({ answer: { kind: "allow" } });
    } finally {
      channel.close();
    }
  });

  it("aborts the handler's signal in the worker at the deadline and on caller cancellation", async () => {
    const channel = reports();
    try {
      const listener = gateAt({ "pre-tool": { deadlineMs: 200, failurePolicy: "fail-closed" } });
      const timedOut = await callListener(listener, preTool("Wait", { channel: channel.name }), waterfallContext, open());
      expect(timedOut).toMatchObject({ invocation: { outcome: "fault", fault: "deadline_exceeded" } });
      expect(await channel.next()).toBe("waiting");
      expect(await channel.next()).toBe("aborted: TimeoutError");

      const caller = new AbortController();
      const patient = gateAt({ "pre-tool": { deadlineMs: 60_000 } });
      const cancelled = callListener(patient, preTool("Wait", { channel: channel.name }), waterfallContext, { signal: caller.signal });
      expect(await channel.next()).toBe("waiting");
      const reason = new Error("agent went away");
      caller.abort(reason);
      await expect(cancelled).rejects.toBe(reason);
      expect(await channel.next()).toBe("aborted: AbortError");
    } finally {
      channel.close();
    }
  });

  it("treats a worker that exits mid-call as crashed, decided by the failure policy", async () => {
    const result = await callListener(gateAt({ "pre-tool": { failurePolicy: "fail-closed" } }), preTool("Exit"), waterfallContext, open());
    expect(result).toMatchObject({ type: "answer", answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "crashed" } });
    if (result.type === "answer" && result.answer.kind === "deny") expect(result.answer.reason).toMatch(/exited with code: 7/);
    expect(await callListener(gateAt(), preTool("Read"), waterfallContext, open())).toMatchObject({ answer: { kind: "allow" } });
  });

  it("treats a module that cannot load, or defines another plugin, as unavailable", async () => {
    await expect(pool.describe(fixture("broken.mjs"))).rejects.toMatchObject({ code: "invalid_plugin", message: expect.stringMatching(/broken at load/) as unknown });
    await expect(pool.describe(fixture("not-a-plugin.mjs"))).rejects.toMatchObject({ code: "invalid_plugin" });
    await expect(pool.describe(fixture("missing.mjs"))).rejects.toMatchObject({ code: "invalid_plugin" });

    const broken = only(workerListeners(pool, fixture("broken.mjs"), { ...gate, name: "broken" }), "pre-tool");
    expect(await callListener(broken, preTool("Read"), waterfallContext, open())).toMatchObject({
      answer: { kind: "deny" },
      invocation: { outcome: "fault", fault: "unavailable" },
    });
    const impostor = only(workerListeners(pool, GATE, { ...gate, name: "impostor" }), "pre-tool");
    const result = await callListener(impostor, preTool("Read"), waterfallContext, open());
    expect(result).toMatchObject({ invocation: { outcome: "fault", fault: "unavailable" } });
    if (result.type === "answer" && result.answer.kind === "deny") expect(result.answer.reason).toMatch(/defines plugin gate, not impostor/);
  });
});

describe("worker pool lifecycle", () => {
  it("close() waits for the workers to exit; later calls are unavailable", async () => {
    const pool = new WorkerPool({ size: 1 });
    const manifest = await pool.describe(GATE);
    const listener = only(workerListeners(pool, GATE, manifest), "pre-tool");
    expect(await callListener(listener, preTool("Bash"), waterfallContext, open())).toMatchObject({ answer: { kind: "deny" } });
    expect(pool.stats.threads).toBe(1);
    await pool.close();
    expect(pool.stats.threads).toBe(0);
    await expect(listener.call(preTool("Bash"), waterfallContext(new LazyAbort()), listenerCall())).rejects.toMatchObject({ code: "plugin_fault" });
    expect(await callListener(listener, preTool("Bash"), waterfallContext, open())).toMatchObject({ invocation: { outcome: "fault", fault: "unavailable" } });
  });

  it("runs from the built daemon/dist too, with its entry beside it", async () => {
    const distIndex = new URL("../../daemon/dist/plugins/worker/index.js", import.meta.url).href;
    const dist = (await import(distIndex)) as typeof WorkerRuntime;
    expect(dist.workerEntryPath()).toBe(workerEntryPath());
    const pool = new dist.WorkerPool({ size: 1 });
    try {
      const manifest = await pool.describe(GATE);
      const listener = only(dist.workerListeners(pool, GATE, manifest), "pre-tool");
      expect(await listener.call(preTool("Bash"), waterfallContext(new LazyAbort()), listenerCall())).toEqual({ kind: "deny", reason: "no bash" });
    } finally {
      await pool.close();
    }
  });
});
