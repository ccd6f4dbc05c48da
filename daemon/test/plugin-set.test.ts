// The plugin set through its public entry points: load from a config, a reload that keeps
// unchanged sources and swaps the registry whole (a registry taken before keeps its chain), and a
// refused reload that leaves what is in force untouched, and a reload after a module's file
// changed that loads its new code although its config entry is the same.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { configSchema } from "../src/config/schema.js";
import type { Config } from "../src/config/schema.js";
import type { PreToolEvent } from "@hookd/sdk";
import { callListener } from "../src/engine/invoke.js";
import type { ContextFactory } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
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

  it("loads a module again when its file changed, and keeps the instance of one that did not", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-ps-"));
    try {
      // A plain spec: no imports, so the file alone decides what it answers.
      const write = (name: string, reason: string) =>
        writeFile(join(dir, `${name}.mjs`), `export default { name: "${name}", points: { "pre-tool": () => ({ kind: "deny", reason: "${reason}" }) } };\n`);
      await write("edited", "v1");
      await write("steady", "steady");
      const first = config([
        { name: "edited", kind: "in-process", module: join(dir, "edited.mjs"), points: { "pre-tool": { priority: 1 } } },
        { name: "steady", kind: "in-process", module: join(dir, "steady.mjs"), points: { "pre-tool": { priority: 2 } } },
      ]);
      const set = await loaded(first);
      const answer = async (): Promise<unknown> => {
        const [listener] = set.registry().listeners("pre-tool", "Bash") as Listener<"pre-tool">[];
        if (listener === undefined) throw new Error("no listener");
        const event: PreToolEvent = { session: { sessionId: "s", agentId: "a", cwd: "/" }, call: { callId: "c", rootCallId: "c", toolName: "Bash", arguments: {}, argumentsJson: "{}", sessionId: "s", turn: 1, step: 1 } };
        const ctx: ContextFactory<"pre-tool"> = (abort) => ({ signal: abort.signal, plugin: "t", next: () => Promise.reject(new Error("none")) });
        const result = await callListener(listener, event, ctx, { signal: new AbortController().signal });
        return result.type === "answer" ? result.answer : result;
      };
      expect(await answer()).toEqual({ kind: "deny", reason: "v1" });
      const [, steady] = set.sources;

      await write("edited", "v2");
      const prepared = await set.prepare(first.plugins, first);
      expect(prepared.plan).toMatchObject({ keep: ["steady"], retire: ["edited"] });
      expect(prepared.plan.load.map((p) => p.name)).toEqual(["edited"]);
      set.apply(prepared, 0);
      expect(await answer()).toEqual({ kind: "deny", reason: "v2" });
      expect(set.sources[1]).toBe(steady);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
