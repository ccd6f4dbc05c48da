// Codex, headless (`codex exec --json`), pointed at the fake model through a custom model
// provider (Responses wire API), with hookd as its hook backend through a forwarder (Codex runs
// command hooks only). Its features that reach the internet at start are off. Headless Codex
// skips untrusted hooks silently, so the run passes --dangerously-bypass-hook-trust.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { agentBin, agentEnv, forwarderCommand, jsonLines, runAgent } from "./agents.js";
import type { AgentRun, HookPath } from "./agents.js";
import type { AgentDriver } from "./scenarios.js";
import { concrete, documentedHooks } from "./snippets.js";

export const CODEX_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "Stop"] as const;
/** Every event Codex 0.171 has (docs/agent-events.md). */
export const CODEX_ALL_EVENTS = [...CODEX_EVENTS, "SessionEnd", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Interrupt"] as const;
const MATCHED = new Set(["PreToolUse", "PermissionRequest", "PostToolUse"]);

export function codexHooks(path: Exclude<HookPath, "http">, hookdUrl: string, events: readonly string[] = CODEX_EVENTS): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const event of events) {
    hooks[event] = [{ ...(MATCHED.has(event) ? { matcher: ".*" } : {}), hooks: [{ type: "command", command: forwarderCommand(path, "codex", event, hookdUrl), timeout: 30 }] }];
  }
  return hooks;
}

export function codexConfig(modelUrl: string): string {
  return [
    'model = "gpt-fake"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    "[model_providers.fake]",
    'name = "fake"',
    `base_url = "${modelUrl}/v1"`,
    'wire_api = "responses"',
    'env_key = "FAKE_MODEL_API_KEY"',
    "[features]",
    "plugins = false",
    "remote_plugin = false",
    "apps = false",
    "in_app_updates = false",
    "",
  ].join("\n");
}

export function codexEnv(home: string): NodeJS.ProcessEnv {
  return agentEnv(home, { CODEX_HOME: join(home, ".codex"), FAKE_MODEL_API_KEY: "dummy", RUST_LOG: "warn" });
}

export async function runCodex(options: {
  home: string;
  cwd: string;
  modelUrl: string;
  hooks: Record<string, unknown>;
  prompt: string;
  trust?: boolean;
  args?: readonly string[];
  interruptWhen?: (stdout: string) => boolean;
}): Promise<AgentRun & { readonly events: Record<string, unknown>[] }> {
  const codexHome = join(options.home, ".codex");
  await mkdir(codexHome, { recursive: true });
  // Kept when present: it holds the hook trust a test may have recorded between runs.
  if (!existsSync(join(codexHome, "config.toml"))) await writeFile(join(codexHome, "config.toml"), codexConfig(options.modelUrl));
  await writeFile(join(codexHome, "hooks.json"), JSON.stringify({ hooks: options.hooks }));
  const run = await runAgent(
    agentBin("codex"),
    ["exec", "--json", "--skip-git-repo-check", "--ephemeral", ...(options.trust === false ? [] : ["--dangerously-bypass-hook-trust"]), ...(options.args ?? []), options.prompt],
    { cwd: options.cwd, env: codexEnv(options.home), ...(options.interruptWhen === undefined ? {} : { interruptWhen: options.interruptWhen }) },
  );
  const events = jsonLines(run.stdout);
  return { ...run, events };
}

/** Codex in the shared scenarios: command hooks only, so both forwarders, each running the README's snippet as documented. */
export const codexDriver: AgentDriver = {
  name: "Codex",
  dialect: "codex",
  paths: ["c-forwarder", "node-forwarder"],
  shellTool: "Bash",
  honoursRewrite: true,
  sessionContextIn: "user",
  firesSessionEnd: true,
  run: async ({ path, home, cwd, modelUrl, hookUrl, prompt }) => {
    if (path === "http") throw new Error("Codex has no http hooks");
    const run = await runCodex({ home, cwd, modelUrl, hooks: concrete(documentedHooks("codex"), path, hookUrl), prompt });
    return { ...run, finished: run.events.some((e) => e.type === "turn.completed") };
  },
};
