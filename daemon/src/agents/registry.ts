// The agents hookd serves, one line each. The config schema's dialect list, the CLI, the HTTP
// endpoint and the forwarders take their list from here.
import { claudeCode } from "./claude-code/index.js";
import { cline } from "./cline/index.js";
import { codex } from "./codex/index.js";
import type { AgentDialect } from "./contract.js";
import { copilotCli } from "./copilot-cli/index.js";
import { droid } from "./droid/index.js";
import { gemini } from "./gemini/index.js";
import { openCode } from "./opencode/index.js";
import { pi } from "./pi/index.js";
import { qwenCode } from "./qwen-code/index.js";

export const AGENTS: readonly AgentDialect[] = [
  claudeCode,
  codex,
  gemini,
  qwenCode,
  copilotCli,
  droid,
  cline,
  openCode,
  pi,
];

/** Every agent's name, in registry order. */
export const AGENT_NAMES = AGENTS.map((agent) => agent.name) as readonly string[] as readonly [string, ...string[]];

const BY_NAME = new Map(AGENTS.map((agent) => [agent.name, agent]));

/** The agent of that name; undefined when hookd does not serve it. */
export function agentDialect(name: string): AgentDialect | undefined {
  return BY_NAME.get(name);
}

/** The agent of a name already validated against AGENT_NAMES. */
export function knownAgent(name: string): AgentDialect {
  const agent = BY_NAME.get(name);
  if (agent === undefined) throw new Error(`no agent dialect ${JSON.stringify(name)} (expected one of ${AGENT_NAMES.join(", ")})`);
  return agent;
}
