// GitHub Copilot CLI, headless (`copilot -p "…" --allow-all-tools`), pointed at the fake model's
// Chat Completions API (COPILOT_PROVIDER_BASE_URL, its default "completions" wire API), hooks in
// its user hooks file (~/.copilot/hooks/hookd.json, which `-p` always loads), the unpacked CLI
// taken from the lane's cache (COPILOT_PKG_CACHE_HOME), auto-update off. Its http hooks POST
// straight to hookd's endpoint; to a loopback URL only with COPILOT_HOOK_ALLOW_LOCALHOST=1.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO } from "../../support/daemon-process.js";
import { agentEnv, forwarderCommand, runAgent } from "./agents.js";
import type { AgentRun, HookPath } from "./agents.js";
import type { AgentDriver } from "./scenarios.js";

/** The events a headless turn fires (docs/agents/copilot-cli.md). */
export const COPILOT_EVENTS = ["sessionStart", "userPromptSubmitted", "preToolUse", "postToolUse", "agentStop", "sessionEnd"] as const;

let installed: string | undefined;
/** The directory scripts/setup-agents.sh installs Copilot CLI into (on first use). */
function copilotDir(): string {
  installed ??= execFileSync("bash", [join(REPO, "scripts/setup-agents.sh"), "copilot-cli"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 }).trim();
  return installed;
}

/** One hook per event: an http hook to hookd's endpoint, or a command hook running a forwarder. */
export function copilotHooks(path: HookPath, hookdUrl: string, events: readonly string[] = COPILOT_EVENTS): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const event of events) {
    hooks[event] = [
      path === "http"
        ? { type: "http", url: `${hookdUrl}/hooks/${event}`, headers: { "x-hookd-dialect": "copilot-cli" }, timeoutSec: 30 }
        : { type: "command", bash: forwarderCommand(path, "copilot-cli", event, hookdUrl), timeoutSec: 30 },
    ];
  }
  return { version: 1, hooks };
}

export interface CopilotRunOptions {
  readonly home: string;
  readonly cwd: string;
  readonly modelUrl: string;
  /** The user hooks file (~/.copilot/hooks/hookd.json); none when absent. */
  readonly hooks?: Record<string, unknown>;
  readonly prompt: string;
  readonly args?: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
}

export async function runCopilot(options: CopilotRunOptions): Promise<AgentRun> {
  if (options.hooks !== undefined) {
    const dir = join(options.home, ".copilot", "hooks");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "hookd.json"), JSON.stringify(options.hooks));
  }
  const installedDir = copilotDir();
  const env = agentEnv(options.home, {
    COPILOT_PKG_CACHE_HOME: join(installedDir, "pkg-cache"),
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_BASE_URL: `${options.modelUrl}/v1`,
    COPILOT_MODEL: "gpt-4.1",
    ...options.env,
  });
  return runAgent(join(installedDir, "node_modules/.bin/copilot"), ["-p", options.prompt, "--allow-all-tools", ...(options.args ?? [])], { cwd: options.cwd, env });
}

/** Copilot CLI in the shared scenarios: through its own http hooks and both forwarders. */
export const copilotCliDriver: AgentDriver = {
  name: "GitHub Copilot CLI",
  dialect: "copilot-cli",
  paths: ["http", "c-forwarder", "node-forwarder"],
  shellTool: "bash",
  honoursRewrite: true,
  sessionContextIn: "user",
  firesSessionEnd: true,
  run: async ({ path, home, cwd, modelUrl, hookUrl, prompt }) => {
    const run = await runCopilot({ home, cwd, modelUrl, hooks: copilotHooks(path, hookUrl), prompt, env: path === "http" ? { COPILOT_HOOK_ALLOW_LOCALHOST: "1" } : {} });
    // -p prints the model's answers on stdout, then its usage summary (with the session's resume line) on stderr.
    return { ...run, finished: run.code === 0 && run.stdout.trim().endsWith("DONE") && run.stderr.includes("--resume=") };
  },
};
