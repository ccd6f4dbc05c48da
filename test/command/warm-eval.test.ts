// `hookd eval` tells whether the event's command hooks ran warm: a Claude Code PreToolUse through
// a hooks file with a Python hook (warm) and a shell pipeline (spawned, with why), by the built
// CLI, in JSON and in its human form.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../support/daemon-process.js";

let dir: string;
let configPath: string;
const EVENT = JSON.stringify({ session_id: "cc-1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_1", cwd: "/tmp" });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-warm-eval-"));
  await writeFile(join(dir, "guard.py"), "import json, sys\njson.load(sys.stdin)\n");
  const hooks = join(dir, "settings.json");
  await writeFile(hooks, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `/usr/bin/python3 ${join(dir, "guard.py")}` }, { type: "command", command: "cat > /dev/null | true" }] }] } }));
  configPath = join(dir, "hookd.json");
  await writeFile(configPath, JSON.stringify({ listeners: [{ unix: join(dir, "eval.sock") }], plugins: [{ name: "cc", kind: "command", hooks, dialect: "claude-code" }] }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function evalHook(...args: string[]): Promise<string> {
  const child = spawn(process.execPath, [CLI, "eval", "--config", configPath, "--dialect", "claude-code", ...args, "-"], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stdin.end(EVENT);
  const [code] = (await once(child, "exit")) as [number];
  expect(code).toBe(0);
  return stdout;
}

describe("hookd eval and warm hooks", () => {
  it("reports the hooks that ran warm and those spawned, with why", async () => {
    const report = JSON.parse(await evalHook("--json")) as { warmHooks?: unknown };
    expect(report.warmHooks).toEqual([{ plugin: "cc", ranWarm: 1, spawned: { shell_syntax: 1 } }]);
    expect(await evalHook()).toContain("command hooks of cc: 1 ran warm, 1 spawned (shell syntax)\n");
  });
});
