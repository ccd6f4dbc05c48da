// The typed event payload of each point: pure data, deep-frozen when handed to a plugin, and
// convertible to the protobuf events exactly. Cancellation travels beside the event (in the
// handler context), never inside it.
import type { AgentMessage, SessionInfo, SessionSource, ToolCall, ToolDefinitionInfo, ToolResult } from "./types.js";

export interface SessionStartEvent {
  readonly session: SessionInfo;
  readonly source: SessionSource;
  readonly tools: readonly ToolDefinitionInfo[];
}

export interface PreStepEvent {
  readonly session: SessionInfo;
  readonly turn: number;
  readonly step: number;
  /** The complete claimed batch; empty for a tool continuation with no new input. */
  readonly messages: readonly AgentMessage[];
}

export interface ToolCallEvent {
  readonly session: SessionInfo;
  readonly call: ToolCall;
}
export type PreToolEvent = ToolCallEvent;
export type GuardEvent = ToolCallEvent;
export type ExecuteEvent = ToolCallEvent;

export interface PostToolEvent {
  readonly session: SessionInfo;
  readonly call: ToolCall;
  /** The normalized result so far, including a denial. */
  readonly result: ToolResult;
}

export interface ToolResultEvent {
  readonly session: SessionInfo;
  readonly call: ToolCall;
  /** The authoritative final result. */
  readonly result: ToolResult;
}

export interface TurnStoppingEvent {
  readonly session: SessionInfo;
  readonly turn: number;
  readonly step: number;
  /** True when this stop follows a continuation that steering caused. */
  readonly stopHookActive: boolean;
  /** Steered continuations this turn already had. */
  readonly steeredContinuations: number;
  readonly lastAssistantMessage?: AgentMessage;
}
