// Factory Droid, headless (`droid exec --auto high -o stream-json`), pointed at the fake model's
// Chat Completions API by a BYOK custom model in its user settings (no login), hooks in the same
// settings (Claude Code's nested format).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { agentEnv, forwarderCommand, jsonLines, ownAgentBin, runAgent } from "./agents.js";
import type { AgentRun, HookPath } from "./agents.js";
import type { AgentDriver } from "./scenarios.js";

/** The events a headless `droid exec` turn fires (docs/agents/droid.md): no UserPromptSubmit. */
export const DROID_EVENTS = ["SessionStart", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"] as const;
const MATCHED = new Set(["PreToolUse", "PostToolUse"]);

/** One command hook per event, each matcher group matching everything. */
export function droidCommandHooks(commandFor: (event: string) => string, events: readonly string[] = DROID_EVENTS): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const event of events) hooks[event] = [{ ...(MATCHED.has(event) ? { matcher: "*" } : {}), hooks: [{ type: "command", command: commandFor(event), timeout: 30 }] }];
  return hooks;
}

/** hookd as Droid's hook backend through a forwarder with `--dialect droid`. */
export function droidHooks(path: Exclude<HookPath, "http">, hookdUrl: string, events: readonly string[] = DROID_EVENTS): Record<string, unknown> {
  return droidCommandHooks((event) => forwarderCommand(path, "droid", event, hookdUrl), events);
}

export interface DroidRun extends AgentRun {
  /** The stream-json lines. */
  readonly events: Record<string, unknown>[];
}

export async function runDroid(options: { home: string; cwd: string; modelUrl: string; hooks: Record<string, unknown>; prompt: string }): Promise<DroidRun> {
  const dir = join(options.home, ".factory");
  await mkdir(dir, { recursive: true });
  const model = { model: "fake", displayName: "Fake", baseUrl: `${options.modelUrl}/v1`, apiKey: "dummy", provider: "generic-chat-completion-api" };
  await writeFile(join(dir, "settings.json"), JSON.stringify({ hooks: options.hooks, customModels: [model] }));
  // --auto high: headless Droid runs no command that writes files at a lower autonomy level.
  const run = await runAgent(ownAgentBin("droid"), ["exec", "--auto", "high", "-m", "custom:Fake-0", "-o", "stream-json", options.prompt], { cwd: options.cwd, env: agentEnv(options.home, {}) });
  return { ...run, events: jsonLines(run.stdout) };
}

/**
 * Factory Droid in the shared scenarios, through both forwarders with `--dialect droid`. Measured
 * headless: `droid exec` fires no UserPromptSubmit, puts SessionStart's context in a user
 * message, merges a rewrite's updatedInput over the call's input, and ends with SessionEnd.
 */
export const droidDriver: AgentDriver = {
  name: "Factory Droid",
  dialect: "droid",
  paths: ["c-forwarder", "node-forwarder"],
  shellTool: "Execute",
  honoursRewrite: true,
  sessionContextIn: "user",
  firesSessionEnd: true,
  firesPromptSubmit: false,
  run: async ({ path, home, cwd, modelUrl, hookUrl, prompt }) => {
    if (path === "http") throw new Error("the lane drives Factory Droid's command hooks only");
    const run = await runDroid({ home, cwd, modelUrl, hooks: droidHooks(path, hookUrl), prompt });
    const last = run.events.at(-1);
    return { ...run, finished: last?.type === "completion" };
  },
};
