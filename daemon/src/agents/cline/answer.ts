// hookd's evaluation results to the JSON a Cline hook prints: {cancel, errorMessage,
// contextModification, overrideInput}. Cline has no per-call deny: `cancel: true` aborts the
// whole task before the call runs, so a deny (and an ask, which Cline hooks cannot make) cancels
// the task with the reason as its error: the least destructive answer that still keeps the call
// from running. A rewrite is `overrideInput`, the complete new input (Cline replaces the input).
// After a tool, context and a block's feedback reach the model as contextModification; a
// replaced output, which Cline cannot take, cancels the task before the original reaches the model.
import type { AgentMessage, ApprovalDecision, Pass, PostToolDecision, PreStepDecision, ToolCall, ToolResult, TurnStoppingDecision, UserNotice } from "@hookd/sdk";
import { NO_OPINION, joined } from "../answer-text.js";
import { rewrittenInput } from "../claude-code/tool-answer.js";
import type { AnswerWriter, HookAnswer, PreToolVerdict } from "../contract.js";
import type { AnswerFields } from "../fit-answer.js";

const withContext = (text: string): HookAnswer => (text === "" ? NO_OPINION : { contextModification: text });
const cancel = (errorMessage: string): HookAnswer => ({ cancel: true, errorMessage });

function preTool(verdict: PreToolVerdict): HookAnswer {
  const { decision } = verdict;
  const tool = verdict.effective.toolName;
  if (decision.kind === "deny") return cancel(`hookd denied ${tool}: ${decision.reason} (Cline hooks cannot deny one call, so the task is cancelled)`);
  if (decision.kind === "ask") return cancel(`approval required (Cline hooks cannot ask): ${decision.reason}; the task is cancelled`);
  const input = rewrittenInput(verdict);
  return input === undefined ? NO_OPINION : { overrideInput: input };
}

export const REPLACED_OUTPUT_CANCEL = "hookd: a plugin replaced this tool's output, and Cline cannot take a new output, so the task is cancelled before the original output reaches the model";

function postTool(decision: PostToolDecision, result: ToolResult, _call: ToolCall, _decidedBy: string, _event: string): HookAnswer {
  const contexts = joined(decision.additionalContexts ?? []);
  if (decision.kind === "block") return withContext([decision.feedback, contexts].filter((part) => part !== "").join("\n\n"));
  if ((decision.content !== undefined || decision.value !== undefined) && !result.isError) return cancel(REPLACED_OUTPUT_CANCEL);
  return withContext(contexts);
}

/** A stop request is Cline's own cancel (the task ends, the reason as its error); Cline shows no other hook message to the user. */
function notice(answer: HookAnswer, told: UserNotice): HookAnswer {
  return told.stopAgent === undefined ? answer : { ...answer, ...cancel(told.stopAgent.reason) };
}

export const CLINE_ANSWERS: AnswerWriter = {
  notice,
  sessionStart: (contexts: readonly AgentMessage[]) => withContext(joined(contexts)),
  // Cline fires no awaited prompt event (UserPromptSubmit is observed): written for completeness.
  preStep: (decision: PreStepDecision) => (decision.kind === "reject" ? cancel(decision.reason) : withContext(joined(decision.messages.filter((message) => message.source.kind !== "user")))),
  preTool,
  // Cline has no permission-request or stop event.
  approval: (_decision: ApprovalDecision | Pass) => NO_OPINION,
  postTool,
  stop: (_decision: TurnStoppingDecision | Pass, _capped: boolean) => NO_OPINION,
};

const GATE = ["cancel", "errorMessage", "contextModification"];

/** The fields Cline reads at each event; the fire-and-forget events read none. */
export const CLINE_FIELDS: AnswerFields = {
  of: (event) => {
    const top = event === "PreToolUse" ? [...GATE, "overrideInput"] : ["PostToolUse", "TaskStart", "TaskResume"].includes(event) ? GATE : [];
    return { top, specific: [] };
  },
};
