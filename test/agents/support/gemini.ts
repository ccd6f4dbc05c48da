// Gemini CLI, headless (`gemini -p … -o stream-json --yolo`), pointed at the fake model through
// GOOGLE_GEMINI_BASE_URL with an API key, hooks in its user settings (command hooks only).
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { agentBin, agentEnv, forwarderCommand, jsonLines, runAgent } from "./agents.js";
import type { AgentRun, HookPath } from "./agents.js";
import type { AgentDriver } from "./scenarios.js";

export const GEMINI_EVENTS = ["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"] as const;
/** Every event Gemini CLI 0.61 has (docs/agent-events.md). */
export const GEMINI_ALL_EVENTS = [...GEMINI_EVENTS, "BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress", "Notification"] as const;

/** hookd as Gemini's hook backend: each event through a forwarder (Gemini has no http hooks). */
export function geminiHooks(path: Exclude<HookPath, "http">, hookdUrl: string, events: readonly string[] = GEMINI_EVENTS): Record<string, unknown> {
  const hooks: Record<string, unknown> = {};
  for (const event of events) hooks[event] = [{ hooks: [{ type: "command", command: forwarderCommand(path, "gemini", event, hookdUrl), timeout: 60_000 }] }];
  return hooks;
}

export async function runGemini(options: { home: string; cwd: string; modelUrl: string; hooks: Record<string, unknown>; prompt: string; signal?: AbortSignal }): Promise<AgentRun & { readonly events: Record<string, unknown>[] }> {
  const dir = join(options.home, ".gemini");
  await mkdir(dir, { recursive: true });
  const settings = {
    hooksConfig: { enabled: true },
    hooks: options.hooks,
    security: { auth: { selectedType: "gemini-api-key" } },
    telemetry: { enabled: false },
    privacy: { usageStatisticsEnabled: false },
    general: { disableAutoUpdate: true, disableUpdateNag: true },
  };
  await writeFile(join(dir, "settings.json"), JSON.stringify(settings));
  const run = await runAgent(agentBin("gemini"), ["-p", options.prompt, "-o", "stream-json", "--yolo", "--skip-trust", "-m", "gemini-2.5-flash"], {
    cwd: options.cwd,
    env: agentEnv(options.home, { GEMINI_API_KEY: "dummy", GOOGLE_GEMINI_BASE_URL: options.modelUrl, GEMINI_CLI_TRUST_WORKSPACE: "true" }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  const events = jsonLines(run.stdout);
  return { ...run, events };
}

/** Gemini CLI in the shared scenarios: command hooks only (`--dialect gemini`), so both forwarders. */
export const geminiDriver: AgentDriver = {
  name: "Gemini CLI",
  dialect: "gemini",
  paths: ["c-forwarder", "node-forwarder"],
  shellTool: "run_shell_command",
  honoursRewrite: true,
  sessionContextIn: "user",
  firesSessionEnd: true,
  run: async ({ path, home, cwd, modelUrl, hookUrl, prompt }) => {
    if (path === "http") throw new Error("Gemini CLI has no http hooks");
    const run = await runGemini({ home, cwd, modelUrl, hooks: geminiHooks(path, hookUrl), prompt });
    const last = run.events.at(-1);
    return { ...run, finished: last?.type === "result" && last.status === "success" };
  },
};
