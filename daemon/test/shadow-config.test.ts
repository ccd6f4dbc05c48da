// Shadow mode in the config and the plugin set: `mode` is checked with its path, a plugin's
// listeners take its mode in the registry, and a reload that only flips the mode keeps the
// running source (a managed process is not restarted for it) while the new registry moves its
// listeners; a point that began before keeps the chain it started with. The tail's line for a
// shadow record says "would have", never "->".
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { afterEach, describe, expect, it } from "vitest";
import { pb, toProtoPoint } from "@hookd/sdk/internal";
import { recordLine } from "../src/commands/admin.js";
import { isConfigError, parseConfig } from "../src/config/load.js";
import { configSchema } from "../src/config/schema.js";
import type { Config } from "../src/config/schema.js";
import { silentLogger } from "../src/log.js";
import { PluginSet, planPlugins } from "../src/plugins/plugin-set.js";

const fixture = (name: string): string => fileURLToPath(new URL(`../../test/fixtures/plugins/${name}`, import.meta.url));

function config(plugins: readonly Record<string, unknown>[]): Config {
  return configSchema.parse({ listeners: [{ unix: "/tmp/unused.sock" }], plugins });
}

const gate = (extra: Record<string, unknown> = {}) => ({ name: "gate", kind: "in-process", module: fixture("gate.mjs"), ...extra });

const sets: PluginSet[] = [];
afterEach(async () => {
  await Promise.all(sets.splice(0).map((set) => set.close()));
});

describe("shadow mode in the config", () => {
  it("accepts enforce and shadow and names the field of anything else", () => {
    expect(config([gate({ mode: "shadow" })]).plugins[0]?.mode).toBe("shadow");
    expect(config([gate()]).plugins[0]?.mode).toBeUndefined();
    let problems: readonly string[] = [];
    try {
      parseConfig(`listeners: [{ unix: /tmp/x.sock }]\nplugins: [{ name: p, kind: in-process, module: ./p.js, mode: observe }]\n`, "t.yaml", "/etc/hookd");
    } catch (error) {
      if (!isConfigError(error)) throw error;
      problems = error.details.problems;
    }
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^plugins\[0\]\.mode: .*"enforce".*"shadow"/);
  });

  it("plans a mode-only change as a kept plugin, and any other change as a reload", () => {
    const current = config([gate()]).plugins;
    expect(planPlugins(current, config([gate({ mode: "shadow" })]).plugins)).toEqual({ keep: ["gate"], retire: [], load: [] });
    expect(planPlugins(current, config([gate({ mode: "shadow", points: { "pre-tool": { priority: 3 } } })]).plugins)).toMatchObject({ keep: [], retire: ["gate"] });
  });

  it("puts a shadow plugin's listeners apart, and a reload flips the mode on the running source", async () => {
    const set = new PluginSet({ log: silentLogger });
    sets.push(set);
    const first = config([gate({ mode: "shadow" })]);
    await set.load(first);
    const shadowRegistry = set.registry();
    expect(shadowRegistry.listeners("pre-tool", "Bash")).toEqual([]);
    expect(shadowRegistry.shadows("pre-tool", "Bash").map((l) => [l.plugin, l.mode])).toEqual([["gate", "shadow"]]);
    const [source] = set.sources;

    const next = config([gate({ mode: "enforce" })]);
    const prepared = await set.prepare(first.plugins, next);
    expect(prepared.plan).toMatchObject({ keep: ["gate"], load: [], retire: [] });
    set.apply(prepared, 0);
    expect(set.sources[0]).toBe(source);
    expect(set.registry().listeners("pre-tool", "Bash").map((l) => l.plugin)).toEqual(["gate"]);
    expect(set.registry().shadows("pre-tool", "Bash")).toEqual([]);
    // A point that started before the swap keeps its chain: gate still shadowed there.
    expect(shadowRegistry.shadows("pre-tool", "Bash").map((l) => l.plugin)).toEqual(["gate"]);

    const back = await set.prepare(next.plugins, config([gate({ mode: "shadow" })]));
    set.apply(back, 0);
    expect(set.registry().listeners("pre-tool", "Bash")).toEqual([]);
    expect(set.registry().shadows("pre-tool", "Bash").map((l) => l.plugin)).toEqual(["gate"]);
  });
});

describe("hookd tail", () => {
  it("prints a shadow record as what the plugin would have done, and an applied decision with its arrow", () => {
    const base = { time: "2026-01-01T00:00:00.000Z", agentId: "a", sessionId: "s", turn: 1, step: 1, callId: "c1", point: toProtoPoint("pre-tool"), durationUs: 1500n };
    const shadow = recordLine(create(pb.AuditRecordSchema, { ...base, kind: "shadow", plugin: "judge", decision: "deny", reason: "rm is risky", cause: "" }));
    expect(shadow).toContain("shadow     pre-tool      judge would have denied 1.5ms");
    expect(shadow).toContain('"rm is risky"');
    expect(shadow).not.toContain("->");
    const fault = recordLine(create(pb.AuditRecordSchema, { ...base, kind: "shadow", plugin: "judge", decision: "none", reason: "no answer", cause: "deadline_exceeded" }));
    expect(fault).toContain("judge would have given no answer (deadline_exceeded); no failure policy applied");
    const applied = recordLine(create(pb.AuditRecordSchema, { ...base, kind: "decision", plugin: "real", decision: "allow", reason: "", cause: "" }));
    expect(applied).toContain("real -> allow");
  });
});
