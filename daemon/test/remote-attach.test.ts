// The stream path to remote plugins (HookPlugin.Attach) over real Unix sockets: calls multiplexed
// on one stream and answered out of order; a cancel frame reaching the handler; each call's own
// deadline on a shared stream; the window; answers for ids never sent or answered twice (refused,
// counted, the stream goes on); another point's response, garbage and CallErrors as the same
// faults as unary; UNIMPLEMENTED and a manifest preferring unary both calling unary. Plugins are
// servePlugin servers or raw grpc-js servers on the generated service (fixtures/fake-plugin.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { status } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { accept, allow, definePlugin, deny, servePlugin, snapshotJson, text } from "@hookd/sdk";
import type { PluginDefinition, PointName, PostToolEvent } from "@hookd/sdk";
import type { ServeOptions } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";
import { callListener } from "../src/engine/invoke.js";
import type { ContextFactory } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
import { RemotePlugin } from "../src/plugins/index.js";
import type { RemotePluginOptions } from "../src/plugins/index.js";
import { ALLOW, answerFrame, answering, errorFrame, serveFakePlugin } from "./fixtures/fake-plugin.js";
import type { FakePlugin, FakePluginOptions } from "./fixtures/fake-plugin.js";
import { deferred, preToolEvent } from "./fixtures/listeners.js";

let dir: string;
let cleanups: (() => Promise<void> | void)[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-attach-"));
  cleanups = [];
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

const socket = (name: string): string => `unix://${join(dir, `${name}.sock`)}`;

async function serve(definition: PluginDefinition, options: Partial<ServeOptions> = {}): Promise<string> {
  const server = await servePlugin(definition, { address: socket(definition.name), onError: () => {}, ...options });
  cleanups.push(() => server.close());
  return server.address;
}

/** A raw plugin serving Attach (unless told not to) and a unary pre-tool that allows. */
async function raw(name: string, options: FakePluginOptions): Promise<FakePlugin> {
  const plugin = await serveFakePlugin(socket(name), { raw: { preTool: answering(ALLOW) }, attach: true, ...options });
  cleanups.push(() => plugin.close());
  return plugin;
}

async function connect(target: string, options: Partial<RemotePluginOptions> = {}): Promise<RemotePlugin> {
  const plugin = new RemotePlugin({ name: "p", target, health: { initialBackoffMs: 10, maxBackoffMs: 100, ejectAfterFailures: 1_000 }, ...options });
  cleanups.push(() => plugin.close());
  await plugin.start();
  return plugin;
}

function only<P extends PointName>(plugin: RemotePlugin, point: P): Listener<P> {
  const found = plugin.listeners().find((listener) => listener.point === point);
  if (found === undefined) throw new Error(`no ${point} listener`);
  return found as Listener<P>;
}

const ctx: ContextFactory<PointName> = (abort) => ({ signal: abort.signal, plugin: "p", next: () => Promise.reject(new Error("no inner plugins")) });
const open = () => ({ signal: new AbortController().signal });
const preTool = (command: string) => preToolEvent("Bash", { command });

function postToolEvent(): PostToolEvent {
  return { ...preToolEvent("Read"), result: { isError: false, value: snapshotJson({ ok: true }).value, content: [text("ok")], contexts: [] } };
}

describe("calls over one Attach stream", () => {
  it("answers calls out of order, each with its own answer, all on one stream", async () => {
    const gates = new Map([["first", deferred()], ["second", deferred()]]);
    const target = await serve(
      definePlugin({
        name: "ordered",
        points: {
          "pre-tool": async (event) => {
            const command = (event.call.arguments as { command: string }).command;
            await gates.get(command)?.promise;
            return command === "first" ? allow() : deny(`denied ${command}`);
          },
        },
      }),
    );
    const plugin = await connect(target);
    expect(plugin.status().transport).toBe("stream");
    const settled: string[] = [];
    const call = (command: string) =>
      callListener(only(plugin, "pre-tool"), preTool(command), ctx, open()).then((result) => {
        settled.push(command);
        return result;
      });
    const first = call("first");
    const second = call("second");
    gates.get("second")?.resolve();
    expect(await second).toMatchObject({ answer: { kind: "deny", reason: "denied second" }, invocation: { kind: "remote", outcome: "answered" } });
    expect(settled).toEqual(["second"]);
    gates.get("first")?.resolve();
    expect(await first).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    expect(settled).toEqual(["second", "first"]);
    expect(plugin.status()).toMatchObject({ transport: "stream", calls: 2, failures: 0, refusedAnswers: 0 });
  });

  it("sends a cancel frame when the caller gives up, and the plugin's handler sees it", async () => {
    const seen = deferred<string>();
    const started = deferred();
    const target = await serve(
      definePlugin({
        name: "cancelled",
        points: {
          "pre-tool": (_event, handlerCtx) =>
            new Promise((_resolve, reject) => {
              handlerCtx.signal.addEventListener("abort", () => {
                const reason = handlerCtx.signal.reason as DOMException;
                seen.resolve(`${reason.name}: ${reason.message}`);
                reject(reason);
              });
              started.resolve();
            }),
        },
      }),
    );
    const plugin = await connect(target);
    const caller = new AbortController();
    const result = callListener(only(plugin, "pre-tool"), preTool("hang"), ctx, { signal: caller.signal });
    await started.promise;
    caller.abort(new Error("the turn was aborted"));
    await result.catch(() => {});
    expect(await seen.promise).toBe("AbortError: the daemon cancelled the call");
    // The stream outlives the cancelled call.
    expect(plugin.status().transport).toBe("stream");
  });

  it("enforces each call's own deadline on a shared stream: one hangs past its deadline, the other is answered", async () => {
    const hanging = deferred<string>();
    const target = await serve(
      definePlugin({
        name: "deadlines",
        points: {
          "pre-tool": { deadlineMs: 150, handler: (_event, handlerCtx) => new Promise((_resolve, reject) => handlerCtx.signal.addEventListener("abort", () => (hanging.resolve((handlerCtx.signal.reason as Error).name), reject(handlerCtx.signal.reason as Error)))) },
          "post-tool": { deadlineMs: 30_000, handler: async () => (await hanging.promise, accept({ content: [text("after")] })) },
        },
      }),
    );
    const plugin = await connect(target);
    const post = callListener(only(plugin, "post-tool"), postToolEvent(), ctx, open());
    const pre = await callListener(only(plugin, "pre-tool"), preTool("hang"), ctx, open());
    expect(pre).toMatchObject({ answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "deadline_exceeded" } });
    // The plugin saw its call end at the deadline: its own timer (deadline_ms) or the daemon's cancel frame.
    expect(["TimeoutError", "AbortError"]).toContain(await hanging.promise);
    expect(await post).toMatchObject({ answer: { kind: "accept", content: [{ type: "text", text: "after" }] }, invocation: { outcome: "answered" } });
    expect(plugin.status()).toMatchObject({ transport: "stream", failures: 1 });
  });

  it("sends each call's remaining deadline and a cancel frame once the daemon stops waiting", async () => {
    const plugin = await raw("deadline-frames", { points: [pb.Point.PRE_TOOL] });
    const remote = await connect(plugin.address, { overrides: { "pre-tool": { deadlineMs: 120 } } });
    const result = await callListener(only(remote, "pre-tool"), preTool("never"), ctx, open());
    expect(result).toMatchObject({ invocation: { outcome: "fault", fault: "deadline_exceeded" } });
    await plugin.until((p) => p.cancels.length === 1);
    const [call] = plugin.calls;
    expect(call?.deadlineMs).toBeGreaterThan(0);
    expect(call?.deadlineMs).toBeLessThanOrEqual(120);
    expect(call?.request.case).toBe("preTool");
    expect(plugin.cancels).toEqual([call?.callId]);
    expect(plugin.frames[0]?.frame).toMatchObject({ case: "open", value: { pluginName: "p", window: 64 } });
    // A late answer to the cancelled call is no protocol mistake.
    plugin.send(answerFrame(call?.callId ?? 0n, pb.Point.PRE_TOOL, ALLOW));
    const next = callListener(only(remote, "pre-tool"), preTool("next"), ctx, open());
    await plugin.until((p) => p.calls.length === 2);
    plugin.send(answerFrame(plugin.calls[1]?.callId ?? 0n, pb.Point.PRE_TOOL, ALLOW));
    expect(await next).toMatchObject({ answer: { kind: "allow" } });
    expect(remote.status()).toMatchObject({ refusedAnswers: 0 });
  });
});

describe("the window", () => {
  it("keeps at most `window` calls in flight; the others wait and go out as slots free", async () => {
    const plugin = await raw("window", { points: [pb.Point.PRE_TOOL] });
    const remote = await connect(plugin.address, { attachWindow: 2 });
    const calls = ["a", "b", "c", "d"].map((command) => callListener(only(remote, "pre-tool"), preTool(command), ctx, open()));
    await plugin.until((p) => p.calls.length === 2);
    const answer = (index: number) => plugin.send(answerFrame(plugin.calls[index]?.callId ?? 0n, pb.Point.PRE_TOOL, ALLOW));
    answer(0);
    await plugin.until((p) => p.calls.length === 3);
    // The third went out only once the first was answered: two were in flight, never more. It
    // carries what is left of its deadline, not the whole of it.
    expect(plugin.calls.length).toBe(3);
    expect(plugin.calls[2]?.deadlineMs).toBeLessThanOrEqual(plugin.calls[0]?.deadlineMs ?? 0);
    answer(1);
    await plugin.until((p) => p.calls.length === 4);
    answer(2);
    answer(3);
    for (const result of await Promise.all(calls)) expect(result).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    expect(plugin.frames[0]?.frame).toMatchObject({ case: "open", value: { window: 2 } });
  });

  it("fails a call whose deadline passes while it waits for a slot, under its failure policy, without sending it", async () => {
    const plugin = await raw("window-wait", { points: [pb.Point.PRE_TOOL, pb.Point.POST_TOOL] });
    const remote = await connect(plugin.address, { attachWindow: 1, overrides: { "pre-tool": { deadlineMs: 30_000 }, "post-tool": { deadlineMs: 100, failurePolicy: "fail-closed" } } });
    const holding = callListener(only(remote, "pre-tool"), preTool("hold"), ctx, open());
    await plugin.until((p) => p.calls.length === 1);
    const waiting = await callListener(only(remote, "post-tool"), postToolEvent(), ctx, open());
    expect(waiting).toMatchObject({ answer: { kind: "block" }, invocation: { outcome: "fault", fault: "deadline_exceeded", detail: expect.stringContaining("call slots") as unknown } });
    plugin.send(answerFrame(plugin.calls[0]?.callId ?? 0n, pb.Point.PRE_TOOL, ALLOW));
    expect(await holding).toMatchObject({ answer: { kind: "allow" } });
    expect(plugin.calls.map((call) => call.request.case)).toEqual(["preTool"]);
  });
});

describe("answers the daemon refuses or turns into faults", () => {
  it("refuses and counts an answer for an id never sent and one answered twice; the stream goes on", async () => {
    const plugin = await raw("twice", {
      points: [pb.Point.PRE_TOOL],
      onCall: (call, p) => {
        p.send(answerFrame(call.callId + 1_000n, pb.Point.PRE_TOOL, ALLOW)); // never sent
        p.send(answerFrame(call.callId, pb.Point.PRE_TOOL, ALLOW));
        p.send(answerFrame(call.callId, pb.Point.PRE_TOOL, ALLOW)); // twice
      },
    });
    const remote = await connect(plugin.address);
    expect(await callListener(only(remote, "pre-tool"), preTool("one"), ctx, open())).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    await expect.poll(() => remote.status().refusedAnswers).toBe(2);
    expect(await callListener(only(remote, "pre-tool"), preTool("two"), ctx, open())).toMatchObject({ answer: { kind: "allow" } });
    await expect.poll(() => remote.status().refusedAnswers).toBe(4);
    expect(plugin.opens).toBe(1);
    expect(remote.status()).toMatchObject({ transport: "stream", failures: 0, health: "serving" });
  });

  const faults: readonly { readonly name: string; readonly frame: (id: bigint) => Uint8Array; readonly fault: string; readonly detail: RegExp }[] = [
    {
      name: "another point's response",
      frame: (id) => answerFrame(id, pb.Point.POST_TOOL, Buffer.from([])),
      fault: "wrong_point",
      detail: /pre-tool call was answered with the response of post-tool/,
    },
    { name: "garbage in the response", frame: (id) => answerFrame(id, pb.Point.PRE_TOOL, Buffer.from([(pb.Point.PRE_TOOL << 3) | 0, 1])), fault: "invalid_answer", detail: /cannot decode/ },
    { name: "a response without a decision", frame: (id) => answerFrame(id, pb.Point.PRE_TOOL, Buffer.from([])), fault: "invalid_answer", detail: /no decision/ },
    { name: "a CallError UNAVAILABLE", frame: (id) => errorFrame(id, status.UNAVAILABLE, "backend down"), fault: "unavailable", detail: /backend down/ },
    { name: "a CallError DEADLINE_EXCEEDED", frame: (id) => errorFrame(id, status.DEADLINE_EXCEEDED, "too slow"), fault: "deadline_exceeded", detail: /too slow/ },
    { name: "a CallError INVALID_ARGUMENT", frame: (id) => errorFrame(id, status.INVALID_ARGUMENT, "event.call: missing"), fault: "error_status", detail: /INVALID_ARGUMENT: event\.call: missing/ },
  ];

  it.each(faults)("turns $name into the fault unary gives it ($fault), under the failure policy", async ({ frame, fault, detail }) => {
    const plugin = await raw("faulty", { points: [pb.Point.PRE_TOOL], onCall: (call, p) => p.send(frame(call.callId)) });
    const remote = await connect(plugin.address);
    const result = await callListener(only(remote, "pre-tool"), preTool("x"), ctx, open());
    expect(result).toMatchObject({ answer: { kind: "deny" }, invocation: { outcome: "fault", fault, detail: expect.stringMatching(detail) as unknown } });
    expect(remote.status()).toMatchObject({ transport: "stream", refusedAnswers: 0 });
  });

  it("answers a handler's throw as the CallError of the status unary sends: the same fault and detail on both transports", async () => {
    const thrower = definePlugin({ name: "thrower", points: { "pre-tool": () => { throw new Error("boom"); } } });
    const stream = await connect(await serve(thrower));
    const unary = await connect(await serve(definePlugin({ ...thrower, points: thrower.subscriptions, name: "thrower-unary" }), { transport: "unary" }));
    const overStream = await callListener(only(stream, "pre-tool"), preTool("x"), ctx, open());
    const overUnary = await callListener(only(unary, "pre-tool"), preTool("x"), ctx, open());
    expect(overStream).toMatchObject({ invocation: { outcome: "fault", fault: "error_status", detail: expect.stringContaining("UNKNOWN: plugin thrower at pre-tool threw: boom") as unknown } });
    expect(overStream.invocation.detail).toBe(overUnary.invocation.detail?.replace("thrower-unary", "thrower"));
    expect([stream.status().transport, unary.status().transport]).toEqual(["stream", "unary"]);
  });
});

describe("ejection over the stream", () => {
  it("ejects after consecutive CallErrors, fails fast without a frame, and re-admits the plugin on a fresh stream", async () => {
    let failing = true;
    const plugin = await raw("flaky", {
      points: [pb.Point.PRE_TOOL],
      onCall: (call, p) => p.send(failing ? errorFrame(call.callId, status.INTERNAL, "database locked") : answerFrame(call.callId, pb.Point.PRE_TOOL, ALLOW)),
    });
    const remote = await connect(plugin.address, { health: { initialBackoffMs: 10, maxBackoffMs: 50, ejectAfterFailures: 3 } });
    plugin.serving = false; // so the probe cannot re-admit it yet
    const ejected = new Promise<void>((resolve) => remote.onHealth((change) => change.health === "ejected" && resolve()));
    for (let i = 0; i < 3; i++) {
      expect(await callListener(only(remote, "pre-tool"), preTool("x"), ctx, open())).toMatchObject({ invocation: { fault: "error_status", detail: expect.stringContaining("INTERNAL: database locked") as unknown } });
    }
    await ejected;
    expect(await callListener(only(remote, "pre-tool"), preTool("x"), ctx, open())).toMatchObject({ answer: { kind: "deny" }, invocation: { fault: "ejected" } });
    expect(plugin.calls.length).toBe(3); // failed fast: no frame

    const readmitted = new Promise<void>((resolve) => remote.onHealth((change) => change.health === "serving" && resolve()));
    failing = false;
    plugin.serving = true;
    await readmitted;
    expect(await callListener(only(remote, "pre-tool"), preTool("x"), ctx, open())).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    expect({ opens: plugin.opens, calls: plugin.calls.length, transport: remote.status().transport }).toEqual({ opens: 2, calls: 4, transport: "stream" });
  });
});

describe("unary, when the plugin has no Attach or prefers unary", () => {
  it("falls back to unary on UNIMPLEMENTED, for the first call and the next", async () => {
    const plugin = await raw("old", { points: [pb.Point.PRE_TOOL], attach: false });
    const remote = await connect(plugin.address);
    expect(await callListener(only(remote, "pre-tool"), preTool("a"), ctx, open())).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    expect(await callListener(only(remote, "pre-tool"), preTool("b"), ctx, open())).toMatchObject({ answer: { kind: "allow" } });
    expect(plugin.unaryCalls).toBe(2);
    expect(remote.status()).toMatchObject({ transport: "unary", failures: 0 });
  });

  it("calls a plugin whose manifest says UNARY over the unary RPCs, though it serves Attach", async () => {
    const plugin = await raw("prefers-unary", { points: [pb.Point.PRE_TOOL], transport: pb.PluginTransport.UNARY });
    const remote = await connect(plugin.address);
    expect(await callListener(only(remote, "pre-tool"), preTool("a"), ctx, open())).toMatchObject({ answer: { kind: "allow" } });
    expect({ opens: plugin.opens, unaryCalls: plugin.unaryCalls, transport: remote.status().transport }).toEqual({ opens: 0, unaryCalls: 1, transport: "unary" });
  });

  it("servePlugin({ transport: \"unary\" }) says so in its manifest", async () => {
    const target = await serve(definePlugin({ name: "unary-ts", points: { "pre-tool": () => allow() } }), { transport: "unary" });
    const remote = await connect(target);
    expect(await callListener(only(remote, "pre-tool"), preTool("a"), ctx, open())).toMatchObject({ answer: { kind: "allow" } });
    expect(remote.status().transport).toBe("unary");
  });

  it("reopens the stream after the plugin ends it: in-flight calls fail as unavailable, the next ones are served", async () => {
    const plugin = await raw("ends", {
      points: [pb.Point.PRE_TOOL],
      onCall: (call, p) => {
        if (p.calls.length > 1) p.send(answerFrame(call.callId, pb.Point.PRE_TOOL, ALLOW));
      },
    });
    const remote = await connect(plugin.address);
    const inFlight = callListener(only(remote, "pre-tool"), preTool("a"), ctx, open());
    await plugin.until((p) => p.calls.length === 1);
    plugin.endStream();
    expect(await inFlight).toMatchObject({ answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "unavailable", detail: expect.stringMatching(/the Attach stream ended with the call in flight/) as unknown } });
    // During the backoff calls go unary (answered too); then a new stream carries them.
    await expect
      .poll(async () => {
        expect(await callListener(only(remote, "pre-tool"), preTool("b"), ctx, open())).toMatchObject({ invocation: { outcome: "answered" } });
        return plugin.opens;
      })
      .toBe(2);
    const callsBefore = plugin.calls.length;
    expect(await callListener(only(remote, "pre-tool"), preTool("c"), ctx, open())).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    expect(plugin.calls.length).toBe(callsBefore + 1);
    expect(remote.status().transport).toBe("stream");
  });
});

describe("a lost connection", () => {
  it("does not re-send a call that waited for a slot to whatever listens next: it fails as unavailable", async () => {
    const first = await raw("lost", { points: [pb.Point.PRE_TOOL] });
    const remote = await connect(first.address, { attachWindow: 1, overrides: { "pre-tool": { deadlineMs: 30_000 } } });
    const holding = callListener(only(remote, "pre-tool"), preTool("hold"), ctx, open());
    await first.until((p) => p.calls.length === 1);
    const waiting = callListener(only(remote, "pre-tool"), preTool("wait"), ctx, open());
    // Another server takes the address over before the first one goes away.
    await rm(join(dir, "lost.sock"), { force: true });
    const next = await raw("lost", { points: [pb.Point.PRE_TOOL], attach: false });
    first.server.forceShutdown();
    expect(await holding).toMatchObject({ invocation: { outcome: "fault", fault: "unavailable" } });
    expect(await waiting).toMatchObject({ invocation: { outcome: "fault", fault: "unavailable", detail: expect.stringMatching(/connection was lost/) as unknown } });
    expect(next.unaryCalls).toBe(0);
  });
});
