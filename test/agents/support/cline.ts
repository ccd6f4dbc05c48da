// Cline, headless (`cline --json "…"`), pointed at the fake model's Chat Completions API by
// `cline auth -p openai-compatible -b URL`, its hooks one executable per event in ~/.cline/hooks
// (its --hooks-dir did not reach the hub that runs them). Every run leaves Cline's hub daemon
// behind: runCline stops the one serving this run's cwd, by its PID.
import { execFileSync } from "node:child_process";
import { chmodSync, readFileSync, readdirSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { agentEnv, forwarderCommand, jsonLines, ownAgentBin, runAgent } from "./agents.js";
import type { AgentRun, HookPath } from "./agents.js";

/** The events a headless Cline task fires, all of them forwarded to hookd. */
export const CLINE_EVENTS = ["TaskStart", "PreToolUse", "PostToolUse", "TaskComplete", "TaskCancel", "TaskError", "UserPromptSubmit", "SessionShutdown"] as const;

export interface ClineRun extends AgentRun {
  /** The --json lines. */
  readonly events: Record<string, unknown>[];
}

/** The PIDs of Cline hub daemons started for `cwd` (its command line names the cwd). */
function hubsServing(cwd: string): number[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      return args.includes("--cline-hub-daemon") && args[args.indexOf("--cwd") + 1] === cwd ? [Number(entry)] : [];
    } catch {
      return []; // the process ended while we looked
    }
  });
}

export async function runCline(options: { home: string; cwd: string; modelUrl: string; path: Exclude<HookPath, "http">; hookUrl: string; prompt: string }): Promise<ClineRun> {
  const bin = ownAgentBin("cline");
  const env = agentEnv(options.home, {});
  const hooks = join(options.home, ".cline", "hooks");
  await mkdir(hooks, { recursive: true });
  for (const event of CLINE_EVENTS) {
    const file = join(hooks, event);
    await writeFile(file, `#!/bin/sh\nexec ${forwarderCommand(options.path, "cline", event, options.hookUrl)}\n`);
    chmodSync(file, 0o755);
  }
  execFileSync(bin, ["auth", "-p", "openai-compatible", "-k", "dummy", "-m", "fake", "-b", `${options.modelUrl}/v1`], { cwd: options.cwd, env, stdio: "ignore", timeout: 60_000 });
  try {
    const run = await runAgent(bin, ["--json", options.prompt], { cwd: options.cwd, env });
    return { ...run, events: jsonLines(run.stdout) };
  } finally {
    for (const pid of hubsServing(options.cwd)) process.kill(pid, "SIGTERM");
  }
}
