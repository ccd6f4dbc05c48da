// Event builders: every point's typed event with sensible defaults (a session, fresh call ids,
// turn 1, step 1), each field overridable. Agent authors use them so they never assemble a
// ToolCall's ids, argumentsJson, turn and step by hand; @hookd/sdk/testing re-exports them for
// plugin tests. Builds values only; knows nothing of how an event is sent.
import { randomUUID } from "node:crypto";
import { toolSuccess } from "./agent/results.js";
import { HookdError } from "./errors.js";
import { snapshotJson, snapshotJsonText } from "./json.js";
import type { JsonValue } from "./json.js";
import type { AgentDialect, AgentEventEvent } from "./points/agent-event.js";
import type { ApprovalEvent } from "./points/approval.js";
import type { PreStepEvent } from "./points/pre-step.js";
import type { SessionEndEvent } from "./points/session-end.js";
import type { SessionStartEvent } from "./points/session-start.js";
import type { ToolCallEvent, ToolOutcomeEvent } from "./points/tool-events.js";
import type { TurnEndEvent, TurnEndOutcome } from "./points/turn-end.js";
import type { TurnStoppingEvent } from "./points/turn-stopping.js";
import { assistantMessage, userMessage } from "./types.js";
import type { AgentMessage, SessionEndReason, SessionInfo, SessionSource, ToolCall, ToolDefinitionInfo, ToolResult } from "./types.js";

/** The session every builder uses unless told otherwise. */
export const DEFAULT_SESSION: SessionInfo = Object.freeze({ sessionId: "session-1", agentId: "agent", cwd: "/" });

/** A session: DEFAULT_SESSION with `overrides` applied. */
export function sessionInfo(overrides: Partial<SessionInfo> = {}): SessionInfo {
  return Object.freeze({ ...DEFAULT_SESSION, ...overrides });
}

/** What a tool call's builder may set; the rest gets defaults (a fresh call id, turn 1, step 1). */
export interface ToolCallOptions {
  /** Default "call-<random uuid>". */
  readonly callId?: string;
  /** Default: the call id (a top-level call). */
  readonly rootCallId?: string;
  readonly parentCallId?: string;
  /** Default DEFAULT_SESSION's id; an event builder uses its session's. */
  readonly sessionId?: string;
  readonly turn?: number;
  readonly step?: number;
}

/**
 * A sealed tool call of `toolName` with `args` (any JSON value, sealed losslessly and frozen).
 * Pass the agent's JSON text through `toolCallFromJson` instead to keep big integers intact.
 */
export function toolCall(toolName: string, args: unknown = {}, options: ToolCallOptions = {}): ToolCall {
  return sealedCall(toolName, snapshotJson(args, "arguments"), options);
}

/** A tool call whose arguments are the JSON text the agent sent (parsed losslessly: 2^63-1 stays exact). */
export function toolCallFromJson(toolName: string, argumentsJson: string, options: ToolCallOptions = {}): ToolCall {
  return sealedCall(toolName, snapshotJsonText(argumentsJson, "arguments"), options);
}

function sealedCall(toolName: string, args: { readonly value: JsonValue; readonly text: string }, options: ToolCallOptions): ToolCall {
  if (typeof toolName !== "string" || toolName === "") throw new HookdError("invalid_argument", "toolName: expected a non-empty string");
  for (const field of ["turn", "step"] as const) {
    const value = options[field];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) throw new HookdError("invalid_argument", `${field}: expected a non-negative integer`);
  }
  const callId = options.callId ?? `call-${randomUUID()}`;
  return Object.freeze({
    callId,
    rootCallId: options.rootCallId ?? callId,
    ...(options.parentCallId === undefined ? {} : { parentCallId: options.parentCallId }),
    toolName,
    arguments: args.value,
    argumentsJson: args.text,
    sessionId: options.sessionId ?? DEFAULT_SESSION.sessionId,
    turn: options.turn ?? 1,
    step: options.step ?? 1,
  });
}

/** Options of the tool-point builders: the call's fields and the session (whose id the call takes). */
export interface ToolEventOptions extends Omit<ToolCallOptions, "sessionId"> {
  readonly session?: Partial<SessionInfo>;
}

/** Options of the other builders. */
export interface SessionEventOptions {
  readonly session?: Partial<SessionInfo>;
}

type Said = string | AgentMessage;

const asUser = (said: Said): AgentMessage => (typeof said === "string" ? userMessage(said) : said);

function callEvent(toolName: string, args: unknown, options: ToolEventOptions): ToolCallEvent {
  const { session: sessionOverrides, ...callOptions } = options;
  const session = sessionInfo(sessionOverrides);
  return Object.freeze({ session, call: toolCall(toolName, args, { ...callOptions, sessionId: session.sessionId }) });
}

/** Builders of every point's event; each returns a frozen event ready for a handler or an evaluate call. */
export const events = Object.freeze({
  sessionStart(options: SessionEventOptions & { readonly source?: SessionSource; readonly tools?: readonly ToolDefinitionInfo[] } = {}): SessionStartEvent {
    return Object.freeze({ session: sessionInfo(options.session), source: options.source ?? "startup", tools: options.tools ?? [] });
  },
  /** The claimed batch: strings become user messages. */
  preStep(messages: Said | readonly Said[], options: SessionEventOptions & { readonly turn?: number; readonly step?: number } = {}): PreStepEvent {
    const batch = (Array.isArray(messages) ? messages : [messages]) as readonly Said[];
    return Object.freeze({ session: sessionInfo(options.session), turn: options.turn ?? 1, step: options.step ?? 1, messages: batch.map(asUser) });
  },
  rewrite: (toolName: string, args: unknown = {}, options: ToolEventOptions = {}): ToolCallEvent => callEvent(toolName, args, options),
  preTool: (toolName: string, args: unknown = {}, options: ToolEventOptions = {}): ToolCallEvent => callEvent(toolName, args, options),
  guard: (toolName: string, args: unknown = {}, options: ToolEventOptions = {}): ToolCallEvent => callEvent(toolName, args, options),
  execute: (toolName: string, args: unknown = {}, options: ToolEventOptions = {}): ToolCallEvent => callEvent(toolName, args, options),
  /** The question a pre-tool plugin asked; default reason "approve?", asked by "asker". */
  approval(toolName: string, args: unknown = {}, options: ToolEventOptions & { readonly reason?: string; readonly askedBy?: string } = {}): ApprovalEvent {
    const { reason, askedBy, ...rest } = options;
    return Object.freeze({ ...callEvent(toolName, args, rest), reason: reason ?? "approve?", askedBy: askedBy ?? "asker" });
  },
  /** `result` defaults to a success whose value is null; build others with toolSuccess / toolFailure. */
  postTool(toolName: string, args: unknown = {}, result: ToolResult = toolSuccess(null), options: ToolEventOptions = {}): ToolOutcomeEvent {
    return Object.freeze({ ...callEvent(toolName, args, options), result });
  },
  toolResult(toolName: string, args: unknown = {}, result: ToolResult = toolSuccess(null), options: ToolEventOptions = {}): ToolOutcomeEvent {
    return Object.freeze({ ...callEvent(toolName, args, options), result });
  },
  turnStopping(
    options: SessionEventOptions & {
      /** A string becomes an assistant message. */
      readonly lastAssistantMessage?: Said;
      readonly turn?: number;
      readonly step?: number;
      readonly stopHookActive?: boolean;
      readonly steeredContinuations?: number;
    } = {},
  ): TurnStoppingEvent {
    const last = options.lastAssistantMessage;
    return Object.freeze({
      session: sessionInfo(options.session),
      turn: options.turn ?? 1,
      step: options.step ?? 1,
      stopHookActive: options.stopHookActive ?? false,
      steeredContinuations: options.steeredContinuations ?? 0,
      ...(last === undefined ? {} : { lastAssistantMessage: typeof last === "string" ? assistantMessage(last) : last }),
    });
  },
  turnEnd(options: SessionEventOptions & { readonly turn?: number; readonly outcome?: TurnEndOutcome; readonly detail?: string; readonly steps?: number } = {}): TurnEndEvent {
    return Object.freeze({ session: sessionInfo(options.session), turn: options.turn ?? 1, outcome: options.outcome ?? "completed", detail: options.detail ?? "", steps: options.steps ?? 1 });
  },
  sessionEnd(options: SessionEventOptions & { readonly reason?: SessionEndReason; readonly detail?: string; readonly turns?: number } = {}): SessionEndEvent {
    return Object.freeze({ session: sessionInfo(options.session), reason: options.reason ?? "closed", detail: options.detail ?? "", turns: options.turns ?? 1 });
  },
  /** An agent's own event; `payload` is sealed losslessly. Default dialect "claude-code". */
  agentEvent(eventName: string, payload: unknown = {}, options: SessionEventOptions & { readonly dialect?: AgentDialect } = {}): AgentEventEvent {
    return Object.freeze({ session: sessionInfo(options.session), dialect: options.dialect ?? "claude-code", eventName, payload: snapshotJson(payload, "payload").value });
  },
});
