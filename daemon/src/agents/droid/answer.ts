// Where Factory Droid's answers differ from Claude Code's. PreToolUse: Droid merges updatedInput
// over the call's input, so a rewrite that removed an argument cannot reach it: that call is
// denied, never run with the argument left in. PostToolUse: Droid ignores `decision: "block"`
// and has no field for a new output; the feedback goes to the model as context, and a replaced
// output (which Droid would show the model unchanged) stops the agent with `continue: false`.
import type { JsonValue, PostToolDecision, ToolCall, ToolResult } from "@hookd/sdk";
import { joined, withContext } from "../answer-text.js";
import { isObject } from "../body.js";
import { CLAUDE_ANSWERS, postToolAnswer } from "../claude-code/answer.js";
import { preToolAnswer, preToolOutput, rewrittenInput } from "../claude-code/tool-answer.js";
import type { AnswerWriter, HookAnswer, PreToolVerdict } from "../contract.js";

/** The arguments the proposed call had that the rewritten one lacks. */
function removedArguments(proposed: JsonValue, rewritten: JsonValue): string[] {
  if (!isObject(proposed)) return [];
  return Object.keys(proposed).filter((key) => !isObject(rewritten) || !Object.hasOwn(rewritten, key));
}

function preTool(verdict: PreToolVerdict): HookAnswer {
  const rewritten = rewrittenInput(verdict);
  if (verdict.decision.kind === "deny" || rewritten === undefined) return preToolAnswer(verdict);
  const removed = removedArguments(verdict.proposed.arguments, rewritten);
  if (removed.length === 0) return preToolAnswer(verdict);
  const by = (verdict.effective.rewrittenBy ?? []).join(", ");
  const reason = `the rewrite of ${verdict.effective.toolName} by ${by} removes ${removed.join(", ")}, which cannot reach Factory Droid: it merges updatedInput over the call's input`;
  return preToolOutput({ permissionDecision: "deny", permissionDecisionReason: reason });
}

export const REPLACED_OUTPUT_STOP = "hookd: a plugin replaced this tool's output, and Factory Droid cannot take a new output at PostToolUse, so the agent is stopped before the original output reaches the model";

function postTool(decision: PostToolDecision, result: ToolResult, call: ToolCall, decidedBy: string, event: string): HookAnswer {
  const contexts = decision.additionalContexts ?? [];
  if (decision.kind === "block") {
    const text = [decision.feedback, joined(contexts)].filter((part) => part !== "").join("\n\n");
    return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
  }
  const replaced = (decision.content !== undefined || decision.value !== undefined) && !result.isError;
  if (replaced) return { continue: false, stopReason: REPLACED_OUTPUT_STOP };
  return contexts.length === 0 ? postToolAnswer(decision, result, call, decidedBy, event) : withContext(event, contexts);
}

export const DROID_ANSWERS: AnswerWriter = { ...CLAUDE_ANSWERS, preTool, postTool };
