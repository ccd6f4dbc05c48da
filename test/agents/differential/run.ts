// One differential scenario with a real agent: natively (the hooks file in its settings) or through
// hookd (the same file as a `kind: command` plugin, the agent's hooks pointed at hookd as its docs
// say), each with its own fake model, cwd and HOME; returns what the user would see.
import { writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { startDaemon } from "../../support/daemon-process.js";
import { startFakeModel } from "../fake-model/server.js";
import type { Script } from "../fake-model/server.js";
import { tempDir } from "../support/agents.js";
import { AGENTS } from "./agents.js";
import type { AgentName } from "./agents.js";
import { observe } from "./observation.js";
import type { Observation } from "./observation.js";

export type Mode = "native" | "hookd";

export interface Scenario {
  readonly name: string;
  readonly agent: AgentName;
  /** The corpus source its scripts come from (corpus/<source>/source.json). */
  readonly source: string;
  /** The hooks file's `hooks` object: the same settings natively and through hookd. */
  readonly hooks: () => Record<string, unknown>;
  /** Writes the project's files (a loop's state file, rule files) and any state the hooks keep in HOME. */
  readonly prepare?: (cwd: string, home: string) => void;
  readonly script: Script;
  readonly prompt: string;
  /** Claude Code's `--allowedTools`: Bash unless the scenario says otherwise (an empty list: none). */
  readonly allowedTools?: readonly string[];
  /** Claude Code's `--session-id`: for hooks whose state is keyed by the session. */
  readonly sessionId?: string;
  /** Variables for the agent and its hooks (natively the hooks inherit the agent's; through hookd, the daemon's). */
  readonly env?: (cwd: string) => NodeJS.ProcessEnv;
}

/**
 * An agent names the hook entry that answered ("Stop hook blocking error from command: <entry>"):
 * the script's command line natively, hookd's URL or forwarder through hookd. That one difference
 * is the agent's settings differing by design, so every entry reads as <hook> (docs/command-hooks.md).
 */
function hookEntries(hooks: Record<string, unknown>): Record<string, string> {
  const entries = new Set<string>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) {
      for (const [key, inner] of Object.entries(value)) {
        if ((key === "command" || key === "url") && typeof inner === "string") entries.add(inner);
        else walk(inner);
      }
    }
  };
  walk(hooks);
  return Object.fromEntries([...entries].map((entry, index) => [`hook#${index}`, entry]));
}

export async function runScenario(scenario: Scenario, mode: Mode, corpusRoot: string): Promise<Observation> {
  const agent = AGENTS[scenario.agent];
  const cwd = await tempDir(`diff-${mode}-cwd`);
  const home = await tempDir(`diff-${mode}-home`);
  scenario.prepare?.(cwd, home);
  const env = scenario.env?.(cwd) ?? {};
  const options = { home, cwd, prompt: scenario.prompt, allowedTools: scenario.allowedTools ?? ["Bash"], env, ...(scenario.sessionId === undefined ? {} : { sessionId: scenario.sessionId }) };
  const model = await startFakeModel(scenario.script);
  // Gemini CLI also names a project by its directory's base name (~/.gemini/tmp/<name>).
  const placeholders: Record<string, string> = { cwd, home, corpus: corpusRoot, "cwd-name": basename(cwd) };
  try {
    if (mode === "native") {
      const hooks = scenario.hooks();
      const view = await agent.run({ ...options, modelUrl: model.url, hooks });
      return observe(view, model, cwd, { ...placeholders, ...hookEntries(hooks) });
    }
    const dir = await tempDir("diff-hookd");
    const file = join(dir, "hooks.json");
    writeFileSync(file, JSON.stringify({ hooks: scenario.hooks() }));
    // The user runs hookd as themselves: its hooks see the HOME the agent has (hooks keep state there).
    const daemon = await startDaemon({ env: { ...env, HOME: home }, config: { http: { listen: "127.0.0.1:0" }, plugins: [{ name: "users-hooks", kind: "command", hooks: file, dialect: agent.dialect }] } });
    try {
      const url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
      const hooks = agent.throughHookd(url, scenario.hooks());
      const view = await agent.run({ ...options, modelUrl: model.url, hooks });
      return observe(view, model, cwd, { ...placeholders, ...hookEntries(hooks), "hookd-url": url, "hookd-dir": dir, "daemon-dir": daemon.dir });
    } finally {
      await daemon.stop();
    }
  } finally {
    await model.close();
  }
}
