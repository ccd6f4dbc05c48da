// hookd's evaluation results to GitHub Copilot CLI's hook output (1.0, measured on the binary):
// flat camelCase fields, which Copilot also reads from hooks named in PascalCase. preToolUse:
// permissionDecision allow|deny|ask with permissionDecisionReason (the model gets "Denied by
// preToolUse hook: <reason>"), modifiedArgs the whole new arguments; postToolUse: modifiedResult
// {resultType, textResultForLlm} replaces what the model sees, additionalContext is appended;
// userPromptSubmitted: additionalContext, `decision: "block"` drops the prompt; agentStop:
// `decision: "block"` + reason continues the turn with the reason as the next prompt;
// permissionRequest: behavior allow|deny with message. `{}` is no opinion. As for Claude Code,
// an allow never bypasses Copilot's own permissions unless the deciding plugin is configured to.
import type { AgentMessage, ApprovalDecision, JsonValue, Pass, PostToolDecision, PreStepDecision, ToolCall, ToolResult, TurnStoppingDecision } from "@hookd/sdk";
import { NO_OPINION, contentText, joined } from "../answer-text.js";
import { DEFAULT_DECIDER, rewrittenInput } from "../claude-code/tool-answer.js";
import type { AnswerWriter, HookAnswer, PreToolVerdict } from "../contract.js";

/** `base` with the messages' text as additionalContext (base itself when they say nothing). */
function withContext(contexts: readonly AgentMessage[], base: HookAnswer = NO_OPINION): HookAnswer {
  const text = joined(contexts);
  return text === "" ? base : { ...base, additionalContext: text };
}

function defined(fields: { readonly [key: string]: JsonValue | undefined }): HookAnswer {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function preTool(verdict: PreToolVerdict): HookAnswer {
  const { decision, decidedBy } = verdict;
  const modifiedArgs = rewrittenInput(verdict);
  switch (decision.kind) {
    case "deny":
      return { permissionDecision: "deny", permissionDecisionReason: decision.reason };
    case "ask":
      return defined({ permissionDecision: "ask", permissionDecisionReason: decision.reason, modifiedArgs });
    case "allow": {
      const bypass = verdict.bypass && decidedBy !== DEFAULT_DECIDER;
      return bypass ? defined({ permissionDecision: "allow", permissionDecisionReason: `allowed by ${decidedBy}`, modifiedArgs }) : defined({ modifiedArgs });
    }
  }
}

function preStep(decision: PreStepDecision): HookAnswer {
  if (decision.kind === "reject") return { decision: "block", reason: decision.reason };
  return withContext(decision.messages.filter((message) => message.source.kind !== "user"));
}

function approval(decision: ApprovalDecision | Pass): HookAnswer {
  switch (decision.kind) {
    case "approve":
      return { behavior: "allow" };
    case "reject":
      return { behavior: "deny", message: decision.reason };
    case "pass":
      return NO_OPINION;
  }
}

/** A block and a replaced output both reach the model as modifiedResult: Copilot has no post-tool block. */
function postTool(decision: PostToolDecision, result: ToolResult, _call: ToolCall, _decidedBy: string): HookAnswer {
  const contexts = decision.additionalContexts ?? [];
  if (decision.kind === "block") return withContext(contexts, { modifiedResult: { resultType: "failure", textResultForLlm: decision.feedback } });
  const replaced = decision.content !== undefined || decision.value !== undefined;
  if (!replaced || result.isError) return withContext(contexts);
  const text = decision.value !== undefined && typeof result.value === "string" ? result.value : contentText(result.content);
  return withContext(contexts, { modifiedResult: { resultType: "success", textResultForLlm: text } });
}

function stop(decision: TurnStoppingDecision | Pass): HookAnswer {
  if (decision.kind !== "steer") return NO_OPINION;
  const reason = joined(decision.messages);
  return { decision: "block", reason: reason === "" ? "continue" : reason };
}

export const COPILOT_ANSWERS: AnswerWriter = {
  sessionStart: (contexts) => withContext(contexts),
  preStep,
  preTool,
  approval,
  postTool,
  stop,
  // Copilot CLI 1.0.102 reads no message for the user and no stop request from a hook
  // (docs/agents/copilot-cli.md): a notice has nowhere to go in its answer; the audit keeps it.
  notice: (answer) => answer,
};
