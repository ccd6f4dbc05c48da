// A hookd event to the stdin JSON of a Claude-Code-style command hook, as the agents write it: the
// common fields (session_id, transcript_path, cwd, permission_mode, hook_event_name; Codex adds
// turn_id and model; a subagent's events add agent_id and agent_type and carry the parent's
// session_id, as both agents send them), then the event's own. Claude Code ends the text with
// "\n", Codex does not. Tool arguments and values are written losslessly, digit for digit. Owns
// the wire shape only.
import { messageText, toJsonText } from "@hookd/sdk";
import type { AgentEventEvent, AgentMessage, ToolResult, ApprovalEvent, JsonValue, PostToolEvent, PreStepEvent, PreToolEvent, SessionEndEvent, SessionEndReason, SessionInfo, SessionStartEvent, TurnEndEvent, TurnStoppingEvent } from "@hookd/sdk";
import { isObject } from "../body.js";
import type { Firing, PayloadExtras } from "../contract.js";

/** Where the agents that write Claude Code's payload differ. */
export interface PayloadFacts {
  /** Claude Code writes the payload followed by "\n"; Codex writes the bare JSON text. */
  readonly trailingNewline: boolean;
  /** `transcript_path` when hookd knows no transcript: Claude Code sends a string, Codex null. */
  readonly unknownTranscript: "" | null;
  /** Codex adds `turn_id` and `model` to every payload. */
  readonly turnAndModel: boolean;
  /** The reason a SessionEnd hook is told, and its matcher sees. */
  readonly endReason: (reason: SessionEndReason) => string;
  /** The agent adds the firing's time (ISO) to every payload (Qwen Code). */
  readonly timestamp?: boolean;
  /** Interrupt's own fields (Claude Code: who stopped the turn and why; Codex sends none). */
  readonly interruptFields?: { readonly [key: string]: JsonValue };
  /** The agent sends no tool_use_id with its tool events (Factory Droid). */
  readonly noToolUseId?: boolean;
  /** How a successful tool's response is written (default: the value the model saw). */
  readonly toolResponse?: (result: ToolResult & { readonly isError: false }) => JsonValue;
}

function turnOf(input: Firing): number {
  const data = input.data as object;
  if ("turn" in data && typeof data.turn === "number") return data.turn;
  if ("call" in data) return (data as { call: { turn: number } }).call.turn;
  return 0;
}

/** Claude Code's SessionEnd reasons. */
const END_REASON: Readonly<Record<SessionEndReason, string>> = {
  closed: "other",
  cleared: "clear",
  disconnected: "other",
  expired: "other",
  daemon_stopping: "other",
};

export const CLAUDE_PAYLOAD: PayloadFacts = { trailingNewline: true, unknownTranscript: "", turnAndModel: false, endReason: (reason) => END_REASON[reason] };

/** The common fields every payload starts with (a subagent's carry its parent's session_id). */
function commonFields(spec: PayloadFacts, session: SessionInfo, extras: PayloadExtras, turn: number): Record<string, JsonValue> {
  const sub = session.parentSessionId;
  return {
    session_id: sub ?? session.sessionId,
    ...(spec.turnAndModel ? { turn_id: String(turn) } : {}),
    transcript_path: extras.transcriptPath ?? spec.unknownTranscript,
    cwd: session.cwd,
    permission_mode: extras.permissionMode ?? "default",
    ...(spec.turnAndModel ? { model: extras.model ?? "" } : {}),
    ...(sub === undefined ? {} : { agent_id: session.sessionId, agent_type: session.agentType ?? "" }),
    ...(spec.timestamp === true ? { timestamp: new Date().toISOString() } : {}),
  };
}

/** The stdin text for one firing. Total for every event of the table. */
export function buildPayload(spec: PayloadFacts, input: Firing, extras: PayloadExtras = {}): string {
  const session: SessionInfo = (input.data as { session: SessionInfo }).session;
  const payload: Record<string, JsonValue> = { ...commonFields(spec, session, extras, turnOf(input)), hook_event_name: input.event, ...eventFields(spec, input) };
  const text = toJsonText(payload, "payload");
  return spec.trailingNewline ? `${text}\n` : text;
}

/** An observed event's stdin text: the common fields, then the agent's payload (which wins), named as the event. */
export function buildObservedPayload(spec: PayloadFacts, event: AgentEventEvent, extras: PayloadExtras): string {
  const own = isObject(event.payload) ? event.payload : {};
  const text = toJsonText({ ...commonFields(spec, event.session, extras, 0), ...own, hook_event_name: event.eventName }, "payload");
  return spec.trailingNewline ? `${text}\n` : text;
}

function lastMessage(spec: PayloadFacts, last: AgentMessage | undefined): Record<string, JsonValue> {
  const text = last === undefined ? undefined : messageText(last);
  return text !== undefined ? { last_assistant_message: text } : spec.unknownTranscript === null ? { last_assistant_message: null } : {};
}

function eventFields(spec: PayloadFacts, firing: Firing): Record<string, JsonValue> {
  const fields = ownFields(spec, firing);
  if (spec.noToolUseId !== true) return fields;
  const { tool_use_id: _omitted, ...rest } = fields;
  return rest;
}

function ownFields(spec: PayloadFacts, firing: Firing): Record<string, JsonValue> {
  const input = firing as PayloadInput;
  switch (input.event) {
    case "SessionStart":
      return { source: input.data.source };
    case "SubagentStart":
      return {};
    case "UserPromptSubmit":
      return { prompt: input.prompt };
    case "PreToolUse":
      return { tool_name: input.data.call.toolName, tool_input: input.data.call.arguments, tool_use_id: input.data.call.callId };
    case "PermissionRequest":
      return { tool_name: input.data.call.toolName, tool_input: input.data.call.arguments, tool_use_id: input.data.call.callId };
    case "PostToolUse": {
      const { call, result } = input.data;
      const response: JsonValue = result.isError ? { is_error: true, error: result.message, code: result.code } : (spec.toolResponse?.(result) ?? result.value);
      return { tool_name: call.toolName, tool_input: call.arguments, tool_response: response, tool_use_id: call.callId };
    }
    case "PostToolUseFailure": {
      const { call, result } = input.data;
      const error = result.isError ? result.message : "";
      return { tool_name: call.toolName, tool_input: call.arguments, tool_use_id: call.callId, error, is_interrupt: false };
    }
    case "Stop":
    case "SubagentStop":
      return { stop_hook_active: input.data.stopHookActive, ...lastMessage(spec, input.data.lastAssistantMessage) };
    case "SessionEnd":
      return { reason: spec.endReason(input.data.reason) };
    case "StopFailure":
      // hookd knows that the turn failed, not the API error's type.
      return { error: "unknown", error_details: input.data.detail };
    case "Interrupt":
      return { ...spec.interruptFields };
    default:
      return {};
  }
}

/** The firings of this table, by event: what each event's data is. */
type PayloadInput =
  | { readonly event: "SessionStart" | "SubagentStart"; readonly data: SessionStartEvent }
  | { readonly event: "UserPromptSubmit"; readonly data: PreStepEvent; readonly prompt: string }
  | { readonly event: "PreToolUse"; readonly data: PreToolEvent }
  | { readonly event: "PermissionRequest"; readonly data: ApprovalEvent }
  | { readonly event: "PostToolUse" | "PostToolUseFailure"; readonly data: PostToolEvent }
  | { readonly event: "Stop" | "SubagentStop"; readonly data: TurnStoppingEvent }
  | { readonly event: "SessionEnd"; readonly data: SessionEndEvent }
  | { readonly event: "StopFailure" | "Interrupt"; readonly data: TurnEndEvent }
  | { readonly event: "(other)"; readonly data: unknown };
