// hookd's evaluation results to the answer a command hook would print, in the agent's JSON output
// schema: hookSpecificOutput {hookEventName, additionalContext, ...} for contexts, `decision:
// "block"` + `reason` for UserPromptSubmit, PostToolUse and Stop. `{}` means "no opinion": the
// agent carries on as if no hook were configured. Tool gates are in tool-answer.ts; which fields
// each agent accepts at each event is output-fields.ts's (applied to every answer).
import type { AgentMessage, ContentBlock, Pass, PostToolDecision, PreStepDecision, ToolCall, ToolResult, TurnStoppingDecision } from "@hookd/sdk";

export type AnswerDialect = "claude-code" | "codex";

/** The JSON printed (or sent as the HTTP body). Plain data. */
export type HookAnswer = { readonly [key: string]: unknown };

const NO_OPINION: HookAnswer = Object.freeze({});

export function contentText(content: readonly ContentBlock[]): string {
  return content
    .map((block) => (block.type === "text" ? block.text : block.type === "json" ? block.json : `[image ${block.uri}]`))
    .join("\n");
}

function joined(messages: readonly AgentMessage[]): string {
  return messages.map((message) => contentText(message.content)).filter((text) => text !== "").join("\n\n");
}

function withContext(event: string, contexts: readonly AgentMessage[], base: HookAnswer = {}): HookAnswer {
  const text = joined(contexts);
  return text === "" ? base : { ...base, hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

/** SessionStart and SubagentStart: the injected messages as context. */
export function sessionStartAnswer(contexts: readonly AgentMessage[], event: "SessionStart" | "SubagentStart" = "SessionStart"): HookAnswer {
  return withContext(event, contexts, NO_OPINION);
}

/**
 * UserPromptSubmit: a reject is how a plugin ends the turn (the hosted loop's turn outcome
 * "blocked"): the prompt is blocked and the turn does not run (`decision: "block"`), and the
 * agent stops there (`continue: false`, the reason as `stopReason`). An enter adds, as context,
 * every message of the entered batch that did not come from the user (the agent cannot replace
 * its user's prompt).
 */
export function preStepAnswer(decision: PreStepDecision): HookAnswer {
  if (decision.kind === "reject") return { decision: "block", reason: decision.reason, continue: false, stopReason: decision.reason };
  return withContext(
    "UserPromptSubmit",
    decision.messages.filter((message) => message.source.kind !== "user"),
    NO_OPINION,
  );
}

/**
 * PostToolUse: block -> decision block with the feedback as reason; accept -> its contexts. A
 * replaced output (a plugin's new content or value) reaches Claude Code as `updatedToolOutput`
 * (every tool, Claude Code 2.1.121 and later) and, for MCP tools (`mcp__*`), also as
 * `updatedMCPToolOutput` (what earlier releases honour). Codex's output schema is strict and its
 * replacement support varies by release, so for Codex the replacement is sent as context with a
 * systemMessage saying the original output could not be withheld.
 */
export function postToolAnswer(
  decision: PostToolDecision,
  result: ToolResult,
  call: ToolCall,
  decidedBy: string,
  dialect: AnswerDialect,
  event: "PostToolUse" | "PostToolUseFailure" = "PostToolUse",
): HookAnswer {
  const contexts = decision.additionalContexts ?? [];
  if (decision.kind === "block") return withContext(event, contexts, { decision: "block", reason: decision.feedback });
  const replaced = decision.content !== undefined || decision.value !== undefined;
  if (!replaced || result.isError) return withContext(event, contexts, NO_OPINION);
  const output = decision.value !== undefined ? result.value : contentText(result.content);
  if (dialect === "claude-code") {
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
  const replacement: AgentMessage = {
    id: "",
    role: "user",
    source: { kind: "plugin", name: decidedBy },
    content: [{ type: "text", text: `hookd plugin ${decidedBy} replaced this tool's output; use this instead:\n${contentText(result.content)}` }],
  };
  return withContext("PostToolUse", [replacement, ...contexts], {
    systemMessage: `hookd: ${decidedBy} replaced the output of ${call.toolName}, but the agent cannot withhold the tool's original output`,
  });
}

/** Stop: steering continues the turn (decision block, the steering text as reason). */
export function stopAnswer(decision: TurnStoppingDecision | Pass, capped: boolean): HookAnswer {
  if (decision.kind === "steer") {
    const reason = joined(decision.messages);
    return { decision: "block", reason: reason === "" ? "continue" : reason };
  }
  return capped ? { systemMessage: "hookd: steering refused, the turn reached the continuation cap (limits.maxSteeredContinuations)" } : NO_OPINION;
}

/**
 * What a forwarding command prints for an answer, and its exit code, per dialect. Claude Code:
 * the JSON on stdout, exit 0. Codex: a block (decision block, or a PreToolUse deny) is exit 2
 * with the reason on stderr; otherwise the JSON on stdout (nothing for no opinion), exit 0.
 */
export function forwardedOutput(answer: HookAnswer, dialect: AnswerDialect): { readonly exitCode: 0 | 2; readonly text: string } {
  if (dialect === "codex") {
    const reason = blockReason(answer);
    if (reason !== undefined) return { exitCode: 2, text: `${reason}\n` };
    return { exitCode: 0, text: Object.keys(answer).length === 0 ? "" : `${JSON.stringify(answer)}\n` };
  }
  return { exitCode: 0, text: `${JSON.stringify(answer)}\n` };
}

function blockReason(answer: HookAnswer): string | undefined {
  if (answer.decision === "block") return typeof answer.reason === "string" && answer.reason !== "" ? answer.reason : "blocked by hookd";
  const specific = answer.hookSpecificOutput as { permissionDecision?: unknown; permissionDecisionReason?: unknown } | undefined;
  if (specific?.permissionDecision !== "deny") return undefined;
  return typeof specific.permissionDecisionReason === "string" && specific.permissionDecisionReason !== "" ? specific.permissionDecisionReason : "denied by hookd";
}
