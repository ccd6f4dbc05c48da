// `hookd check` tells, per command hook, whether it runs in a warm interpreter or why it is
// spawned; with `warm: false` every hook is spawned and says so, with `warm.exclude` the hooks it
// names, and a malformed `warm` is a config error naming the key. The built CLI, a real hooks file.
import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../support/daemon-process.js";

let dir: string;
let hooksPath: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-warm-check-"));
  await writeFile(join(dir, "guard.py"), "import sys\nsys.exit(0)\n");
  await writeFile(join(dir, "by-shebang.py"), "#!/usr/bin/python3\nprint('{}')\n");
  await chmod(join(dir, "by-shebang.py"), 0o755);
  await writeFile(join(dir, "guard.mjs"), "process.exit(0);\n");
  const hook = (command: string) => ({ type: "command", command });
  hooksPath = join(dir, "settings.json");
  await writeFile(hooksPath, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook(`/usr/bin/python3 ${join(dir, "guard.py")}`), hook(join(dir, "by-shebang.py")), hook("echo '{}' | cat"), hook(`node ${join(dir, "guard.mjs")}`)] }] } }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function warmTable(plugin: Record<string, unknown>): Promise<unknown> {
  const configPath = join(dir, "hookd.json");
  await writeFile(configPath, JSON.stringify({ listeners: [{ unix: join(dir, "check.sock") }], plugins: [{ name: "cc", kind: "command", hooks: hooksPath, dialect: "claude-code", ...plugin }] }));
  const { stdout } = await promisify(execFile)(process.execPath, [CLI, "check", "--config", configPath, "--json"]);
  return (JSON.parse(stdout) as { tables: { warmHooks: unknown } }).tables.warmHooks;
}

/** The problems `hookd check` reports for a config it refuses (it exits 1 with its report on stdout). */
async function checkProblems(plugin: Record<string, unknown>): Promise<unknown> {
  const error = await warmTable(plugin).then(
    () => undefined,
    (failure: unknown) => failure as { stdout?: string },
  );
  return (JSON.parse(error?.stdout ?? "{}") as { problems?: unknown }).problems;
}

describe("hookd check and warm hooks", () => {
  it("shows which hooks run warm, and why the others are spawned", async () => {
    expect(await warmTable({})).toEqual([
      { plugin: "cc", hook: "PreToolUse[0].hooks[0]", runs: "warm", why: "" },
      { plugin: "cc", hook: "PreToolUse[0].hooks[1]", runs: "warm", why: "" },
      { plugin: "cc", hook: "PreToolUse[0].hooks[2]", runs: "spawn", why: "the command uses shell syntax (quotes, variables, operators or redirections)" },
      { plugin: "cc", hook: "PreToolUse[0].hooks[3]", runs: "warm", why: "" },
    ]);
  });

  it("with warm: false, every hook is spawned and says so", async () => {
    const rows = (await warmTable({ warm: false })) as { runs: string; why: string }[];
    expect(rows.map((row) => [row.runs, row.why])).toEqual([0, 1, 2, 3].map(() => ["spawn", "warm: false in the plugin's config"]));
  });

  it("with warm.exclude, the hooks an entry names are spawned and say which entry", async () => {
    const rows = (await warmTable({ warm: { exclude: ["PreToolUse[0].hooks[1]", "node */guard.mjs"] } })) as { runs: string; why: string }[];
    expect(rows.map((row) => [row.runs, row.why])).toEqual([
      ["warm", ""],
      ["spawn", 'warm.exclude lists it ("PreToolUse[0].hooks[1]")'],
      ["spawn", "the command uses shell syntax (quotes, variables, operators or redirections)"],
      ["spawn", 'warm.exclude lists it ("node */guard.mjs")'],
    ]);
  });

  it("a malformed warm setting is a config error naming the key", async () => {
    expect(await checkProblems({ warm: { exclude: [] } })).toEqual(["plugins[0].warm.exclude: exclude lists no hook (use warm: true)"]);
    expect(await checkProblems({ warm: { exlude: ["x"] } })).toEqual(["plugins[0].warm: must be true, false or { exclude: [hook ids or command globs] }, with no other key"]);
    expect(await checkProblems({ warm: { exclude: [""] } })).toEqual(["plugins[0].warm.exclude[0]: an exclude entry is empty"]);
  });
});
