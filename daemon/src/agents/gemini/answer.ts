// hookd's evaluation results to Gemini CLI's hook output (0.61): top-level `decision` ("deny" to
// refuse, "ask" to force the agent's confirmation) with `reason`, and hookSpecificOutput
// {hookEventName, additionalContext | tool_input}. `{}` is "no opinion": Gemini then applies its own
// policy, so hookd's allow (default or a plugin's) is never sent as "allow" (Gemini ignores it
// anyway: only deny and ask change what its policy decides).
// BeforeTool's hookSpecificOutput.tool_input: Gemini 0.61 builds the call from it ALONE (its docs
// say the object is merged; the binary replaces), so hookd always sends the complete effective
// arguments: right under either rule, except that a key a rewrite removed would survive a merge.
import type { AgentMessage, Pass, PostToolDecision, PreStepDecision, ToolCall, ToolResult, TurnStoppingDecision } from "@hookd/sdk";
import { NO_OPINION, contentText, joined, withContext, withUserNotice } from "../answer-text.js";
import { CAP_MESSAGE } from "../claude-code/answer.js";
import type { AnswerWriter, HookAnswer, PreToolVerdict } from "../contract.js";

const refuse = (reason: string): HookAnswer => ({ decision: "deny", reason });

/** SessionStart: contexts become additionalContext (Gemini prepends it to the first prompt headless). */
function sessionStart(contexts: readonly AgentMessage[]): HookAnswer {
  return withContext("SessionStart", contexts);
}

/** BeforeAgent: a reject discards the prompt (decision deny); an enter's non-user messages are context. */
function beforeAgent(decision: PreStepDecision): HookAnswer {
  if (decision.kind === "reject") return refuse(decision.reason);
  return withContext(
    "BeforeAgent",
    decision.messages.filter((message) => message.source.kind !== "user"),
  );
}

/**
 * BeforeTool, after the rewrite chain and the policy: a deny is `decision: "deny"` (Gemini sends
 * the reason to the model as the tool's error; the turn goes on); an ask forces Gemini's own
 * confirmation; a rewritten call carries its whole effective arguments as tool_input. A call the
 * rewrite chain itself refused (a fail-closed rewriter failed) is a deny like any other.
 */
function beforeTool(verdict: PreToolVerdict): HookAnswer {
  const { decision, proposed, effective } = verdict;
  if (decision.kind === "deny") return refuse(decision.reason);
  const rewritten = effective.argumentsJson !== proposed.argumentsJson;
  const base: HookAnswer = decision.kind === "ask" ? { decision: "ask", reason: decision.reason, systemMessage: decision.reason } : NO_OPINION;
  return rewritten ? { ...base, hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: effective.arguments } } : base;
}

/**
 * AfterTool: a block replaces what the model sees with the feedback (decision deny: Gemini shows
 * it as "Tool result blocked: <reason>"), contexts are appended (additionalContext); a replaced
 * output can only reach Gemini the same way as a block, its reason the replacement text.
 */
function afterTool(decision: PostToolDecision, result: ToolResult, call: ToolCall, decidedBy: string): HookAnswer {
  const contexts = decision.additionalContexts ?? [];
  const extra = joined(contexts);
  const withExtra = (text: string): string => (extra === "" ? text : `${text}\n\n${extra}`);
  if (decision.kind === "block") return refuse(withExtra(decision.feedback));
  const replaced = decision.content !== undefined || decision.value !== undefined;
  if (!replaced || result.isError) return withContext("AfterTool", contexts);
  return {
    ...refuse(withExtra(`hookd plugin ${decidedBy} replaced this tool's output; use this instead:\n${contentText(result.content)}`)),
    systemMessage: `hookd: ${decidedBy} replaced the output of ${call.toolName}`,
  };
}

/** AfterAgent: a steer rejects the response and Gemini retries with the steering text as the prompt. */
function afterAgent(decision: TurnStoppingDecision | Pass, capped: boolean): HookAnswer {
  if (decision.kind === "steer") {
    const reason = joined(decision.messages);
    return refuse(reason === "" ? "continue" : reason);
  }
  return capped ? { systemMessage: CAP_MESSAGE } : NO_OPINION;
}

export const GEMINI_ANSWERS: AnswerWriter = {
  sessionStart,
  preStep: beforeAgent,
  preTool: beforeTool,
  // Gemini CLI has no permission-request event.
  approval: () => NO_OPINION,
  postTool: afterTool,
  stop: afterAgent,
  // Gemini CLI's common output fields are Claude Code's: systemMessage, continue, stopReason.
  notice: withUserNotice,
};
