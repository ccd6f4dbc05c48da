// OpenCode, headless (`opencode run --format json`), pointed at the fake model's Chat Completions
// API through a custom provider on its bundled @ai-sdk/openai-compatible, with hookd's plugin
// (integrations/opencode, installed from its packed tarball) as its one plugin line in
// opencode.json. Its HOME is a temp dir; autoupdate and sharing are off.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO } from "../../support/daemon-process.js";
import { agentEnv, jsonLines, runAgent } from "./agents.js";
import type { AgentRun } from "./agents.js";
import { installedIntegration } from "./integrations.js";
import type { AgentDriver } from "./scenarios.js";

let binDir: string | undefined;
/** The pinned OpenCode, installed into its own cache directory on first use. */
export function openCodeBin(): string {
  binDir ??= execFileSync("bash", [join(REPO, "scripts/setup-agents.sh"), "opencode"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 }).trim();
  return join(binDir, "opencode");
}

export interface OpenCodeRun extends AgentRun {
  /** The --format json lines. */
  readonly events: Record<string, unknown>[];
}

export interface OpenCodeOptions {
  readonly home: string;
  readonly cwd: string;
  readonly modelUrl: string;
  readonly prompt: string;
  /** The plugin's settings (HOOKD_TARGET, HOOKD_FAIL_OPEN, ...). */
  readonly env: NodeJS.ProcessEnv;
  /** Plugin files listed around hookd's, in order (the bench's timers); `hookd: false` leaves hookd's out. */
  readonly around?: { readonly before: readonly string[]; readonly after: readonly string[]; readonly hookd?: boolean };
}

export async function runOpenCode(options: OpenCodeOptions): Promise<OpenCodeRun> {
  const plugin = pathToFileURL(join(installedIntegration("opencode"), "dist/index.js")).href;
  const config = {
    $schema: "https://opencode.ai/config.json",
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake model",
        options: { baseURL: `${options.modelUrl}/v1`, apiKey: "dummy" },
        models: { "fake-model": { name: "Fake model", tool_call: true } },
      },
    },
    model: "fake/fake-model",
    small_model: "fake/fake-model",
    plugin: [...(options.around?.before ?? []).map((file) => pathToFileURL(file).href), ...(options.around?.hookd === false ? [] : [plugin]), ...(options.around?.after ?? []).map((file) => pathToFileURL(file).href)],
    permission: { bash: "allow", edit: "allow" },
    autoupdate: false,
    share: "disabled",
  };
  await writeFile(join(options.cwd, "opencode.json"), JSON.stringify(config, null, 2));
  await markPluginTypesInstalled(join(options.home, ".config", "opencode"));
  const run = await runAgent(openCodeBin(), ["run", "--format", "json", options.prompt], {
    cwd: options.cwd,
    env: agentEnv(options.home, { OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_LSP_DOWNLOAD: "true", OPENCODE_DISABLE_DEFAULT_PLUGINS: "true", OPENCODE_DISABLE_MODELS_FETCH: "true", OPENCODE_DISABLE_CLAUDE_CODE: "true", ...options.env }),
  });
  return { ...run, events: jsonLines(run.stdout) };
}

/**
 * OpenCode npm-installs @opencode-ai/plugin (the plugin types) into each config directory at
 * startup unless its node_modules exists and its package-lock lists the package: a registry fetch
 * per fresh HOME. hookd's plugin imports nothing, so the lane says it is there and runs offline.
 */
async function markPluginTypesInstalled(configDir: string): Promise<void> {
  await mkdir(join(configDir, "node_modules"), { recursive: true });
  await writeFile(join(configDir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages: { "": { dependencies: { "@opencode-ai/plugin": "*" } } } }));
}

/**
 * OpenCode in the shared scenarios through hookd's plugin. It has no stop event a plugin can
 * answer (session.idle is observed), so no stop steer; its headless run deletes no session, so
 * no session end; the plugin puts the session-start context into the first prompt.
 */
export const openCodeDriver: AgentDriver<"plugin"> = {
  name: "OpenCode",
  dialect: "opencode",
  paths: ["plugin"],
  shellTool: "bash",
  honoursRewrite: true,
  sessionContextIn: "user",
  firesSessionEnd: false,
  firesStop: false,
  run: async ({ home, cwd, modelUrl, hookdTarget, prompt }) => {
    if (hookdTarget === undefined) throw new Error("OpenCode's plugin needs hookd's gRPC target");
    const run = await runOpenCode({ home, cwd, modelUrl, prompt, env: { HOOKD_TARGET: hookdTarget } });
    return { ...run, finished: run.code === 0 && run.events.some((event) => event.type === "text") };
  },
};
