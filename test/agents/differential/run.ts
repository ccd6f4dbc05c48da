// One differential scenario with the real Claude Code: natively (the hooks file in its settings) or
// through hookd (the same file as a `kind: command` plugin, Claude Code's hooks pointed at hookd as
// the README says), each with its own fake model, cwd and HOME; returns what the user would see.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { startDaemon } from "../../support/daemon-process.js";
import { startFakeModel } from "../fake-model/server.js";
import type { Script } from "../fake-model/server.js";
import { tempDir } from "../support/agents.js";
import { claudeHooks, runClaude } from "../support/claude.js";
import { concrete, documentedHooks } from "../support/snippets.js";
import { observe } from "./observation.js";
import type { Observation } from "./observation.js";

export type Mode = "native" | "hookd";

export interface Scenario {
  readonly name: string;
  readonly agent: "Claude Code";
  /** The corpus source its scripts come from (corpus/<source>/source.json). */
  readonly source: string;
  /** The hooks file's `hooks` object: the same settings natively and through hookd. */
  readonly hooks: () => Record<string, unknown>;
  /** Writes the project's files (a loop's state file, rule files) and any state the hooks keep in HOME. */
  readonly prepare?: (cwd: string, home: string) => void;
  /** `--session-id`: for hooks whose state is keyed by the session. */
  readonly sessionId?: string;
  readonly script: Script;
  readonly prompt: string;
  /** `--allowedTools`; Bash unless the scenario says otherwise (an empty list: none). */
  readonly allowedTools?: readonly string[];
  /** Variables for the agent and its hooks (natively the hooks inherit the agent's; through hookd, the daemon's). */
  readonly env?: (cwd: string) => NodeJS.ProcessEnv;
}

/**
 * Claude Code names the hook entry that answered ("Stop hook blocking error from command: <entry>"):
 * the script's command line natively, hookd's URL through hookd. That one difference is the
 * agent's settings differing by design, so every entry reads as <hook> (docs/command-hooks.md).
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
  const cwd = await tempDir(`diff-${mode}-cwd`);
  const home = await tempDir(`diff-${mode}-home`);
  scenario.prepare?.(cwd, home);
  const allowed = scenario.allowedTools ?? ["Bash"];
  const args = [...(allowed.length > 0 ? ["--allowedTools", allowed.join(",")] : []), ...(scenario.sessionId === undefined ? [] : ["--session-id", scenario.sessionId])];
  const env = scenario.env?.(cwd) ?? {};
  const model = await startFakeModel(scenario.script);
  const placeholders: Record<string, string> = { cwd, home, corpus: corpusRoot };
  try {
    if (mode === "native") {
      const hooks = scenario.hooks();
      const run = await runClaude({ home, cwd, modelUrl: model.url, hooks, prompt: scenario.prompt, args, env });
      return observe(run, model, cwd, { ...placeholders, ...hookEntries(hooks) });
    }
    const dir = await tempDir("diff-hookd");
    const file = join(dir, "settings.json");
    writeFileSync(file, JSON.stringify({ hooks: scenario.hooks() }));
    // The user runs hookd as themselves: its hooks see the HOME the agent has (hooks keep state there).
    const daemon = await startDaemon({ env: { ...env, HOME: home }, config: { http: { listen: "127.0.0.1:0" }, plugins: [{ name: "users-hooks", kind: "command", hooks: file, dialect: "claude-code" }] } });
    try {
      const url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
      // The README's snippet, as a new user pastes it (SessionStart through the C forwarder), plus
      // the events the hooks file has that the snippet lacks (docs/command-hooks.md: agent-event).
      const documented = concrete(documentedHooks("claude-code-http"), "c-forwarder", url);
      const hooks = { ...claudeHooks("http", url, Object.keys(scenario.hooks()).filter((event) => !(event in documented))), ...documented };
      const run = await runClaude({ home, cwd, modelUrl: model.url, hooks, prompt: scenario.prompt, args, env });
      return observe(run, model, cwd, { ...placeholders, ...hookEntries(hooks), "hookd-url": url, "hookd-dir": dir, "daemon-dir": daemon.dir });
    } finally {
      await daemon.stop();
    }
  } finally {
    await model.close();
  }
}
