// The guardrail library (daemon/rules): enabled by name in a rules plugin (`include`), its
// parameters replaced by the plugin's `params`, an unknown builtin or parameter a config error
// naming the key, and every builtin rule documented in docs/guardrails.md.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { events } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import { parseConfig } from "../src/config/load.js";
import { loadRuleSet } from "../src/plugins/rules/compile.js";
import { evaluateRules } from "../src/plugins/rules/evaluate.js";
import { builtinFile, builtinNames } from "../src/plugins/rules/library.js";
import { readRuleFile } from "../src/plugins/rules/rule-file.js";
import { rulesSource } from "../src/plugins/rules/source.js";

const session = { cwd: "/home/dev/project", agentId: "claude-code" };
const library = (params: Record<string, string | string[]> = {}) =>
  loadRuleSet([], "plugins.guard.rules", { include: builtinNames().map((name) => `builtin:${name}`), params, plugin: "plugins.guard" });
const loadError = (load: () => unknown): string => {
  try {
    load();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("it loaded");
};

describe("the guardrail library by name", () => {
  it("ships the five builtins, every one loading", () => {
    expect(builtinNames()).toEqual(["destructive-shell", "download-exec", "git-safety", "protected-paths", "secrets"]);
    expect(library().rules.length).toBeGreaterThan(10);
  });

  it("a rules plugin with only include decides with the builtins", () => {
    const config = parseConfig(JSON.stringify({ listeners: [{ unix: "x.sock" }], plugins: [{ name: "guard", kind: "rules", include: ["builtin:git-safety"] }] }), "hookd.yaml", "/tmp");
    const plugin = config.plugins[0];
    if (plugin?.kind !== "rules") throw new Error("not a rules plugin");
    const source = rulesSource(plugin, 2_000);
    expect(source.rules.map((rule) => rule.id)).toContain("git-safety.force-push-protected");
  });

  it("an unknown builtin is a config error naming the key and the library", () => {
    const message = loadError(() => loadRuleSet([], "plugins.guard.rules", { include: ["builtin:destructive-shell", "builtin:nope"], plugin: "plugins.guard" }));
    expect(message).toMatch(/^plugins\.guard\.include\[1\]: unknown builtin "builtin:nope"; the library has builtin:destructive-shell, /);
  });

  it("an entry without the builtin: prefix is refused too (it is not a file path)", () => {
    expect(loadError(() => loadRuleSet([], "plugins.guard.rules", { include: ["git-safety"], plugin: "plugins.guard" }))).toMatch(/include\[0\]: unknown builtin "git-safety"/);
  });

  it("a rules plugin with neither rules nor include is a config error", () => {
    expect(() => parseConfig(JSON.stringify({ listeners: [{ unix: "x.sock" }], plugins: [{ name: "guard", kind: "rules" }] }), "hookd.yaml", "/tmp")).toThrow(/plugins\.0\.rules.*rule files \(rules\) or builtins \(include\)|rules: a rules plugin needs/);
  });
});

describe("parameters", () => {
  const writeEnv = events.preTool("Write", { file_path: "/home/dev/project/secrets/prod.yaml", content: "" }, { session });

  it("the plugin's params replace a builtin's default list", () => {
    expect(evaluateRules(library(), "pre-tool", writeEnv, "guard")).toBeUndefined();
    const verdict = evaluateRules(library({ protected_paths: ["secrets/**"] }), "pre-tool", writeEnv, "guard");
    expect(verdict?.ruleId).toBe("protected-paths.write");
    expect(verdict?.values).toMatchObject({ "params.protected_paths": ["secrets/**"] });
  });

  it("protected branches are configurable", () => {
    const push = events.preTool("Bash", { command: "git push -f origin trunk" }, { session });
    expect(evaluateRules(library(), "pre-tool", push, "guard")?.ruleId).toBe("git-safety.force-push");
    expect(evaluateRules(library({ protected_branches: ["trunk"] }), "pre-tool", push, "guard")?.ruleId).toBe("git-safety.force-push-protected");
  });

  it("a value for a parameter no file declares is a config error naming the key", () => {
    expect(loadError(() => library({ protected_path: [".env"] }))).toMatch(/^plugins\.guard\.params\.protected_path: no rule file of the plugin declares this parameter; declared: .*protected_paths/);
  });

  it("a value of another type than the default's is a config error", () => {
    expect(loadError(() => library({ protected_paths: ".env" }))).toMatch(/^plugins\.guard\.params\.protected_paths: expected a list of strings/);
  });

  it("a rule file's own params are read as params.<name>, and reading an undeclared one is a config error naming the column", () => {
    const dir = mkdtempSync(join(tmpdir(), "hookd-params-"));
    const file = join(dir, "mine.yaml");
    writeFileSync(file, 'params:\n  blocked: [deploy]\nrules:\n  - id: no-blocked\n    tools: [kind:shell]\n    when: shell.commands(call.command).exists(c, c[0] in params.blockd)\n    decision: deny\n    message: no\n');
    expect(loadError(() => loadRuleSet([file], "plugins.mine.rules"))).toMatch(/rules\[0\] \(id "no-blocked"\)\.when: column \d+: .*blockd/);
  });
});

describe("docs/guardrails.md", () => {
  const doc = readFileSync(new URL("../../docs/guardrails.md", import.meta.url), "utf8");

  it.each(builtinNames())("documents builtin:%s, each of its rules and each of its parameters", (name) => {
    const file = readRuleFile(builtinFile(name));
    expect(doc).toContain(`## \`builtin:${name}\``);
    const section = doc.split(`## \`builtin:${name}\``)[1]?.split("\n## ")[0] ?? "";
    for (const { rule } of file.rules) expect(section, `rule ${rule.id}`).toContain(`\`${rule.id}\``);
    for (const param of Object.keys(file.params)) expect(section, `parameter ${param}`).toContain(`\`${param}\``);
  });

  it("documents no rule the library does not have", () => {
    const ids = new Set(builtinNames().flatMap((name) => readRuleFile(builtinFile(name)).rules.map(({ rule }) => rule.id)));
    const documented = [...doc.matchAll(/^\| `([a-z-]+\.[a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(documented.filter((id) => id !== undefined && !ids.has(id))).toEqual([]);
  });
});
