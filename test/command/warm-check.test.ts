// `hookd check` tells, per command hook, whether it runs in a warm interpreter or why it is
// spawned; with `warm: false` every hook is spawned and says so. The built CLI, a real hooks file.
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
  const hook = (command: string) => ({ type: "command", command });
  hooksPath = join(dir, "settings.json");
  await writeFile(hooksPath, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook(`/usr/bin/python3 ${join(dir, "guard.py")}`), hook(join(dir, "by-shebang.py")), hook("echo '{}' | cat")] }] } }));
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

describe("hookd check and warm hooks", () => {
  it("shows which hooks run warm, and why the others are spawned", async () => {
    expect(await warmTable({})).toEqual([
      { plugin: "cc", hook: "PreToolUse[0].hooks[0]", runs: "warm", why: "" },
      { plugin: "cc", hook: "PreToolUse[0].hooks[1]", runs: "warm", why: "" },
      { plugin: "cc", hook: "PreToolUse[0].hooks[2]", runs: "spawn", why: "the command uses shell syntax (quotes, variables, operators or redirections)" },
    ]);
  });

  it("with warm: false, every hook is spawned and says so", async () => {
    const rows = (await warmTable({ warm: false })) as { runs: string; why: string }[];
    expect(rows.map((row) => [row.runs, row.why])).toEqual([0, 1, 2].map(() => ["spawn", "warm: false in the plugin's config"]));
  });
});
