// Qwen Code, headless (`qwen "…" -o stream-json --yolo`), pointed at the fake model's Chat
// Completions API with `--auth-type openai`, hooks in its user settings (Claude Code's nested
// format), the cwd a trusted folder, telemetry, usage statistics and update checks off.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { agentBin, agentEnv, forwarderCommand, jsonLines, runAgent } from "./agents.js";
import type { AgentRun, HookPath } from "./agents.js";
import type { AgentDriver } from "./scenarios.js";

/** The events a headless turn fires (docs/agents/qwen-code.md). */
export const QWEN_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"] as const;
/** The events whose matcher reads a field (the tool name for the tool events). */
const MATCHED = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest", "PermissionDenied", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionStart", "SessionEnd", "StopFailure", "Notification", "InstructionsLoaded", "UserPromptExpansion"]);

/** One command hook per event, each matcher group matching everything. */
export function qwenCommandHooks(commandFor: (event: string) => string, events: readonly string[] = QWEN_EVENTS): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const event of events) hooks[event] = [{ ...(MATCHED.has(event) ? { matcher: "*" } : {}), hooks: [{ type: "command", command: commandFor(event), timeout: 30 }] }];
  return hooks;
}

/** hookd as Qwen Code's hook backend through a forwarder, once the daemon knows the dialect `qwen-code`. */
export function qwenHooks(path: Exclude<HookPath, "http">, hookdUrl: string, events: readonly string[] = QWEN_EVENTS): Record<string, unknown> {
  return qwenCommandHooks((event) => forwarderCommand(path, "qwen-code", event, hookdUrl), events);
}

export interface QwenRun extends AgentRun {
  /** The stream-json lines. */
  readonly events: Record<string, unknown>[];
}

export async function runQwen(options: { home: string; cwd: string; modelUrl: string; hooks: Record<string, unknown>; prompt: string; args?: readonly string[] }): Promise<QwenRun> {
  const dir = join(options.home, ".qwen");
  await mkdir(dir, { recursive: true });
  const settings = {
    hooks: options.hooks,
    security: { folderTrust: { enabled: true } },
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false },
  };
  await writeFile(join(dir, "settings.json"), JSON.stringify(settings));
  // Project settings and hooks load only in a trusted folder: the test's cwd is trusted by name.
  await writeFile(join(dir, "trustedFolders.json"), JSON.stringify({ [options.cwd]: "TRUST_FOLDER" }));
  // Headless Qwen declines every tool that needs approval, so the lane runs it --yolo unless the
  // caller picks an approval mode itself.
  const approval = options.args?.includes("--approval-mode") === true ? [] : ["--yolo"];
  const run = await runAgent(
    agentBin("qwen"),
    [options.prompt, "-o", "stream-json", ...approval, "--auth-type", "openai", "--openai-base-url", `${options.modelUrl}/v1`, "--openai-api-key", "dummy", "-m", "qwen-fake", ...(options.args ?? [])],
    { cwd: options.cwd, env: agentEnv(options.home, { QWEN_CODE_DISABLE_PRECONNECT: "1" }) },
  );
  const events = jsonLines(run.stdout);
  return { ...run, events };
}

/**
 * Qwen Code in the shared scenarios, through both forwarders with `--dialect qwen-code` (its hooks
 * are command hooks in Claude Code's contract). Measured natively (qwen-native.test.ts): it ignores a PreToolUse updatedInput, fires
 * no SessionEnd headless, and puts SessionStart's context in the system prompt.
 */
export const qwenCodeDriver: AgentDriver = {
  name: "Qwen Code",
  dialect: "qwen-code",
  paths: ["c-forwarder", "node-forwarder"],
  shellTool: "run_shell_command",
  honoursRewrite: false,
  sessionContextIn: "system",
  firesSessionEnd: false,
  run: async ({ path, home, cwd, modelUrl, hookUrl, prompt }) => {
    if (path === "http") throw new Error("the lane drives Qwen Code's command hooks only");
    const run = await runQwen({ home, cwd, modelUrl, hooks: qwenHooks(path, hookUrl), prompt });
    const last = run.events.at(-1);
    return { ...run, finished: last?.type === "result" && last.subtype === "success" };
  },
};
