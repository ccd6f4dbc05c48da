// `hookd init plugin` through the built CLI: for every language whose template the daemon ships
// (daemon/templates/plugin-<lang>/), scaffold a plugin into a temporary directory and run its
// generated tests as generated (TypeScript: npm install + npm test; Python: a fresh venv with
// the SDK installed from the checkout + pytest; Go: go mod tidy + go test, the SDK by its
// `replace`). The TypeScript plugin is also loaded by `hookd eval` as an in-process plugin. Then
// what init refuses: a non-empty directory (exit 1), a bad name, a missing or unknown --lang,
// anything but "plugin" (exit 2).
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, Workdir, runCli } from "./support.js";

const work = new Workdir();
afterAll(() => work.cleanup());


/** Every file under `dir` (skipping installed dependencies and build output), relative. */
function filesOf(dir: string, under = dir): string[] {
  return readdirSync(under, { withFileTypes: true }).flatMap((entry) => {
    if (["node_modules", "dist", "venv", ".venv", "__pycache__"].includes(entry.name)) return [];
    const path = join(under, entry.name);
    return entry.isDirectory() ? filesOf(dir, path) : [relative(dir, path)];
  });
}

/** Runs a command in `cwd`; rejects with its output when it fails. */
function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 600_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { cwd, env: { ...process.env, ...env }, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) resolve(`${stdout}${stderr}`);
      else reject(new Error(`${command} ${args.join(" ")} failed in ${cwd}: ${error.message}\n${stdout}\n${stderr}`));
    });
  });
}

/** Scaffolds `name` in `lang` and checks every placeholder was replaced, in names and contents. */
async function scaffold(lang: string, name: string): Promise<string> {
  const dir = work.file(`${lang}-${name}`);
  const result = await runCli(["init", "plugin", "--lang", lang, name, "--dir", dir]);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toContain(`created ${lang} plugin "${name}" in ${dir}:`);
  const template = join(ROOT, "daemon/templates", `plugin-${lang}`);
  const files = filesOf(dir);
  expect(files.length).toBe(filesOf(template).length);
  for (const file of files) {
    expect(file).not.toContain("{{");
    expect(readFileSync(join(dir, file), "utf8"), file).not.toMatch(/\{\{\s*(name|name_snake|name_pascal|sdk_path)\s*\}\}/);
  }
  return dir;
}

describe("hookd init plugin: the generated tests pass as generated", () => {
  it("ts: README, handler and test; npm install && npm test pass; hookd eval runs the built plugin", async () => {
    const dir = await scaffold("ts", "push-guard");
    expect(filesOf(dir).sort()).toEqual(["README.md", "package.json", "src/plugin.ts", "src/serve.ts", "test/plugin.test.ts", "tsconfig.json"]);
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; dependencies: Record<string, string> };
    expect(manifest.name).toBe("push-guard");
    expect(manifest.dependencies["@hookd/sdk"]).toBe(`file:${join(ROOT, "sdk")}`);
    expect(readFileSync(join(dir, "src/plugin.ts"), "utf8")).toContain('PLUGIN_NAME = "push-guard"');
    await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], dir);
    const tests = await run("npm", ["test"], dir);
    // node --test's summary: TAP (`# pass 4`) off a terminal on Node 20 and 22, the spec reporter (`ℹ pass 4`) on 24.
    expect(tests).toMatch(/^(?:#|ℹ) pass 4$/m);
    expect(tests).toMatch(/^(?:#|ℹ) fail 0$/m);

    const config = work.writeConfig({ listeners: [{ unix: work.file("unused.sock") }], plugins: [{ name: "push-guard", kind: "in-process", module: join(dir, "dist/src/plugin.js") }] }, "push-guard.yaml");
    const event = work.file("push.json");
    writeFileSync(event, JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git push -f origin main" }, tool_use_id: "t1" }));
    const result = await runCli(["eval", "--timeout-ms", "60000", "--config", config, "--dialect", "claude-code", "--json", event], {}, 180_000);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ final: { decision: "deny", decidedBy: "push-guard", reason: "push-guard: force-pushing rewrites shared history" } });
  }, 600_000);

  it("python: the generated tests pass in a venv with the checkout's SDK", async () => {
    const dir = await scaffold("python", "push-guard");
    await run("python3", ["-m", "venv", "venv"], dir);
    const pip = join(dir, "venv/bin/pip");
    await run(pip, ["install", "--quiet", join(ROOT, "sdk-python"), "pytest"], dir);
    if (existsSync(join(dir, "pyproject.toml"))) await run(pip, ["install", "--quiet", "--no-deps", "-e", "."], dir);
    expect(await run(join(dir, "venv/bin/python"), ["-m", "pytest", "-q"], dir)).toMatch(/\d+ passed/);
  }, 900_000);

  it("go: go test passes with the checkout's SDK by replace", async () => {
    const dir = await scaffold("go", "push-guard");
    const goMod = readFileSync(join(dir, "go.mod"), "utf8");
    expect(goMod).toContain(join(ROOT, "sdk-go"));
    await run("go", ["mod", "tidy"], dir);
    expect(await run("go", ["test", "./..."], dir)).toMatch(/^ok\s/m);
  }, 900_000);
});

describe("hookd init plugin: what it refuses", () => {
  it("a non-empty directory is an error (exit 1) and is left as it was", async () => {
    const dir = work.file("taken");
    mkdirSync(dir);
    writeFileSync(join(dir, "keep.txt"), "mine");
    const result = await runCli(["init", "plugin", "--lang", "ts", "taken", "--dir", dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`hookd init: ${dir} is not empty: give --dir a new or empty directory\n`);
    expect(readdirSync(dir)).toEqual(["keep.txt"]);
    // An empty one is fine.
    const empty = work.file("empty");
    mkdirSync(empty);
    expect((await runCli(["init", "plugin", "--lang", "typescript", "fine", "--dir", empty])).code).toBe(0);
    expect(statSync(join(empty, "src/plugin.ts")).isFile()).toBe(true);
  });

  it.each([
    [["init", "plugin", "--lang", "ts", "MyPlugin"], /NAME: expected kebab-case .*got "MyPlugin"/],
    [["init", "plugin", "--lang", "ts", "bad--name"], /NAME: expected kebab-case/],
    [["init", "plugin", "--lang", "ts", "9lives"], /NAME: expected kebab-case/],
    [["init", "plugin", "x"], /--lang is required/],
    [["init", "plugin", "--lang", "rust", "x"], /--lang: expected ts, python or go, got "rust"/],
    [["init", "agent", "--lang", "ts", "x"], /can create a plugin \(hookd init plugin --lang ts\|python\|go NAME\) or a policy/],
    [["init", "plugin", "--lang", "ts"], /missing NAME/],
  ])("hookd %j is a usage error (exit 2)", async (args, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/\(see hookd init --help\)\n$/);
  });
});
