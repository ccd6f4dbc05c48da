// RemotePlugin connection health over real Unix sockets: a plugin unreachable at start answers
// through its configured failure policy and is described (with the registry rebuilt) once it
// comes up; repeated failures eject a plugin, whose calls then fail fast without an RPC until
// its health check passes again; manifest validation and TLS settings fail loudly.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { status } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { create } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { allow, definePlugin, servePlugin } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { StatusError, pb } from "@hookd/sdk/internal";
import { callListener } from "../src/engine/invoke.js";
import type { ContextFactory } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { RemotePlugin, channelCredentials, readManifest } from "../src/plugins/index.js";
import type { HealthChange, PluginHealth, RemotePluginOptions } from "../src/plugins/index.js";
import { serveFakePlugin } from "./fixtures/fake-plugin.js";
import { deferred, preToolEvent } from "./fixtures/listeners.js";

let dir: string;
let cleanups: (() => Promise<void> | void)[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-health-"));
  cleanups = [];
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

const ctxFor =
  <P extends PointName>(): ContextFactory<P> =>
  (abort) =>
    ({ signal: abort.signal, plugin: "p", next: () => Promise.reject(new Error("no inner plugins")) });
const open = () => ({ signal: new AbortController().signal });

function plugin(target: string, options: Partial<RemotePluginOptions> = {}): RemotePlugin {
  const made = new RemotePlugin({ name: "p", target, health: { initialBackoffMs: 10, maxBackoffMs: 50, ejectAfterFailures: 3 }, ...options });
  cleanups.push(() => made.close());
  return made;
}

/** Resolves at the first health change to `health` (or at once if it is there already). */
function healthBecomes(remote: RemotePlugin, health: PluginHealth): Promise<HealthChange | undefined> {
  if (remote.health === health) return Promise.resolve(undefined);
  const reached = deferred<HealthChange>();
  const stop = remote.onHealth((change) => {
    if (change.health === health) {
      stop();
      reached.resolve(change);
    }
  });
  return reached.promise;
}

function preTool(remote: RemotePlugin): Listener<"pre-tool"> {
  const found = remote.listeners().find((listener) => listener.point === "pre-tool");
  if (found === undefined) throw new Error("no pre-tool listener");
  return found as Listener<"pre-tool">;
}

describe("a plugin unreachable at start", () => {
  it("answers through the failure policy of the points its config names, then is described when it comes up", async () => {
    const address = `unix://${join(dir, "late.sock")}`;
    const remote = plugin(address, { overrides: { "pre-tool": { failurePolicy: "fail-closed", priority: 4 }, guard: { failurePolicy: "fail-open" } } });
    await remote.start(); // resolves although nothing listens
    expect(remote.status()).toMatchObject({ health: "unavailable", points: ["pre-tool", "guard"], lastError: expect.stringMatching(/health check: UNAVAILABLE/) as unknown });

    const registries: PluginRegistry[] = [];
    // What the daemon does with a plugin source: build a registry now and again on every change.
    const rebuild = (): void => void registries.push(new PluginRegistry(remote.listeners()));
    rebuild();
    cleanups.push(remote.onChange(rebuild));
    expect(registries).toHaveLength(1);
    expect(registries[0]?.describe().find((entry) => entry.point === "pre-tool")?.plugins).toEqual(["p"]);

    const configured = preTool(remote);
    expect(configured).toMatchObject({ kind: "remote", priority: 4, failurePolicy: "fail-closed" });
    const denied = await callListener(configured, preToolEvent(), ctxFor(), open());
    expect(denied).toMatchObject({ type: "answer", answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "unavailable" } });
    expect(denied.invocation.detail).toMatch(/^plugin p at pre-tool: unavailable: unix:\/\/.*late\.sock is unavailable \(last error: health check: UNAVAILABLE/);

    const described = deferred();
    remote.onChange(() => described.resolve());
    const server = await servePlugin(
      definePlugin({ name: "late", version: "3.0.0", points: { "pre-tool": { priority: 7, handler: () => allow() } } }),
      { address },
    );
    cleanups.push(() => server.close());
    await described.promise;

    expect(remote.status()).toMatchObject({ health: "serving", points: ["pre-tool"], manifest: { name: "late", version: "3.0.0" } });
    expect(registries).toHaveLength(2);
    expect(registries[1]?.describe().find((entry) => entry.point === "guard")?.plugins).toEqual([]);
    const described_ = preTool(remote);
    expect(described_).toMatchObject({ priority: 4, failurePolicy: "fail-closed" }); // overrides still apply
    expect(await callListener(described_, preToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    // The listener handed out before the plugin was described now reaches it too.
    expect(await callListener(configured, preToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "allow" } });
  });
});

describe("admission of a starting process (admit)", () => {
  it("keeps the polls made while it binds its socket out of the last error once admitted, and names the last one if it never is", async () => {
    const address = `unix://${join(dir, "starting.sock")}`;
    const remote = plugin(address, { managed: { crashed: async () => false } });
    const admitted = remote.admit({ signal: new AbortController().signal, timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 100)); // a few polls find nothing listening
    const server = await servePlugin(definePlugin({ name: "p", points: { "pre-tool": () => allow() } }), { address, onError: () => {} });
    cleanups.push(() => server.close());
    expect(await admitted).toBe(true);
    expect(remote.status()).toMatchObject({ health: "serving", lastError: "" });

    const never = plugin(`unix://${join(dir, "never.sock")}`, { managed: { crashed: async () => false } });
    expect(await never.admit({ signal: new AbortController().signal, timeoutMs: 200 })).toBe(false);
    expect(never.status().lastError).toMatch(/health check: UNAVAILABLE/);
  });
});

describe("ejection", () => {
  it("ejects after N consecutive failures, fails fast without an RPC, and re-admits once the health check passes", async () => {
    const ServingStatus = pb.health.HealthCheckResponse_ServingStatus;
    const state = { failing: true, calls: 0 };
    const address = `unix://${join(dir, "flaky.sock")}`;
    const server = await serveFakePlugin(address, {
      manifest: { name: "flaky", subscriptions: [{ point: pb.Point.PRE_TOOL }] },
      handlers: {
        preTool: async () => {
          state.calls++;
          if (state.failing) throw new StatusError(status.INTERNAL, "database locked");
          return { decision: { decision: { case: "allow", value: {} } } };
        },
      },
    });
    cleanups.push(() => server.close());

    const remote = plugin(address);
    await remote.start();
    expect(remote.health).toBe("serving");
    server.health = ServingStatus.NOT_SERVING; // so the probe cannot re-admit it yet

    const ejected = healthBecomes(remote, "ejected");
    for (let i = 1; i <= 3; i++) {
      const result = await callListener(preTool(remote), preToolEvent(), ctxFor(), open());
      expect(result).toMatchObject({ answer: { kind: "deny" }, invocation: { fault: "error_status" } });
      expect(result.invocation.detail).toMatch(/INTERNAL: database locked/);
    }
    expect(await ejected).toMatchObject({ plugin: "p", health: "ejected", previous: "serving", reason: "3 consecutive failures" });
    expect(state.calls).toBe(3);

    const fast = await callListener(preTool(remote), preToolEvent(), ctxFor(), open());
    expect(fast).toMatchObject({ answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "ejected" } });
    expect(fast.invocation.detail).toMatch(/^plugin p at pre-tool: ejected: ejected after repeated failures until its health check passes \(last error: /);
    expect(state.calls).toBe(3); // no RPC

    const readmitted = healthBecomes(remote, "serving");
    state.failing = false;
    server.health = ServingStatus.SERVING;
    expect(await readmitted).toMatchObject({ health: "serving", previous: "ejected" });
    expect(await callListener(preTool(remote), preToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "allow" } });
    expect(state.calls).toBe(4);
    expect(remote.status()).toMatchObject({ health: "serving", calls: 5, failures: 4, consecutiveFailures: 0 });
  });

  it("answers a fail-open plugin's ejected calls with pass", async () => {
    const address = `unix://${join(dir, "down.sock")}`;
    const server = await serveFakePlugin(address, {
      manifest: { name: "down", subscriptions: [{ point: pb.Point.PRE_TOOL, failurePolicy: pb.FailurePolicy.FAIL_OPEN }] },
      handlers: {
        preTool: async () => {
          throw new StatusError(status.UNAVAILABLE, "backend down");
        },
      },
    });
    cleanups.push(() => server.close());
    const remote = plugin(address, { health: { ejectAfterFailures: 1, initialBackoffMs: 10, maxBackoffMs: 50 } });
    await remote.start();
    server.serving = false;
    expect(await callListener(preTool(remote), preToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "pass" }, invocation: { fault: "unavailable" } });
    expect(await callListener(preTool(remote), preToolEvent(), ctxFor(), open())).toMatchObject({ answer: { kind: "pass" }, invocation: { fault: "ejected" } });
  });
});

describe("manifest validation", () => {
  const manifest = (init: MessageInitShape<typeof pb.PluginManifestSchema>) => create(pb.PluginManifestSchema, init);

  it.each([
    ["an empty name", manifest({ name: "", subscriptions: [{ point: pb.Point.PRE_TOOL }] }), /^manifest\.name: expected a non-empty name/],
    ["no subscription", manifest({ name: "x" }), /^manifest\.subscriptions: the plugin subscribes to no point/],
    ["an unspecified point", manifest({ name: "x", subscriptions: [{}] }), /^manifest\.subscriptions\[0\]\.point: unspecified/],
    [
      "a point twice",
      manifest({ name: "x", subscriptions: [{ point: pb.Point.GUARD }, { point: pb.Point.GUARD }] }),
      /^manifest\.subscriptions\[1\]\.point: guard is subscribed twice/,
    ],
    ["an empty matcher", manifest({ name: "x", subscriptions: [{ point: pb.Point.PRE_TOOL, tools: ["Bash", ""] }] }), /^manifest\.subscriptions\[0\]\.tools\[1\]: a tool matcher must be a non-empty string/],
    ["tools on pre-step", manifest({ name: "x", subscriptions: [{ point: pb.Point.PRE_STEP, tools: ["Bash"] }] }), /^manifest\.subscriptions\[0\]\.tools: matchers apply only to tool points and agent-event, not to pre-step/],
    ["an unknown failure policy", manifest({ name: "x", subscriptions: [{ point: pb.Point.GUARD, failurePolicy: 7 as pb.FailurePolicy }] }), /^manifest\.subscriptions\[0\]\.failure_policy: unknown value 7/],
  ])("refuses %s", (_name, message, error) => {
    expect(() => readManifest(message)).toThrow(expect.objectContaining({ code: "invalid_plugin", message: expect.stringMatching(error) as unknown }) as Error);
  });

  it("keeps what the daemon needs and leaves defaults to the config", () => {
    expect(
      readManifest(
        manifest({
          name: "ok",
          version: "1",
          sideEffectFree: true,
          subscriptions: [{ point: pb.Point.PRE_TOOL, tools: ["Bash"], priority: -2, deadlineMs: 250, failurePolicy: pb.FailurePolicy.FAIL_OPEN }, { point: pb.Point.TOOL_RESULT }],
        }),
      ),
    ).toEqual({
      name: "ok",
      version: "1",
      sideEffectFree: true,
      subscriptions: [
        { point: "pre-tool", tools: ["Bash"], priority: -2, deadlineMs: 250, failurePolicy: "fail-open" },
        { point: "tool-result", tools: [], priority: 0 },
      ],
    });
  });
});

describe("TLS settings", () => {
  it("refuses a client certificate without its key, and a file it cannot read, naming the field", async () => {
    await expect(channelCredentials({ cert: "/x.pem" }, "plugins.p.tls")).rejects.toThrow(/^plugins\.p\.tls: cert and key go together/);
    await expect(channelCredentials({ ca: join(dir, "missing.pem") }, "plugins.p.tls")).rejects.toThrow(/^plugins\.p\.tls\.ca: cannot read/);
  });
});
