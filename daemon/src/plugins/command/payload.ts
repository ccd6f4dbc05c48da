// A hookd event to the stdin JSON of a command hook, per dialect, as the agents write it: the
// common fields (session_id, transcript_path, cwd, permission_mode, hook_event_name; Codex adds
// turn_id and model), then the event's own (tool_name/tool_input/tool_use_id, tool_response,
// prompt, source, stop_hook_active). Claude Code ends the text with "\n", Codex does not. Tool
// arguments and values are written losslessly, digit for digit. Owns the wire shape only.
import { messageText, toJsonText } from "@hookd/sdk";
import type { JsonValue, PostToolEvent, PreStepEvent, PreToolEvent, SessionInfo, SessionStartEvent, TurnStoppingEvent } from "@hookd/sdk";
import { DIALECTS } from "./dialect.js";
import type { Dialect } from "./dialect.js";

export type PayloadInput =
  | { readonly event: "SessionStart"; readonly data: SessionStartEvent }
  | { readonly event: "UserPromptSubmit"; readonly data: PreStepEvent; readonly prompt: string }
  | { readonly event: "PreToolUse"; readonly data: PreToolEvent }
  | { readonly event: "PostToolUse"; readonly data: PostToolEvent }
  | { readonly event: "Stop"; readonly data: TurnStoppingEvent };

/** What hookd does not know about a session and reports as such. */
export interface PayloadExtras {
  /** The agent's transcript file, when known. */
  readonly transcriptPath?: string;
  /** The model, when known (Codex sends it; "" otherwise). */
  readonly model?: string;
}

/** The prompt of a pre-step batch: its user-authored messages' text; undefined when there is none. */
export function promptOf(event: PreStepEvent): string | undefined {
  const texts = event.messages.filter((m) => m.role === "user" && m.source.kind === "user").map(messageText);
  return texts.length === 0 ? undefined : texts.join("\n\n");
}

function turnOf(input: PayloadInput): number {
  return "turn" in input.data ? input.data.turn : input.event === "PreToolUse" || input.event === "PostToolUse" ? input.data.call.turn : 0;
}

/** The stdin text for one firing of `input.event`. Total for every valid event. */
export function buildPayload(dialect: Dialect, input: PayloadInput, extras: PayloadExtras = {}): string {
  const spec = DIALECTS[dialect];
  const session: SessionInfo = input.data.session;
  const payload: Record<string, JsonValue> = {
    session_id: session.sessionId,
    ...(spec.turnAndModel ? { turn_id: String(turnOf(input)) } : {}),
    transcript_path: extras.transcriptPath ?? spec.unknownTranscript,
    cwd: session.cwd,
    permission_mode: "default",
    hook_event_name: input.event,
    ...(spec.turnAndModel ? { model: extras.model ?? "" } : {}),
    ...eventFields(dialect, input),
  };
  const text = toJsonText(payload, "payload");
  return spec.trailingNewline ? `${text}\n` : text;
}

function eventFields(dialect: Dialect, input: PayloadInput): Record<string, JsonValue> {
  switch (input.event) {
    case "SessionStart":
      return { source: input.data.source };
    case "UserPromptSubmit":
      return { prompt: input.prompt };
    case "PreToolUse":
      return { tool_name: input.data.call.toolName, tool_input: input.data.call.arguments, tool_use_id: input.data.call.callId };
    case "PostToolUse": {
      const { call, result } = input.data;
      const response: JsonValue = result.isError ? { is_error: true, error: result.message, code: result.code } : result.value;
      return { tool_name: call.toolName, tool_input: call.arguments, tool_response: response, tool_use_id: call.callId };
    }
    case "Stop": {
      const last = input.data.lastAssistantMessage;
      const lastText = last === undefined ? undefined : messageText(last);
      return {
        stop_hook_active: input.data.stopHookActive,
        ...(lastText !== undefined ? { last_assistant_message: lastText } : dialect === "codex" ? { last_assistant_message: null } : {}),
      };
    }
  }
}
