// Claude Code: its hook events and answers as the contract states them. Codex and Qwen Code,
// whose hooks follow the same contract, start from this one and override what differs.
import { parseHooksFile } from "../hooks-file.js";
import type { AgentDialect, CommandHooks } from "../contract.js";
import { fitAnswer } from "../fit-answer.js";
import { CLAUDE_ANSWERS, jsonOnStdout } from "./answer.js";
import { CLAUDE_TIMEOUTS, EVENTS, EVENTS_AT_POINT, claudeStyleFormat } from "./events.js";
import { CLAUDE_FIELDS } from "./fields.js";
import { claudeFiring } from "./firing.js";
import type { FiringFacts } from "./firing.js";
import { interpretClaudeRun } from "./output.js";
import type { OutputFacts } from "./output.js";
import { CLAUDE_PAYLOAD, buildObservedPayload, buildPayload } from "./payload.js";
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

/** The command hooks of an agent that runs Claude Code's contract, from its facts. */
export function claudeStyleHooks(facts: FiringFacts & OutputFacts & { readonly format: ReturnType<typeof claudeStyleFormat>; readonly updatedInputNeedsAllow?: boolean; readonly projectDirVars: readonly string[] }): CommandHooks {
  return {
    parse: (value, source) => parseHooksFile(facts.format, value, source),
    events: facts.format.events,
    eventsAtPoint: EVENTS_AT_POINT,
    firing: (point, data) => claudeFiring(facts, point, data),
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

export const claudeCode: AgentDialect = {
  name: "claude-code",
  title: "Claude Code",
  readRequest: (event, body, context) => readClaudeRequest(event, body, context, "claude-code"),
  answers: CLAUDE_ANSWERS,
  fit: (answer, event) => fitAnswer(answer, event, CLAUDE_FIELDS),
  forwarded: jsonOnStdout,
  observedWarning: (event) => (Object.hasOwn(PERFORMED_BY_THE_HOOK, event) ? PERFORMED_BY_THE_HOOK[event] : undefined),
  commandHooks: claudeStyleHooks({
    format: claudeStyleFormat("claude-code", EVENTS, "names-or-regex", CLAUDE_TIMEOUTS),
    payload: CLAUDE_PAYLOAD,
    interruptOnCancel: false,
    blockNeedsReason: false,
    // Its cli.js: `reason || "Blocked by hook"` for a block or a deny without a reason.
    blockedWithoutReason: "Blocked by hook",
    projectDirVars: ["CLAUDE_PROJECT_DIR"],
  }),
  tools: CLAUDE_TOOLS,
};

