// The typed vocabulary plugins and the engine share: points, messages, sealed tool calls, tool
// results and session facts. Plain readonly data; the protobuf forms live in gen/ and convert.ts
// maps between the two exactly.
import type { JsonObject, JsonValue } from "./json.js";

// The closed list of points and their names come from the point table (points/index.ts).
export { POINTS, TOOL_POINTS, isPointName, type PointName } from "./points/index.js";

export type FailurePolicy = "fail-closed" | "fail-open";

export type ContentBlock =
  | { readonly type: "text"; readonly text: string }
  /** JSON text, kept as text so it round-trips exactly. */
  | { readonly type: "json"; readonly json: string }
  | { readonly type: "image"; readonly uri: string; readonly mediaType: string };

export type MessageSource =
  | { readonly kind: "user" }
  | { readonly kind: "plugin"; readonly name: string }
  | { readonly kind: "tool"; readonly callId: string }
  | { readonly kind: "model" };

export type Role = "user" | "assistant";

export interface AgentMessage {
  /** Unique within the session; empty until the session records the message. */
  readonly id: string;
  readonly role: Role;
  readonly content: readonly ContentBlock[];
  readonly source: MessageSource;
}

export interface SessionInfo {
  readonly sessionId: string;
  readonly agentId: string;
  readonly cwd: string;
  /**
   * For a subagent's session: the session of the same agent that started it. Every event of the
   * child carries it, so one policy covers subagents. Absent for a top-level session.
   */
  readonly parentSessionId?: string;
  /** The kind of agent running the session, as the agent names it (e.g. a subagent's type). */
  readonly agentType?: string;
}

/** Why a session started; "subagent" names a child of `SessionInfo.parentSessionId`. */
export type SessionSource = "startup" | "resume" | "clear" | "compact" | "subagent";

/** Why a session ended (the session-end point). */
export type SessionEndReason = "closed" | "cleared" | "disconnected" | "expired" | "daemon_stopping";

export interface ToolDefinitionInfo {
  readonly name: string;
  readonly description: string;
  /** JSON Schema text, or "" when the agent declared none. */
  readonly inputSchemaJson: string;
  readonly concurrencySafe: boolean;
  /**
   * The tool owns a final content boundary (the seed's finalizeContent): the hosted loop asks the
   * agent once per call with the normalized result, failures included. Absent: false.
   */
  readonly finalizesContent?: boolean;
}

/** A sealed tool call: identity and arguments fixed before any policy runs. Deep-frozen. */
export interface ToolCall {
  readonly callId: string;
  readonly rootCallId: string;
  readonly parentCallId?: string;
  readonly toolName: string;
  /** The arguments, parsed losslessly and deep-frozen. */
  readonly arguments: JsonValue;
  /** The canonical JSON text of the arguments: what is dispatched and audited. */
  readonly argumentsJson: string;
  readonly sessionId: string;
  readonly turn: number;
  readonly step: number;
  /**
   * Set only when rewrite plugins changed the arguments: the arguments as the agent proposed
   * them (`arguments` holds the effective ones, which policy sees and dispatch runs).
   */
  readonly originalArguments?: JsonValue;
  /** The canonical JSON text of `originalArguments`; set with it. */
  readonly originalArgumentsJson?: string;
  /** The rewrite plugins that changed the arguments, in the order they did; set with `originalArguments`. */
  readonly rewrittenBy?: readonly string[];
}

export interface ToolSuccess {
  readonly isError: false;
  /** The canonical value. */
  readonly value: JsonValue;
  /** What the model sees. */
  readonly content: readonly ContentBlock[];
  readonly metadata?: JsonObject;
  readonly contexts: readonly AgentMessage[];
}

export interface ToolFailure {
  readonly isError: true;
  readonly message: string;
  /** e.g. "denied", "blocked", "tool_error", "plugin_failure", "invalid_arguments". */
  readonly code: string;
  readonly name: string;
  readonly content: readonly ContentBlock[];
  readonly contexts: readonly AgentMessage[];
}

export type ToolResult = ToolSuccess | ToolFailure;

/** Who decided a point, as an evaluate call or a hosted tool result reports it. */
export interface DecisionTrace {
  /** The plugin whose answer decided, or "default" when every plugin passed. */
  readonly decidedBy: string;
  /**
   * Set when a failure policy made the decision, e.g. "deadline_exceeded": a fail-closed
   * plugin's own failure (decidedBy names it), or, with decidedBy "default", the first failure
   * that counted as a pass (fail-open). Absent when a plugin decided with an answer of its own.
   * hookd.v1.DecisionTrace.failure_cause says it in full.
   */
  readonly failureCause?: string;
  /** Time spent in the point's plugins, in microseconds. */
  readonly durationUs: number;
}

// ---- small constructors --------------------------------------------------------------------

export function text(value: string): ContentBlock {
  return { type: "text", text: value };
}

export function userMessage(content: string | readonly ContentBlock[]): AgentMessage {
  return { id: "", role: "user", content: typeof content === "string" ? [text(content)] : content, source: { kind: "user" } };
}

/** A failed tool-call outcome authored by hookd itself (a denial, a plugin failure). */
export function failureResult(code: string, name: string, message: string): ToolFailure {
  return { isError: true, code, name, message, content: [{ type: "text", text: `Error: ${message}` }], contexts: [] };
}

/** A context message sourced to a plugin. */
export function pluginMessage(pluginName: string, content: string | readonly ContentBlock[]): AgentMessage {
  return {
    id: "",
    role: "user",
    content: typeof content === "string" ? [text(content)] : content,
    source: { kind: "plugin", name: pluginName },
  };
}

export function assistantMessage(content: string | readonly ContentBlock[]): AgentMessage {
  return { id: "", role: "assistant", content: typeof content === "string" ? [text(content)] : content, source: { kind: "model" } };
}

/** The text of a message's text blocks, joined by newlines. */
export function messageText(message: Pick<AgentMessage, "content">): string {
  return message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}
