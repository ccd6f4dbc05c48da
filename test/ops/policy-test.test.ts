// `hookd test`, `hookd rules list` and `hookd init policy` as a user runs them (the built CLI):
// the builtin library's own cases all pass; a broken rule makes its cases fail (exit 1, the
// failing cases named); a user's test file against their config, with an agent's own hook JSON;
// bad test files refused with the key; a scaffolded policy passes its own tests.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { ROOT, Workdir, runCli } from "./support.js";

const work = new Workdir();
afterAll(() => work.cleanup());

const LIBRARY = join(ROOT, "daemon/rules");

interface CaseJson {
  file: string;
  name: string;
  ok: boolean;
  got: { decision: string; rule: string; reason: string };
  problems: string[];
}
interface TestJson {
  ok: boolean;
  passed: number;
  failed: number;
  cases: CaseJson[];
  error?: string;
}

const testJson = (stdout: string): TestJson => JSON.parse(stdout) as TestJson;

describe("hookd test over the builtin library", () => {
  it("every case of every builtin passes, bypass attempts included", async () => {
    const result = await runCli(["test", "--library", "--json"]);
    const report = testJson(result.stdout);
    expect(report.cases.filter((c) => !c.ok)).toEqual([]);
    expect(result.code).toBe(0);
    const files = new Set(report.cases.map((c) => c.file.split("/").at(-1)));
    expect([...files].sort()).toEqual(["destructive-shell.test.yaml", "download-exec.test.yaml", "git-safety.test.yaml", "protected-paths.test.yaml", "secrets.test.yaml"]);
    expect(report.cases.filter((c) => c.name.startsWith("bypass:")).length).toBeGreaterThanOrEqual(25);
  });

  it("prints a table and the count", async () => {
    const result = await runCli(["test", "--library"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^RESULT\s+FILE\s+CASE\s+DECISION\s+RULE\n/);
    expect(result.stdout).toMatch(/ok\s+destructive-shell\.test\.yaml\s+bypass: \\rm\s+deny\s+destructive-shell\.rm-root-or-home/);
    expect(result.stdout).toMatch(/\n\d+ passed, 0 failed\n$/);
  });

  it("a broken rule makes its cases fail: the library's cases catch a mutation", async () => {
    // The rule file with rm's recursive flag check broken, tested by the library's own cases.
    const mutant = readFileSync(join(LIBRARY, "destructive-shell.yaml"), "utf8").replaceAll('a == "--recursive" || (a.matches', 'a == "--recursive" && (a.matches');
    expect(mutant).not.toBe(readFileSync(join(LIBRARY, "destructive-shell.yaml"), "utf8"));
    writeFileSync(work.file("destructive-shell.yaml"), mutant);
    const cases = parse(readFileSync(join(LIBRARY, "destructive-shell.test.yaml"), "utf8")) as Record<string, unknown>;
    delete cases.include;
    writeFileSync(work.file("mutant.test.yaml"), stringify({ ...cases, rules: ["./destructive-shell.yaml"] }));

    const result = await runCli(["test", "--json", work.file("mutant.test.yaml")]);
    expect(result.code).toBe(1);
    const report = testJson(result.stdout);
    expect(report.ok).toBe(false);
    const failed = report.cases.filter((c) => !c.ok).map((c) => c.name);
    expect(failed).toEqual(expect.arrayContaining(["rm -rf / is denied", "bypass: \\rm", "bypass: xargs rm (targets unknown)"]));
    expect(report.cases.find((c) => c.name === "rm -rf / is denied")?.problems).toEqual(expect.arrayContaining(["decision: expected deny, got allow", "rule: expected destructive-shell.rm-root-or-home, got none"]));
  });
});

describe("hookd test over a user's own policy", () => {
  const config = (): string => {
    copyFileSync(join(LIBRARY, "protected-paths.yaml"), work.file("mine.yaml"));
    return work.writeConfig({ listeners: [{ unix: work.file("hookd.sock") }], plugins: [{ name: "guardrails", kind: "rules", include: ["builtin:git-safety"], params: { protected_branches: ["trunk"] } }] }, "user.yaml");
  };

  it("runs its cases against the config it names, an agent's own hook JSON among them, and fails (exit 1) on a wrong expectation", async () => {
    config();
    writeFileSync(
      work.file("user.test.yaml"),
      stringify({
        config: "./user.yaml",
        session: { agent: "claude-code", cwd: "/home/dev/project" },
        cases: [
          { name: "force push to trunk", tool: "Bash", arguments: { command: "git push -f origin trunk" }, expect: { decision: "deny", rule: "git-safety.force-push-protected", reason: "protected branch" } },
          {
            name: "codex's own hook JSON",
            dialect: "codex",
            payload: { session_id: "s1", cwd: "/home/dev/project", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git push --force origin trunk" } },
            expect: { decision: "deny", rule: "git-safety.force-push-protected" },
          },
          { name: "a wrong expectation", tool: "Bash", arguments: { command: "git push -f origin main" }, expect: { decision: "deny", reason: "nope" } },
        ],
      }),
    );
    const result = await runCli(["test", work.file("user.test.yaml")]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/ok\s+\S+user\.test\.yaml\s+force push to trunk\s+deny\s+git-safety\.force-push-protected/);
    expect(result.stdout).toMatch(/ok\s+\S+user\.test\.yaml\s+codex's own hook JSON\s+deny/);
    expect(result.stdout).toContain("FAIL");
    expect(result.stdout).toContain("  decision: expected deny, got ask\n");
    expect(result.stdout).toContain('  reason: "git-safety: this force push rewrites the remote\'s history; allow it?" does not match /nope/\n');
    expect(result.stdout).toMatch(/2 passed, 1 failed\n$/);
  });

  it("--config replaces the config the file names", async () => {
    writeFileSync(work.file("other.yaml"), stringify({ listeners: [{ unix: work.file("hookd.sock") }], plugins: [{ name: "mine", kind: "rules", rules: "./mine.yaml" }] }));
    copyFileSync(join(LIBRARY, "protected-paths.yaml"), work.file("mine.yaml"));
    writeFileSync(work.file("env.test.yaml"), stringify({ config: "./missing.yaml", session: { cwd: "/p" }, cases: [{ name: "env write", tool: "Write", arguments: { file_path: ".env", content: "" }, expect: { decision: "deny", rule: "protected-paths.write" } }] }));
    const result = await runCli(["test", "--config", work.file("other.yaml"), work.file("env.test.yaml")]);
    expect(result.stdout).toMatch(/1 passed, 0 failed/);
    expect(result.code).toBe(0);
  });

  it.each([
    ["two events in one case", { include: ["builtin:secrets"], cases: [{ name: "x", tool: "Bash", prompt: "hi", expect: { decision: "deny" } }] }, /cases\.0: give exactly one of tool \(with arguments\), prompt, event or payload/],
    ["no expectation", { include: ["builtin:secrets"], cases: [{ name: "x", prompt: "hi" }] }, /cases\.0\.expect: /],
    ["an unknown builtin", { include: ["builtin:nope"], cases: [{ name: "x", prompt: "hi", expect: { decision: "enter" } }] }, /include\[0\]: unknown builtin "builtin:nope"/],
    ["nothing to test", { cases: [{ name: "x", prompt: "hi", expect: { decision: "enter" } }] }, /name what to test: config, rules or include/],
    ["an unknown dialect", { include: ["builtin:secrets"], cases: [{ name: "x", dialect: "vim", payload: {}, expect: { decision: "enter" } }] }, /cases\[0\]\.dialect: expected one of claude-code, /],
  ])("a test file with %s is refused with the key (exit 1)", async (_, file, message) => {
    writeFileSync(work.file("bad.test.yaml"), stringify(file));
    const result = await runCli(["test", work.file("bad.test.yaml")]);
    expect(result.stderr).toMatch(message);
    expect(result.code).toBe(1);
  });

  it("needs a path or --library (a usage error, exit 2)", async () => {
    const result = await runCli(["test"]);
    expect(result.stderr).toMatch(/give a test file or directory, or --library/);
    expect(result.code).toBe(2);
  });
});

describe("hookd rules list and hookd init policy", () => {
  it("lists every builtin rule, and with a config its rules plugins' rules", async () => {
    const result = await runCli(["rules", "list", "--json", "--config", work.writeConfig({ listeners: [{ unix: work.file("hookd.sock") }], plugins: [{ name: "guardrails", kind: "rules", include: ["builtin:secrets"] }] }, "list.yaml")]);
    expect(result.code).toBe(0);
    const { rules } = JSON.parse(result.stdout) as { rules: { source: string; id: string; point: string; decision: string }[] };
    expect(rules).toContainEqual(expect.objectContaining({ source: "builtin:destructive-shell", id: "destructive-shell.fork-bomb", point: "pre-tool", decision: "deny" }));
    expect(rules).toContainEqual(expect.objectContaining({ source: "guardrails", id: "secrets.in-tool-output", point: "post-tool", decision: "block" }));
  });

  it("scaffolds a rule file with its tests, which pass, and never overwrites them", async () => {
    const created = await runCli(["init", "policy", "infra-guard", "--dir", work.file("policies")]);
    expect(created.code).toBe(0);
    expect(created.stdout).toContain("infra-guard.yaml");
    const tested = await runCli(["test", "--json", work.file("policies")]);
    const report = testJson(tested.stdout);
    expect(report.cases.filter((c) => !c.ok)).toEqual([]);
    expect(report.passed).toBe(5);
    expect(tested.code).toBe(0);
    const again = await runCli(["init", "policy", "infra-guard", "--dir", work.file("policies")]);
    expect(again.stderr).toMatch(/infra-guard\.(test\.)?yaml exists/);
    expect(again.code).toBe(1);
  });
});
