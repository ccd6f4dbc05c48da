// Claude Code: its hook events and answers as the contract states them, and the builder of every
// agent whose hooks follow the same contract (Codex, Qwen Code): each gives what differs.
import type { AgentDialect, AnswerWriter, Body, CommandHooks, ForwardedOutput, HookAnswer } from "../contract.js";
import { firingOf } from "../firing.js";
import { fitAnswer } from "../fit-answer.js";
import type { AnswerFields } from "../fit-answer.js";
import { parseHooksFile } from "../hooks-file.js";
import type { ToolTable } from "../tool-kinds.js";
import { CLAUDE_ANSWERS, jsonOnStdout } from "./answer.js";
import { CLAUDE_EVENTS, CLAUDE_TIMEOUTS, EVENTS_AT_POINT, claudeStyleFormat } from "./events.js";
import { CLAUDE_FIELDS } from "./fields.js";
import { interpretClaudeRun } from "./output.js";
import type { OutputFacts } from "./output.js";
import { CLAUDE_PAYLOAD, buildObservedPayload, buildPayload } from "./payload.js";
import type { PayloadFacts } from "./payload.js";
import { readClaudeRequest } from "./request.js";
import { CLAUDE_TOOLS } from "./tools.js";

// Events whose hook performs the action itself: an observer's answer cannot, so the endpoint
// says so each time one reaches it (Claude Code only reports a failed creation).
const PERFORMED_BY_THE_HOOK: { readonly [event: string]: string } = {
  WorktreeCreate:
    "a WorktreeCreate hook replaces Claude Code's own worktree creation and must answer the new worktree's path; hookd only observes it, so unless another WorktreeCreate hook prints the path, Claude Code fails to create the worktree",
  WorktreeRemove:
    "a WorktreeRemove hook performs Claude Code's removal of a hook-made worktree; hookd only observes it, so unless another WorktreeRemove hook removes it, the worktree stays on disk",
};

const CLAUDE_FIRING = {
  sessionStart: "SessionStart",
  subagentStart: "SubagentStart",
  prompt: "UserPromptSubmit",
  tool: "PreToolUse",
  approval: "PermissionRequest",
  postTool: "PostToolUse",
  postToolFailure: "PostToolUseFailure",
  stop: "Stop",
  subagentStop: "SubagentStop",
  sessionEnd: "SessionEnd",
  stopFailure: "StopFailure",
} as const;

type HooksFacts = OutputFacts & {
  readonly payload: PayloadFacts;
  /** A cancelled turn fires Interrupt (Codex). */
  readonly interruptOnCancel: boolean;
  readonly format: ReturnType<typeof claudeStyleFormat>;
  readonly updatedInputNeedsAllow?: boolean;
  readonly projectDirVars: readonly string[];
};

/** The command hooks of an agent that runs Claude Code's contract, from its facts. */
export function claudeStyleHooks(facts: HooksFacts): CommandHooks {
  const names = { ...CLAUDE_FIRING, endReason: facts.payload.endReason, ...(facts.interruptOnCancel ? { interrupt: "Interrupt" } : {}) };
  return {
    parse: (value, source) => parseHooksFile(facts.format, value, source),
    events: facts.format.events,
    eventsAtPoint: EVENTS_AT_POINT,
    firing: (point, data) => firingOf(names, point, data),
    payload: (firing, extras) => buildPayload(facts.payload, firing, extras),
    observedPayload: (event, extras) => buildObservedPayload(facts.payload, event, extras),
    env: (cwd) => Object.fromEntries(facts.projectDirVars.map((name) => [name, cwd])),
    substitutes: facts.projectDirVars,
    interpret: (run, hook) => interpretClaudeRun(facts, run, hook),
    // updatedInput is the whole new input.
    applyInput: (_args, input) => input,
    reasonSeparator: "\n\n",
    defaultFailurePolicy: "fail-open",
    blockedWithoutReason: facts.blockedWithoutReason,
    ...(facts.updatedInputNeedsAllow === true ? { updatedInputNeedsAllow: true } : {}),
  };
}

/** An agent whose hooks follow Claude Code's contract: its name, answers, accepted fields, forwarder, hooks and tools. */
export function claudeStyleAgent(agent: {
  readonly name: string;
  readonly title: string;
  readonly answers: AnswerWriter;
  readonly fields: AnswerFields;
  readonly forwarded: (answer: HookAnswer) => ForwardedOutput;
  readonly hooks: HooksFacts;
  readonly tools: ToolTable;
  /** The body as Claude Code would have sent it, where the agent's differs. */
  readonly asClaude?: (event: string, body: Body) => Body;
  readonly observedWarning?: (event: string) => string | undefined;
}): AgentDialect {
  const { name, title, answers, fields, forwarded, tools, asClaude } = agent;
  return {
    name,
    title,
    readRequest: (event, body, context) => readClaudeRequest(event, asClaude?.(event, body) ?? body, context, name),
    answers,
    fit: (answer, event) => fitAnswer(answer, event, fields),
    forwarded,
    ...(agent.observedWarning === undefined ? {} : { observedWarning: agent.observedWarning }),
    commandHooks: claudeStyleHooks(agent.hooks),
    tools,
  };
}

export const claudeCode = claudeStyleAgent({
  name: "claude-code",
  title: "Claude Code",
  answers: CLAUDE_ANSWERS,
  fields: CLAUDE_FIELDS,
  forwarded: jsonOnStdout,
  observedWarning: (event) => (Object.hasOwn(PERFORMED_BY_THE_HOOK, event) ? PERFORMED_BY_THE_HOOK[event] : undefined),
  hooks: {
    format: claudeStyleFormat("claude-code", CLAUDE_EVENTS, "names-or-regex", CLAUDE_TIMEOUTS),
    // Claude Code 2.1.337 fires the observe-only Interrupt when an interrupt ends the turn.
    payload: { ...CLAUDE_PAYLOAD, interruptFields: { source: "user", reason: "stop" } },
    interruptOnCancel: true,
    blockNeedsReason: false,
    // Its cli.js: `reason || "Blocked by hook"` for a block or a deny without a reason.
    blockedWithoutReason: "Blocked by hook",
    projectDirVars: ["CLAUDE_PROJECT_DIR"],
  },
  tools: CLAUDE_TOOLS,
});
