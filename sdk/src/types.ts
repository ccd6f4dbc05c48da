// The typed vocabulary plugins and the engine share: points, messages, sealed tool calls, tool
// results and session facts. Plain readonly data; the protobuf forms live in gen/ and convert.ts
// maps between the two exactly.
import type { JsonObject, JsonValue } from "./json.js";

/** The extension points, in firing order. A closed list: anything else is rejected. */
export const POINTS = [
  "session-start",
  "pre-step",
  "pre-tool",
  "guard",
  "execute",
  "post-tool",
  "tool-result",
  "turn-stopping",
] as const;
export type PointName = (typeof POINTS)[number];

/** Points whose events concern one tool call, so tool matchers apply. */
export const TOOL_POINTS: ReadonlySet<PointName> = new Set(["pre-tool", "guard", "execute", "post-tool", "tool-result"]);

export function isPointName(value: unknown): value is PointName {
  return typeof value === "string" && (POINTS as readonly string[]).includes(value);
}

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
}

export type SessionSource = "startup" | "resume" | "clear" | "compact";

export interface ToolDefinitionInfo {
  readonly name: string;
  readonly description: string;
  /** JSON Schema text, or "" when the agent declared none. */
  readonly inputSchemaJson: string;
  readonly concurrencySafe: boolean;
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

// ---- small constructors --------------------------------------------------------------------

export function text(value: string): ContentBlock {
  return { type: "text", text: value };
}

export function userMessage(content: string | readonly ContentBlock[]): AgentMessage {
  return { id: "", role: "user", content: typeof content === "string" ? [text(content)] : content, source: { kind: "user" } };
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
