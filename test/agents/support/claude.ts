// Claude Code, headless (`claude -p … --output-format stream-json --verbose`), pointed at the fake
// model, with hookd as its hook backend through one path. SessionStart (and Setup) never take an
// http hook in Claude Code, so the http path uses the C forwarder there, as the snippets do.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { agentBin, agentEnv, forwarderCommand, jsonLines, runAgent } from "./agents.js";
import type { AgentRun, HookPath } from "./agents.js";
import type { AgentDriver } from "./scenarios.js";
import { concrete, documentedHooks } from "./snippets.js";

export const CLAUDE_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStart", "SubagentStop", "SessionEnd"] as const;
const NO_HTTP = new Set(["SessionStart", "Setup"]);
const MATCHED = new Set(["PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "SubagentStart", "SubagentStop"]);

export function claudeHooks(path: HookPath, hookdUrl: string, events: readonly string[] = CLAUDE_EVENTS): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const event of events) {
    const handler =
      path === "http" && !NO_HTTP.has(event)
        ? { type: "http", url: `${hookdUrl}/hooks/${event}`, timeout: 30 }
        : { type: "command", command: forwarderCommand(path === "http" ? "c-forwarder" : path, "claude-code", event, hookdUrl), timeout: 30 };
    hooks[event] = [{ ...(MATCHED.has(event) ? { matcher: "*" } : {}), hooks: [handler] }];
  }
  return hooks;
}

export interface ClaudeRun extends AgentRun {
  /** The stream-json lines. */
  readonly events: Record<string, unknown>[];
}

export async function runClaude(options: {
  home: string;
  cwd: string;
  modelUrl: string;
  hooks: Record<string, unknown>;
  prompt: string;
  args?: readonly string[];
  env?: NodeJS.ProcessEnv;
}): Promise<ClaudeRun> {
  const settings = join(options.home, "hookd-settings.json");
  await writeFile(settings, JSON.stringify({ hooks: options.hooks }));
  const run = await runAgent(
    agentBin("claude"),
    ["-p", options.prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events", "--settings", settings, "--model", "claude-sonnet-4-5", ...(options.args ?? [])],
    {
      cwd: options.cwd,
      env: agentEnv(options.home, {
        ANTHROPIC_BASE_URL: options.modelUrl,
        ANTHROPIC_API_KEY: "dummy",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_ERROR_REPORTING: "1",
        ...options.env,
      }),
    },
  );
  const events = jsonLines(run.stdout);
  return { ...run, events };
}

/** Claude Code in the shared scenarios: through its own http hooks and both forwarders. */
export const claudeCodeDriver: AgentDriver = {
  name: "Claude Code",
  dialect: "claude-code",
  paths: ["http", "c-forwarder", "node-forwarder"],
  shellTool: "Bash",
  honoursRewrite: true,
  sessionContextIn: "user",
  firesSessionEnd: true,
  run: async ({ path, home, cwd, modelUrl, hookUrl, prompt }) => {
    // The http path runs the README's snippet as documented (SessionStart through the C forwarder).
    const hooks = path === "http" ? concrete(documentedHooks("claude-code-http"), "c-forwarder", hookUrl) : claudeHooks(path, hookUrl);
    const run = await runClaude({ home, cwd, modelUrl, hooks, prompt, args: ["--allowedTools", "Bash"] });
    const last = run.events.at(-1);
    return { ...run, finished: last?.type === "result" && last.subtype === "success" };
  },
};
