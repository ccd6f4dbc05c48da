// Where Qwen Code's answers differ from Claude Code's. PreToolUse: Qwen applies no updatedInput
// there, so a rewrite it cannot take is a deny, never the original call run. PostToolUse: Qwen
// ignores `decision: "block"` there but replaces the tool's result with the stopReason of
// `continue: false` and goes on with the turn, so a block (and a replaced output) is written so.
import type { PostToolDecision, ToolCall, ToolResult } from "@hookd/sdk";
import { contentText, joined } from "../answer-text.js";
import { CLAUDE_ANSWERS, postToolAnswer } from "../claude-code/answer.js";
import { preToolAnswer, preToolOutput, rewrittenInput } from "../claude-code/tool-answer.js";
import type { AnswerWriter, HookAnswer, PreToolVerdict } from "../contract.js";

function preTool(verdict: PreToolVerdict): HookAnswer {
  if (verdict.decision.kind === "deny" || rewrittenInput(verdict) === undefined) return preToolAnswer(verdict);
  const reason = `the rewrite of ${verdict.effective.toolName} by ${(verdict.effective.rewrittenBy ?? []).join(", ")} cannot reach Qwen Code: it applies no updatedInput at PreToolUse`;
  return preToolOutput({ permissionDecision: "deny", permissionDecisionReason: reason });
}

function postTool(decision: PostToolDecision, result: ToolResult, call: ToolCall, decidedBy: string, event: string): HookAnswer {
  const contexts = joined(decision.additionalContexts ?? []);
  const withContexts = (text: string): string => (contexts === "" ? text : `${text}\n\n${contexts}`);
  if (decision.kind === "block") return { continue: false, stopReason: withContexts(decision.feedback) };
  const replaced = (decision.content !== undefined || decision.value !== undefined) && !result.isError;
  if (!replaced) return postToolAnswer(decision, result, call, decidedBy, event);
  return { continue: false, stopReason: withContexts(contentText(result.content)) };
}

export const QWEN_ANSWERS: AnswerWriter = { ...CLAUDE_ANSWERS, preTool, postTool };
