// hookd's evaluation results to the answer a Claude Code hook would print: hookSpecificOutput
// {hookEventName, additionalContext, ...} for contexts, `decision: "block"` + `reason` for
// UserPromptSubmit, PostToolUse and Stop. `{}` means "no opinion": the agent carries on as if no
// hook were configured. Tool gates are in tool-answer.ts; which fields the agent accepts at each
// event is fields.ts's (applied to every answer).
import type { AgentMessage, Pass, PostToolDecision, PreStepDecision, ToolCall, ToolResult, TurnStoppingDecision } from "@hookd/sdk";
import { NO_OPINION, contentText, joined, withContext, withUserNotice } from "../answer-text.js";
import type { AnswerWriter, ForwardedOutput, HookAnswer } from "../contract.js";
import { approvalAnswer, preToolAnswer } from "./tool-answer.js";

/** SessionStart and SubagentStart: the injected messages as context. */
export function sessionStartAnswer(contexts: readonly AgentMessage[], event: string): HookAnswer {
  return withContext(event, contexts);
}

/**
 * UserPromptSubmit: a reject is how a plugin ends the turn (the hosted loop's turn outcome
 * "blocked"): the prompt is blocked and the turn does not run (`decision: "block"` with the
 * reason), and Claude Code shows the reason and gives the user their prompt back to edit. Only a
 * plugin's stop request (notice.ts) adds `continue: false`, which would replace that with
 * "Operation stopped by hook". An enter adds, as context, every message of the entered batch that
 * did not come from the user (the agent cannot replace its user's prompt).
 */
export function preStepAnswer(decision: PreStepDecision): HookAnswer {
  if (decision.kind === "reject") return { decision: "block", reason: decision.reason };
  return withContext(
    "UserPromptSubmit",
    decision.messages.filter((message) => message.source.kind !== "user"),
  );
}

/**
 * PostToolUse: block -> decision block with the feedback as reason; accept -> its contexts. A
 * replaced output (a plugin's new content or value) reaches Claude Code as `updatedToolOutput`
 * (every tool, Claude Code 2.1.121 and later) and, for MCP tools (`mcp__*`), also as
 * `updatedMCPToolOutput` (what earlier releases honour).
 */
export function postToolAnswer(decision: PostToolDecision, result: ToolResult, call: ToolCall, _decidedBy: string, event: string): HookAnswer {
  const contexts = decision.additionalContexts ?? [];
  if (decision.kind === "block") return withContext(event, contexts, { decision: "block", reason: decision.feedback });
  const replaced = decision.content !== undefined || decision.value !== undefined;
  if (!replaced || result.isError) return withContext(event, contexts);
  const output = decision.value !== undefined ? result.value : contentText(result.content);
  const text = joined(contexts);
  return {
    hookSpecificOutput: {
      hookEventName: "PostToolUse",
      updatedToolOutput: output,
      ...(call.toolName.startsWith("mcp__") ? { updatedMCPToolOutput: output } : {}),
      ...(text === "" ? {} : { additionalContext: text }),
    },
  };
}

export const CAP_MESSAGE = "hookd: steering refused, the turn reached the continuation cap (limits.maxSteeredContinuations)";

/** Stop: steering continues the turn (decision block, the steering text as reason). */
export function stopAnswer(decision: TurnStoppingDecision | Pass, capped: boolean): HookAnswer {
  if (decision.kind === "steer") {
    const reason = joined(decision.messages);
    return { decision: "block", reason: reason === "" ? "continue" : reason };
  }
  return capped ? { systemMessage: CAP_MESSAGE } : NO_OPINION;
}

/** A forwarding command prints the JSON on stdout and exits 0. */
export function jsonOnStdout(answer: HookAnswer): ForwardedOutput {
  return { exitCode: 0, text: `${JSON.stringify(answer)}\n` };
}

export const CLAUDE_ANSWERS: AnswerWriter = {
  sessionStart: sessionStartAnswer,
  preStep: preStepAnswer,
  preTool: preToolAnswer,
  approval: approvalAnswer,
  postTool: postToolAnswer,
  stop: stopAnswer,
  notice: withUserNotice,
};
