// Fail-closed never silently opens, over real Unix sockets: a remote plugin that cannot be
// described is subscribed by its config's points, else by its last known manifest (persisted in
// the state directory), else at every gate point failing as unavailable; a required one with
// neither is refused; the real manifest replaces the fallback (and is persisted) once it is
// described. DescribeRequest carries the daemon's version and the configured name.
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { allow, definePlugin, servePlugin } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";
import { configSchema } from "../src/config/schema.js";
import { stateDir } from "../src/config/load.js";
import { callListener } from "../src/engine/invoke.js";
import type { ContextFactory } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
import { createLogger } from "../src/log.js";
import { RemotePlugin, loadPlugin } from "../src/plugins/index.js";
import type { RemotePluginOptions } from "../src/plugins/index.js";
import { GATE_POINTS } from "../src/plugins/remote/fallback.js";
import { ManifestStore } from "../src/plugins/remote/manifest-store.js";
import { serveFakePlugin } from "./fixtures/fake-plugin.js";
import { deferred, preToolEvent } from "./fixtures/listeners.js";

let dir: string;
let cleanups: (() => Promise<void> | void)[];
let logs: Record<string, unknown>[];
const log = createLogger({ level: "debug", write: (line) => void logs.push(JSON.parse(line) as Record<string, unknown>) });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-fallback-"));
  cleanups = [];
  logs = [];
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

const ctxFor =
  <P extends PointName>(): ContextFactory<P> =>
  (abort) =>
    ({ signal: abort.signal, plugin: "gate", next: () => Promise.reject(new Error("no inner plugins")) });
const open = () => ({ signal: new AbortController().signal });

function plugin(options: Partial<RemotePluginOptions> = {}): RemotePlugin {
  const made = new RemotePlugin({ name: "gate", target: `unix://${join(dir, "gate.sock")}`, health: { initialBackoffMs: 10, maxBackoffMs: 50 }, log, ...options });
  cleanups.push(() => made.close());
  return made;
}

function at(remote: RemotePlugin, point: PointName): Listener {
  const found = remote.listeners().find((listener) => listener.point === point);
  if (found === undefined) throw new Error(`no ${point} listener`);
  return found;
}

const manifest = {
  name: "gate",
  version: "2.0.0",
  sideEffectFree: false,
  subscriptions: [{ point: "pre-tool" as const, tools: ["Bash"], priority: 3, failurePolicy: "fail-closed" as const }],
};

describe("a remote plugin that cannot be described", () => {
  it("with neither config points nor a last known manifest, is subscribed at every gate point, for every tool, failing closed", async () => {
    const remote = plugin();
    await remote.start();
    expect(GATE_POINTS).toEqual(["pre-step", "rewrite", "pre-tool", "approval", "guard", "post-tool"]);
    expect(remote.status()).toMatchObject({ health: "unavailable", points: GATE_POINTS, subscriptions: "none: failing every gate point" });
    for (const listener of remote.listeners()) expect(listener).toMatchObject({ failurePolicy: "fail-closed", kind: "remote" });
    const preTool = at(remote, "pre-tool");
    expect(preTool.matches("AnyTool")).toBe(true);
    const result = await callListener(preTool as Listener<"pre-tool">, preToolEvent("Write"), ctxFor(), open());
    expect(result).toMatchObject({ answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "unavailable" } });
    expect(logs.find((l) => l.msg === "plugin not described; subscribed by its fallback until it is")).toMatchObject({ subscriptions: "none: failing every gate point" });
  });

  it("with a last known manifest, is subscribed by it, and says of when", async () => {
    const remote = plugin({ lastKnown: { manifest, savedAt: "2026-11-30T10:00:00.000Z" } });
    await remote.start();
    expect(remote.status()).toMatchObject({ points: ["pre-tool"], subscriptions: "last known manifest of 2026-11-30T10:00:00.000Z" });
    const preTool = at(remote, "pre-tool");
    expect(preTool).toMatchObject({ priority: 3, failurePolicy: "fail-closed" });
    expect(preTool.matches("Bash")).toBe(true);
    expect(preTool.matches("Read")).toBe(false);
  });

  it("with config points, is subscribed by them, whatever its last known manifest says", async () => {
    const remote = plugin({ overrides: { guard: {} }, lastKnown: { manifest, savedAt: "2026-11-30T10:00:00.000Z" } });
    await remote.start();
    expect(remote.status()).toMatchObject({ points: ["guard"], subscriptions: "config" });
  });

  it("replaces the fallback with its real manifest once described, and persists it", async () => {
    const store = new ManifestStore(dir, log);
    const address = `unix://${join(dir, "gate.sock")}`;
    const remote = plugin({ manifests: store });
    await remote.start();
    expect(remote.status().subscriptions).toBe("none: failing every gate point");
    const described = deferred();
    remote.onChange(() => described.resolve());
    const server = await servePlugin(definePlugin({ name: "gate", version: "4.0.0", points: { "tool-result": () => undefined, "pre-tool": { tools: ["Bash"], handler: () => allow() } } }), { address });
    cleanups.push(() => server.close());
    await described.promise;
    expect(remote.status()).toMatchObject({ health: "serving", points: ["pre-tool", "tool-result"], subscriptions: "described" });
    await remote.whenPersisted();
    const known = await store.load("gate");
    expect(known?.manifest).toMatchObject({ name: "gate", version: "4.0.0", subscriptions: [{ point: "pre-tool", tools: ["Bash"] }, { point: "tool-result" }] });
    expect(Date.parse(known?.savedAt ?? "")).not.toBeNaN();
  });

  it("a required one with neither is refused at load with an error naming the plugin and why", async () => {
    const config = configSchema.parse({ listeners: [{ unix: "/x" }], plugins: [{ name: "gate", kind: "remote", target: `unix://${join(dir, "gate.sock")}`, required: true }] });
    const entry = config.plugins[0];
    if (entry === undefined) throw new Error("no plugin");
    const context = { defaultDeadlineMs: 500, workerPool: () => { throw new Error("no pool"); }, log, manifests: new ManifestStore(dir, log) };
    await expect(loadPlugin(entry, context)).rejects.toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/^plugins\.gate: required, but it could not be described at start \(health check: .*\), its config names no points \(plugins\.gate\.points\) and it has no last known manifest \(none in .*manifests\); refusing to start/) as unknown,
    });
    // With a last known manifest it starts, subscribed by it.
    await new ManifestStore(dir, log).save("gate", manifest);
    const source = await loadPlugin(entry, context);
    cleanups.push(() => source.close());
    expect(source.status()).toMatchObject({ points: ["pre-tool"], subscriptions: expect.stringMatching(/^last known manifest of \d{4}-/) as unknown });
  });
});

describe("the manifest store", () => {
  it("round-trips a manifest atomically, leaving no temp file", async () => {
    const store = new ManifestStore(dir, log);
    await store.save("gate", manifest, new Date("2026-12-01T00:00:00.000Z"));
    expect(await store.load("gate")).toEqual({ manifest, savedAt: "2026-12-01T00:00:00.000Z" });
    expect(await readdir(store.dir)).toEqual(["gate.json"]);
    expect(await store.load("other")).toBeUndefined();
  });

  it.each([
    ["not JSON", () => "{", /JSON/],
    ["another plugin's file", (body: Record<string, unknown>) => JSON.stringify({ ...body, plugin: "other" }), /^plugin: expected "gate", got "other"/],
    ["an unknown format", (body: Record<string, unknown>) => JSON.stringify({ ...body, format: 2 }), /^format: expected 1/],
    ["a bad time", (body: Record<string, unknown>) => JSON.stringify({ ...body, savedAt: "yesterday" }), /^savedAt: expected an ISO 8601 time/],
    [
      "an invalid manifest",
      (body: Record<string, unknown>) => JSON.stringify({ ...body, manifest: { name: "gate", subscriptions: [{ point: "POINT_PRE_TOOL" }, { point: "POINT_PRE_TOOL" }] } }),
      /manifest\.subscriptions\[1\]\.point: pre-tool is subscribed twice/,
    ],
  ])("ignores %s with a warning, never trusting it", async (_name, corrupt, why) => {
    const store = new ManifestStore(dir, log);
    await store.save("gate", manifest);
    const body = JSON.parse(await readFile(store.path("gate"), "utf8")) as Record<string, unknown>;
    await writeFile(store.path("gate"), corrupt(body));
    expect(await store.load("gate")).toBeUndefined();
    const warning = logs.find((l) => l.msg === "the last known manifest is corrupt; ignored");
    expect(warning).toMatchObject({ level: "warn", path: store.path("gate") });
    expect(String(warning?.error)).toMatch(why);
  });

  it("a read-only store (hookd check) never writes", async () => {
    const store = new ManifestStore(dir, log, { readOnly: true });
    await store.save("gate", manifest);
    expect(await store.load("gate")).toBeUndefined();
    await expect(readdir(store.dir)).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("lives in $STATE_DIRECTORY, else state.dir, else beside the config, else $XDG_STATE_HOME/hookd", () => {
    const config = configSchema.parse({ listeners: [{ unix: "/x" }] });
    const withDir = configSchema.parse({ listeners: [{ unix: "/x" }], state: { dir: "/srv/state" } });
    expect(stateDir(withDir, "/etc/hookd/hookd.yaml", { STATE_DIRECTORY: "/var/lib/hookd:/var/lib/other" })).toBe("/var/lib/hookd");
    expect(stateDir(withDir, "/etc/hookd/hookd.yaml", {})).toBe("/srv/state");
    expect(stateDir(config, "/etc/hookd/hookd.yaml", {})).toBe("/etc/hookd/hookd-state");
    expect(stateDir(config, undefined, { XDG_STATE_HOME: "/home/u/.state" })).toBe("/home/u/.state/hookd");
  });
});

describe("the Describe handshake", () => {
  it("sends the daemon's version and the plugin's configured name", async () => {
    const received: pb.DescribeRequest[] = [];
    const server = await serveFakePlugin(`unix://${join(dir, "gate.sock")}`, {
      handlers: {
        describe: async (request) => {
          received.push(request);
          return { manifest: { name: "calls-itself-something-else", subscriptions: [{ point: pb.Point.PRE_TOOL }] } };
        },
      },
    });
    cleanups.push(() => server.close());
    const remote = plugin({ daemonVersion: "9.8.7" });
    await remote.start();
    expect(remote.status()).toMatchObject({ health: "serving", subscriptions: "described" });
    expect(received.map((r) => ({ daemonVersion: r.daemonVersion, pluginName: r.pluginName }))).toEqual([{ daemonVersion: "9.8.7", pluginName: "gate" }]);
  });
});
