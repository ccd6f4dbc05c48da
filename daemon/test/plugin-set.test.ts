// The plugin set through its public entry points: load from a config, a reload that keeps
// unchanged sources and swaps the registry whole (a registry taken before keeps its chain), and a
// refused reload that leaves what is in force untouched.
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { configSchema } from "../src/config/schema.js";
import type { Config } from "../src/config/schema.js";
import { silentLogger } from "../src/log.js";
import { PluginSet } from "../src/plugins/plugin-set.js";

const fixture = (name: string): string => fileURLToPath(new URL(`../../test/fixtures/plugins/${name}`, import.meta.url));

function config(plugins: readonly Record<string, unknown>[]): Config {
  return configSchema.parse({ listeners: [{ unix: "/tmp/unused.sock" }], plugins });
}

const spec = (extra: Record<string, unknown> = {}) => ({ name: "spec-plugin", kind: "in-process", module: fixture("spec.mjs"), ...extra });
const gate = { name: "gate", kind: "in-process", module: fixture("gate.mjs") };

const sets: PluginSet[] = [];
afterEach(async () => {
  await Promise.all(sets.splice(0).map((set) => set.close()));
});

async function loaded(first: Config): Promise<PluginSet> {
  const set = new PluginSet({ log: silentLogger });
  sets.push(set);
  await set.load(first);
  return set;
}

describe("PluginSet", () => {
  it("loads a config's plugins in order and builds a frozen registry from them", async () => {
    const set = await loaded(config([spec(), gate]));
    expect(set.sources.map((source) => source.name)).toEqual(["spec-plugin", "gate"]);
    expect(set.registry().listeners("pre-tool", "Bash").map((l) => l.plugin)).toEqual(["gate", "spec-plugin"]);
    expect(set.statuses().map((s) => [s.name, s.kind, s.health])).toEqual([
      ["spec-plugin", "in-process", "serving"],
      ["gate", "in-process", "serving"],
    ]);
  });

  it("keeps unchanged sources, reloads changed ones, and swaps the registry whole", async () => {
    const first = config([spec(), gate]);
    const set = await loaded(first);
    const before = set.registry();
    const [, keptGate] = set.sources;
    const next = config([gate, spec({ points: { "pre-tool": { priority: -1 } } })]);
    const prepared = await set.prepare(first.plugins, next);
    expect(prepared.plan).toMatchObject({ keep: ["gate"], retire: ["spec-plugin"] });
    expect(set.registry()).toBe(before); // nothing in force changes before apply
    set.apply(prepared, 0);
    expect(set.sources.map((source) => source.name)).toEqual(["gate", "spec-plugin"]);
    expect(set.sources[0]).toBe(keptGate);
    expect(set.registry()).not.toBe(before);
    expect(set.registry().listeners("pre-tool", "Bash").map((l) => l.plugin)).toEqual(["spec-plugin", "gate"]);
    // A point that started before the swap keeps the chain it started with.
    expect(before.listeners("pre-tool", "Bash").map((l) => l.plugin)).toEqual(["gate", "spec-plugin"]);
  });

  it("refuses a reload whose plugin fails to load, and keeps what is in force", async () => {
    const first = config([gate]);
    const set = await loaded(first);
    const before = set.registry();
    await expect(set.prepare(first.plugins, config([gate, { name: "broken", kind: "in-process", module: fixture("broken.mjs") }]))).rejects.toThrow(/broken at load/);
    expect(set.registry()).toBe(before);
    expect(set.sources.map((source) => source.name)).toEqual(["gate"]);
  });

  it("resolves readiness once every required plugin can answer", async () => {
    const set = await loaded(config([gate]));
    await expect(set.whenReady(() => ["gate"], AbortSignal.timeout(1_000))).resolves.toBeUndefined();
  });
});
