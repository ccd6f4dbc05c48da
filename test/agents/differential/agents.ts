// Each agent of the differential lane: how it runs a hooks file natively, the settings that point
// it at hookd instead (as its README snippet or docs say), and what of its output the user sees:
// the final result and the hook messages it shows.
import { forwarderCommand } from "../support/agents.js";
import type { Dialect } from "../support/agents.js";
import { claudeHooks, runClaude } from "../support/claude.js";
import { runCodex } from "../support/codex.js";
import { geminiHooks, runGemini } from "../support/gemini.js";
import { concrete, documentedHooks } from "../support/snippets.js";

export type AgentName = "Claude Code" | "Gemini CLI" | "Codex";

export interface AgentRunOptions {
  readonly home: string;
  readonly cwd: string;
  readonly modelUrl: string;
  readonly hooks: Record<string, unknown>;
  readonly prompt: string;
  readonly allowedTools: readonly string[];
  readonly sessionId?: string;
  readonly env: NodeJS.ProcessEnv;
}

export interface UserView {
  readonly code: number | null;
  /** The final result as the agent reports it: its outcome ("success" / "completed" when the turn ended normally) and its last answer. */
  readonly result: string;
  /** Hook messages the agent showed the user (a hook's systemMessage, notices). */
  readonly userMessages: readonly string[];
}

export interface DifferentialAgent {
  readonly dialect: Dialect;
  run(options: AgentRunOptions): Promise<UserView>;
  /** The agent's hook settings that send `fileHooks`' events to hookd at `url`. */
  throughHookd(url: string, fileHooks: Record<string, unknown>): Record<string, unknown>;
}

const text = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

function noEnv(agent: AgentName, options: AgentRunOptions): void {
  if (Object.keys(options.env).length > 0 || options.sessionId !== undefined || options.allowedTools.join(",") !== "Bash") {
    throw new Error(`the differential lane runs ${agent} with its own defaults: a scenario's env, sessionId and allowedTools are for Claude Code only`);
  }
}

const claudeCode: DifferentialAgent = {
  dialect: "claude-code",
  async run(options) {
    const args = [...(options.allowedTools.length > 0 ? ["--allowedTools", options.allowedTools.join(",")] : []), ...(options.sessionId === undefined ? [] : ["--session-id", options.sessionId])];
    const run = await runClaude({ home: options.home, cwd: options.cwd, modelUrl: options.modelUrl, hooks: options.hooks, prompt: options.prompt, args, env: options.env });
    const result = run.events.findLast((event) => event.type === "result");
    const userMessages = run.events.flatMap((event) => {
      if (event.type !== "system") return [];
      if (event.subtype === "informational" && typeof event.content === "string") return [event.content];
      if (event.subtype === "notification" && typeof event.text === "string") return [event.text];
      return [];
    });
    return { code: run.code, result: result === undefined ? "<no result>" : `${text(result.subtype)} is_error=${text(result.is_error)}: ${text(result.result)}`, userMessages };
  },
  throughHookd(url, fileHooks) {
    // The README's snippet (SessionStart through the C forwarder), plus the events the hooks file
    // has that the snippet lacks (docs/command-hooks.md: agent-event).
    const documented = concrete(documentedHooks("claude-code-http"), "c-forwarder", url);
    return { ...claudeHooks("http", url, Object.keys(fileHooks).filter((event) => !(event in documented))), ...documented };
  },
};

const geminiCli: DifferentialAgent = {
  dialect: "gemini",
  async run(options) {
    noEnv("Gemini CLI", options);
    const run = await runGemini({ home: options.home, cwd: options.cwd, modelUrl: options.modelUrl, hooks: options.hooks, prompt: options.prompt });
    const result = run.events.findLast((event) => event.type === "result");
    const answer = run.events.filter((event) => event.type === "message" && event.role === "assistant").map((event) => text(event.content)).join("");
    // Gemini CLI prints a hook's systemMessage to the terminal, outside the stream-json events.
    const userMessages = run.stderr.split("\n").filter((line) => /hook/i.test(line));
    return { code: run.code, result: `${result === undefined ? "<no result>" : text(result.status)}: ${answer}`, userMessages };
  },
  throughHookd(url, fileHooks) {
    // Gemini runs command hooks only: the forwarder for each event of the file (docs/gemini-cli.md).
    return geminiHooks("c-forwarder", url, Object.keys(fileHooks));
  },
};

const codex: DifferentialAgent = {
  dialect: "codex",
  async run(options) {
    noEnv("Codex", options);
    const run = await runCodex({ home: options.home, cwd: options.cwd, modelUrl: options.modelUrl, hooks: options.hooks, prompt: options.prompt });
    const items = run.events.flatMap((event) => (event.type === "item.completed" && typeof event.item === "object" && event.item !== null ? [event.item as Record<string, unknown>] : []));
    const answer = items.findLast((item) => item.type === "agent_message");
    const finished = run.events.some((event) => event.type === "turn.completed") ? "completed" : "not completed";
    const userMessages = items.filter((item) => item.type === "error" || item.type === "warning").map((item) => text(item.message));
    return { code: run.code, result: `${finished}: ${answer === undefined ? "" : text(answer.text)}`, userMessages };
  },
  throughHookd(url, fileHooks) {
    // The README's Codex snippet, plus the file's events it lacks.
    const documented = concrete(documentedHooks("codex"), "c-forwarder", url);
    const extra = Object.fromEntries(
      Object.keys(fileHooks)
        .filter((event) => !(event in documented))
        .map((event) => [event, [{ hooks: [{ type: "command", command: forwarderCommand("c-forwarder", "codex", event, url), timeout: 30 }] }]]),
    );
    return { ...extra, ...documented };
  },
};

export const AGENTS: Record<AgentName, DifferentialAgent> = { "Claude Code": claudeCode, "Gemini CLI": geminiCli, Codex: codex };
