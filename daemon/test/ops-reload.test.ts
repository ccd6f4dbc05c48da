// Reload planning: which plugins keep their sources, in-flight call tracking per source, the
// settings that need a restart, and swappable identities.
import { Metadata } from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { configSchema } from "../src/config/schema.js";
import type { PluginConfig } from "../src/config/schema.js";
import { restartOnlyChanges } from "../src/config/reload.js";
import { AgentIdentities, SwappableIdentities } from "../src/host/identity.js";
import { InflightCalls } from "../src/plugins/inflight.js";
import { planPlugins } from "../src/plugins/plugin-set.js";
import { staticSource } from "../src/plugins/source.js";
import { deferred, listener, listenerCall, preToolEvent } from "./fixtures/listeners.js";

const inProcess = (name: string, extra: Partial<PluginConfig> = {}): PluginConfig => ({ name, kind: "in-process", module: `/p/${name}.mjs`, required: false, ...extra }) as PluginConfig;

describe("planPlugins", () => {
  it("keeps deeply equal entries, reloads changed ones, retires removed ones, loads new ones", () => {
    const plan = planPlugins(
      [inProcess("same", { points: { "pre-tool": { tools: ["Bash"] } } }), inProcess("changed"), inProcess("gone")],
      [inProcess("added"), inProcess("changed", { points: { "pre-tool": { priority: 2 } } }), inProcess("same", { points: { "pre-tool": { tools: ["Bash"] } } })],
    );
    expect(plan.keep).toEqual(["same"]);
    expect(plan.retire).toEqual(["changed", "gone"]);
    expect(plan.load.map((p) => p.name)).toEqual(["added", "changed"]);
  });
});

describe("restartOnlyChanges", () => {
  it("names listener and server settings a running daemon cannot change", () => {
    const base = configSchema.parse({ listeners: [{ unix: "/a.sock" }] });
    expect(restartOnlyChanges(base, configSchema.parse({ listeners: [{ unix: "/a.sock" }], plugins: [] }))).toEqual([]);
    const next = configSchema.parse({ listeners: [{ unix: "/b.sock" }], metrics: { listen: ":9" }, limits: { maxMessageBytes: 10 } });
    expect(restartOnlyChanges(base, next)).toEqual(["listeners", "metrics", "limits.maxMessageBytes"]);
  });
});

describe("InflightCalls", () => {
  it("counts a source's calls while they run and reports when it drained", async () => {
    const release = deferred<string>();
    const source = staticSource({ name: "p", kind: "in-process", target: "/p" }, [listener("pre-tool", "p", () => release.promise)]);
    const inflight = new InflightCalls();
    const [tracked] = inflight.listeners(source);
    if (tracked === undefined) throw new Error("no listener");
    const running = tracked.call(preToolEvent(), {} as never, listenerCall());
    expect(inflight.count(source)).toBe(1);
    const drained = inflight.drained(source, 10_000);
    release.resolve("allow");
    await expect(running).resolves.toBe("allow");
    await expect(drained).resolves.toBe(true);
    expect(inflight.count(source)).toBe(0);
  });

  it("counts a call that throws synchronously, and gives up waiting after the timeout", async () => {
    const source = staticSource({ name: "p", kind: "in-process", target: "/p" }, [
      { ...listener("pre-tool", "p", () => undefined), call: () => { throw new Error("sync"); } },
      listener("guard", "p", () => new Promise(() => {})),
    ]);
    const inflight = new InflightCalls();
    const [throwing, hanging] = inflight.listeners(source);
    expect(() => throwing?.call(preToolEvent(), {} as never, listenerCall())).toThrow("sync");
    expect(inflight.count(source)).toBe(0);
    void hanging?.call(preToolEvent(), {} as never, listenerCall());
    await expect(inflight.drained(source, 20)).resolves.toBe(false);
    expect(inflight.count(source)).toBe(1);
  });
});

describe("SwappableIdentities", () => {
  it("resolves against the tokens in force", () => {
    const identities = new SwappableIdentities(new AgentIdentities([]));
    const metadata = new Metadata();
    metadata.set("authorization", "Bearer 0123456789abcdef0123");
    expect(identities.resolve(metadata, "me")).toBe("me");
    identities.replace(new AgentIdentities([{ agent: "ci", token: "0123456789abcdef0123" }]));
    expect(identities.requiresToken).toBe(true);
    expect(identities.resolve(metadata)).toBe("ci");
    expect(() => identities.resolve(new Metadata())).toThrow(/bearer token is required/);
  });
});
