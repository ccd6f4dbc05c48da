// Where Codex's answers differ from Claude Code's. PreToolUse: Codex hooks cannot ask (an ask is
// a deny saying approval is required), and take `updatedInput` only with `permissionDecision:
// "allow"` and, for its shell tool, only with a string `command`: a rewrite Codex cannot take is
// a deny, never the original call run. PostToolUse: its output schema is strict and its
// replacement support varies by release, so a replaced output is sent as context with a
// systemMessage saying the original could not be withheld. A forwarder blocks with exit 2.
import type { AgentMessage, JsonValue, PostToolDecision, ToolCall, ToolResult } from "@hookd/sdk";
import { NO_OPINION, contentText, withContext } from "../answer-text.js";
import { CLAUDE_ANSWERS, postToolAnswer } from "../claude-code/answer.js";
import { preToolOutput, rewrittenInput } from "../claude-code/tool-answer.js";
import type { AnswerWriter, ForwardedOutput, HookAnswer, PreToolVerdict } from "../contract.js";

/** Codex's shell tool, as its hooks name it. */
const SHELL = "Bash";

/** Why Codex cannot take this rewrite, or undefined when it can. */
function refusal(call: ToolCall): string | undefined {
  if (call.toolName !== SHELL) return undefined;
  const args = call.arguments as { readonly [key: string]: JsonValue };
  return typeof args.command === "string" ? undefined : `the rewrite of ${call.toolName} cannot reach Codex: its shell takes only a string "command"`;
}

function preTool(verdict: PreToolVerdict): HookAnswer {
  const { decision } = verdict;
  switch (decision.kind) {
    case "deny":
      return preToolOutput({ permissionDecision: "deny", permissionDecisionReason: decision.reason });
    case "ask":
      return preToolOutput({ permissionDecision: "deny", permissionDecisionReason: `approval required (Codex hooks cannot ask): ${decision.reason}` });
    case "allow": {
      const updatedInput = rewrittenInput(verdict);
      if (updatedInput === undefined) return NO_OPINION; // Codex refuses an allow without updatedInput
      const refused = refusal(verdict.effective);
      if (refused !== undefined) return preToolOutput({ permissionDecision: "deny", permissionDecisionReason: refused });
      return preToolOutput({ permissionDecision: "allow", permissionDecisionReason: `rewritten by ${(verdict.effective.rewrittenBy ?? []).join(", ")}`, updatedInput });
    }
  }
}

function postTool(decision: PostToolDecision, result: ToolResult, call: ToolCall, decidedBy: string, event: string): HookAnswer {
  const replaced = decision.kind === "accept" && (decision.content !== undefined || decision.value !== undefined) && !result.isError;
  if (!replaced) return postToolAnswer(decision, result, call, decidedBy, event);
  const replacement: AgentMessage = {
    id: "",
    role: "user",
    source: { kind: "plugin", name: decidedBy },
    content: [{ type: "text", text: `hookd plugin ${decidedBy} replaced this tool's output; use this instead:\n${contentText(result.content)}` }],
  };
  return withContext("PostToolUse", [replacement, ...(decision.additionalContexts ?? [])], {
    systemMessage: `hookd: ${decidedBy} replaced the output of ${call.toolName}, but the agent cannot withhold the tool's original output`,
  });
}

export const CODEX_ANSWERS: AnswerWriter = { ...CLAUDE_ANSWERS, preTool, postTool };

/** A block (decision block, or a PreToolUse deny) is exit 2 with the reason on stderr; otherwise the JSON on stdout (nothing for no opinion), exit 0. */
export function codexForwarded(answer: HookAnswer): ForwardedOutput {
  const reason = blockReason(answer);
  if (reason !== undefined) return { exitCode: 2, text: `${reason}\n` };
  return { exitCode: 0, text: Object.keys(answer).length === 0 ? "" : `${JSON.stringify(answer)}\n` };
}

function blockReason(answer: HookAnswer): string | undefined {
  if (answer.decision === "block") return typeof answer.reason === "string" && answer.reason !== "" ? answer.reason : "blocked by hookd";
  const specific = answer.hookSpecificOutput as { permissionDecision?: unknown; permissionDecisionReason?: unknown } | undefined;
  if (specific?.permissionDecision !== "deny") return undefined;
  return typeof specific.permissionDecisionReason === "string" && specific.permissionDecisionReason !== "" ? specific.permissionDecisionReason : "denied by hookd";
}
