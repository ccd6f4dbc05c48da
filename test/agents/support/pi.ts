// pi, headless (`pi --mode json --offline`, on Node 22 as it requires), pointed at the fake model's Chat Completions API
// through a provider in ~/.pi/agent/models.json (baseUrl, api openai-completions), with hookd's
// extension (integrations/pi, installed from its packed tarball) as its one `extensions` line in
// ~/.pi/agent/settings.json. Its HOME is a temp dir.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { REPO } from "../../support/daemon-process.js";
import { agentEnv, jsonLines, runAgent } from "./agents.js";
import type { AgentRun } from "./agents.js";
import { installedIntegration } from "./integrations.js";
import type { AgentDriver } from "./scenarios.js";

let binDir: string | undefined;
let node22: string | undefined;
/** pi 1.6 needs Node 22.19 or later: the Node 22 the suite's version runs use (scripts/setup-node-versions.sh). */
function node22Bin(): string {
  node22 ??= execFileSync("bash", [join(REPO, "scripts/setup-node-versions.sh")], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 }).split("\n").find((dir) => dir.includes("/22."));
  if (node22 === undefined) throw new Error("scripts/setup-node-versions.sh printed no Node 22");
  return node22;
}

/** The pinned pi, installed into its own cache directory on first use. */
export function piBin(): string {
  binDir ??= execFileSync("bash", [join(REPO, "scripts/setup-agents.sh"), "pi"], { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 900_000 }).trim();
  return join(binDir, "pi");
}

export interface PiRun extends AgentRun {
  /** The --mode json lines. */
  readonly events: Record<string, unknown>[];
}

export interface PiOptions {
  readonly home: string;
  readonly cwd: string;
  readonly modelUrl: string;
  readonly prompt: string;
  /** The extension's settings (HOOKD_TARGET, HOOKD_FAIL_OPEN, ...). */
  readonly env: NodeJS.ProcessEnv;
  /** Extension files loaded around hookd's, in order (the bench's timers); `hookd: false` leaves hookd's out. */
  readonly around?: { readonly before: readonly string[]; readonly after: readonly string[]; readonly hookd?: boolean };
}

export async function runPi(options: PiOptions): Promise<PiRun> {
  const agentDir = join(options.home, ".pi", "agent");
  await mkdir(agentDir, { recursive: true });
  const models = { providers: { fake: { name: "Fake model", baseUrl: `${options.modelUrl}/v1`, api: "openai-completions", apiKey: "dummy", models: [{ id: "fake-model", name: "Fake model" }] } } };
  await writeFile(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
  await writeFile(join(agentDir, "settings.json"), JSON.stringify({ extensions: [...(options.around?.before ?? []), ...(options.around?.hookd === false ? [] : [join(installedIntegration("pi"), "dist/index.js")]), ...(options.around?.after ?? [])] }, null, 2));
  const run = await runAgent(piBin(), ["--mode", "json", "--offline", "--no-session", "--model", "fake/fake-model", options.prompt], {
    cwd: options.cwd,
    env: agentEnv(options.home, { PI_OFFLINE: "1", PATH: `${node22Bin()}:${process.env.PATH ?? "/usr/bin:/bin"}`, ...options.env }),
  });
  return { ...run, events: jsonLines(run.stdout) };
}

/** pi in the shared scenarios through hookd's extension. */
export const piDriver: AgentDriver<"plugin"> = {
  name: "pi",
  dialect: "pi",
  paths: ["plugin"],
  shellTool: "bash",
  honoursRewrite: true,
  sessionContextIn: "user",
  firesSessionEnd: true,
  run: async ({ home, cwd, modelUrl, hookdTarget, prompt }) => {
    if (hookdTarget === undefined) throw new Error("pi's extension needs hookd's gRPC target");
    const run = await runPi({ home, cwd, modelUrl, prompt, env: { HOOKD_TARGET: hookdTarget } });
    return { ...run, finished: run.code === 0 && run.events.some((event) => event.type === "agent_end") };
  },
};
