// A hookd event to the stdin JSON of a Gemini CLI command hook, as Gemini 0.61 writes it: the
// common fields (session_id, transcript_path, cwd, hook_event_name, timestamp; no trailing
// newline) and the event's own (source, reason, prompt, tool_name/tool_input, tool_response
// {llmContent, returnDisplay, error?}, prompt_response/stop_hook_active). Tool arguments are
// written losslessly. Owns the wire shape only.
import { messageText, toJsonText } from "@hookd/sdk";
import type {
  ContentBlock,
  JsonValue,
  PostToolEvent,
  PreStepEvent,
  PreToolEvent,
  SessionEndEvent,
  SessionEndReason,
  SessionInfo,
  SessionStartEvent,
  ToolCall,
  TurnStoppingEvent,
} from "@hookd/sdk";
import type { PayloadExtras } from "../payload.js";

function contentText(content: readonly ContentBlock[]): string {
  return content.map((block) => (block.type === "text" ? block.text : block.type === "json" ? block.json : `[image ${block.uri}]`)).join("\n");
}

export type GeminiPayloadInput =
  | { readonly event: "SessionStart"; readonly data: SessionStartEvent }
  | { readonly event: "SessionEnd"; readonly data: SessionEndEvent }
  | { readonly event: "BeforeAgent"; readonly data: PreStepEvent; readonly prompt: string }
  | { readonly event: "BeforeTool"; readonly data: PreToolEvent }
  | { readonly event: "AfterTool"; readonly data: PostToolEvent }
  | { readonly event: "AfterAgent"; readonly data: TurnStoppingEvent };

/** hookd's session-end reasons in Gemini's words (what a SessionEnd matcher compares). */
export const GEMINI_END_REASON: Readonly<Record<SessionEndReason, string>> = {
  closed: "exit",
  cleared: "clear",
  disconnected: "other",
  expired: "other",
  daemon_stopping: "other",
};

/** The trigger a SessionStart / SessionEnd matcher is compared with. */
export function geminiTrigger(input: GeminiPayloadInput): string | undefined {
  if (input.event === "SessionStart") return input.data.source;
  if (input.event === "SessionEnd") return GEMINI_END_REASON[input.data.reason];
  return undefined;
}

function toolFields(call: ToolCall): Record<string, JsonValue> {
  return { tool_name: call.toolName, tool_input: call.arguments };
}

function eventFields(input: GeminiPayloadInput): Record<string, JsonValue> {
  switch (input.event) {
    case "SessionStart":
      return { source: input.data.source };
    case "SessionEnd":
      return { reason: GEMINI_END_REASON[input.data.reason] };
    case "BeforeAgent":
      return { prompt: input.prompt };
    case "BeforeTool":
      return toolFields(input.data.call);
    case "AfterTool": {
      const { call, result } = input.data;
      const shown = contentText(result.content);
      const response: JsonValue = result.isError
        ? { llmContent: shown, returnDisplay: shown, error: { message: result.message, type: result.code } }
        : { llmContent: typeof result.value === "string" ? result.value : shown, returnDisplay: shown };
      return { ...toolFields(call), tool_response: response };
    }
    case "AfterAgent": {
      const last = input.data.lastAssistantMessage;
      return { prompt: "", prompt_response: last === undefined ? "" : messageText(last), stop_hook_active: input.data.stopHookActive };
    }
  }
}

export function buildGeminiPayload(input: GeminiPayloadInput, now: Date = new Date(), extras: PayloadExtras = {}): string {
  const session: SessionInfo = input.data.session;
  return toJsonText(
    { session_id: session.sessionId, transcript_path: extras.transcriptPath ?? "", cwd: session.cwd, hook_event_name: input.event, timestamp: now.toISOString(), ...eventFields(input) },
    "payload",
  );
}
