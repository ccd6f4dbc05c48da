// A hookd event to the stdin JSON of a command hook, per dialect, as the agents write it: the
// common fields (session_id, transcript_path, cwd, permission_mode, hook_event_name; Codex adds
// turn_id and model; a subagent's events add agent_id and agent_type and carry the parent's
// session_id, as both agents send them), then the event's own. Claude Code ends the text with
// "\n", Codex does not. Tool arguments and values are written losslessly, digit for digit. Owns
// the wire shape only.
import { messageText, toJsonText } from "@hookd/sdk";
import type {
  AgentMessage,
  ApprovalEvent,
  JsonValue,
  PostToolEvent,
  PreStepEvent,
  PreToolEvent,
  SessionEndEvent,
  SessionEndReason,
  SessionInfo,
  SessionStartEvent,
  TurnEndEvent,
  TurnStoppingEvent,
} from "@hookd/sdk";
import { DIALECTS } from "./dialect.js";
import type { Dialect } from "./dialect.js";

export type PayloadInput =
  | { readonly event: "SessionStart" | "SubagentStart"; readonly data: SessionStartEvent }
  | { readonly event: "UserPromptSubmit"; readonly data: PreStepEvent; readonly prompt: string }
  | { readonly event: "PreToolUse"; readonly data: PreToolEvent }
  | { readonly event: "PermissionRequest"; readonly data: ApprovalEvent }
  | { readonly event: "PostToolUse" | "PostToolUseFailure"; readonly data: PostToolEvent }
  | { readonly event: "Stop" | "SubagentStop"; readonly data: TurnStoppingEvent }
  | { readonly event: "SessionEnd"; readonly data: SessionEndEvent }
  | { readonly event: "StopFailure"; readonly data: TurnEndEvent }
  | { readonly event: "Interrupt"; readonly data: TurnEndEvent };

/** What the agent told hookd about a session beyond SessionInfo, passed through when known. */
export interface PayloadExtras {
  /** The agent's transcript file. */
  readonly transcriptPath?: string;
  /** The agent's permission mode ("default", "plan", "acceptEdits", ...). */
  readonly permissionMode?: string;
  /** The model (Codex sends it; "" otherwise). */
  readonly model?: string;
}

/** The prompt of a pre-step batch: its user-authored messages' text; undefined when there is none. */
export function promptOf(event: PreStepEvent): string | undefined {
  const texts = event.messages.filter((m) => m.role === "user" && m.source.kind === "user").map(messageText);
  return texts.length === 0 ? undefined : texts.join("\n\n");
}

function turnOf(input: PayloadInput): number {
  const data: object = input.data;
  if ("turn" in data && typeof data.turn === "number") return data.turn;
  if ("call" in data) return (data as { call: { turn: number } }).call.turn;
  return 0;
}

/** Claude Code's SessionEnd reasons; Codex sends only "other". */
const END_REASON: Readonly<Record<SessionEndReason, string>> = {
  closed: "other",
  cleared: "clear",
  disconnected: "other",
  expired: "other",
  daemon_stopping: "other",
};

/** The reason a SessionEnd hook is told, and its matcher sees. */
export function endReasonOf(dialect: Dialect, reason: SessionEndReason): string {
  return dialect === "codex" ? "other" : END_REASON[reason];
}

/** The stdin text for one firing of `input.event`. Total for every valid event. */
export function buildPayload(dialect: Dialect, input: PayloadInput, extras: PayloadExtras = {}): string {
  const spec = DIALECTS[dialect];
  const session: SessionInfo = input.data.session;
  const sub = session.parentSessionId;
  const payload: Record<string, JsonValue> = {
    session_id: sub ?? session.sessionId,
    ...(spec.turnAndModel ? { turn_id: String(turnOf(input)) } : {}),
    transcript_path: extras.transcriptPath ?? spec.unknownTranscript,
    cwd: session.cwd,
    permission_mode: extras.permissionMode ?? "default",
    hook_event_name: input.event,
    ...(spec.turnAndModel ? { model: extras.model ?? "" } : {}),
    ...(sub === undefined ? {} : { agent_id: session.sessionId, agent_type: session.agentType ?? "" }),
    ...eventFields(dialect, input),
  };
  const text = toJsonText(payload, "payload");
  return spec.trailingNewline ? `${text}\n` : text;
}

function lastMessage(dialect: Dialect, last: AgentMessage | undefined): Record<string, JsonValue> {
  const text = last === undefined ? undefined : messageText(last);
  return text !== undefined ? { last_assistant_message: text } : dialect === "codex" ? { last_assistant_message: null } : {};
}

function eventFields(dialect: Dialect, input: PayloadInput): Record<string, JsonValue> {
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
      const response: JsonValue = result.isError ? { is_error: true, error: result.message, code: result.code } : result.value;
      return { tool_name: call.toolName, tool_input: call.arguments, tool_response: response, tool_use_id: call.callId };
    }
    case "PostToolUseFailure": {
      const { call, result } = input.data;
      const error = result.isError ? result.message : "";
      return { tool_name: call.toolName, tool_input: call.arguments, tool_use_id: call.callId, error, is_interrupt: false };
    }
    case "Stop":
    case "SubagentStop":
      return { stop_hook_active: input.data.stopHookActive, ...lastMessage(dialect, input.data.lastAssistantMessage) };
    case "SessionEnd":
      return { reason: endReasonOf(dialect, input.data.reason) };
    case "StopFailure":
      // hookd knows that the turn failed, not the API error's type.
      return { error: "unknown", error_details: input.data.detail };
    case "Interrupt":
      // Codex sends nothing beyond the common fields.
      return {};
  }
}
