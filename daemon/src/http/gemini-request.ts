// A Gemini CLI hook request body (what a Gemini command hook reads on stdin, forwarded by
// `hookd hook --dialect gemini`) to a typed hookd event. Gemini's names and fields differ from
// Claude Code's: BeforeAgent carries the prompt, BeforeTool/AfterTool carry tool_name and
// tool_input but no call id (hookd seals one), AfterTool's tool_response is
// {llmContent, returnDisplay, error?}, AfterAgent carries prompt_response and stop_hook_active,
// SessionEnd a reason of its own vocabulary. Every problem is a field error naming the field.
// The five events with no typed point (BeforeModel, AfterModel, BeforeToolSelection, PreCompress,
// Notification) come back as "observed" with their whole body. Owns the request shape only.
import { assistantMessage, failureResult, userMessage } from "@hookd/sdk";
import { fieldError, snapshotParsed } from "@hookd/sdk/internal";
import type {
  JsonValue,
  PostToolEvent,
  PreStepEvent,
  PreToolEvent,
  SessionEndEvent,
  SessionEndReason,
  SessionInfo,
  SessionSource,
  SessionStartEvent,
  ToolResult,
  TurnStoppingEvent,
} from "@hookd/sdk";
import { sealCall } from "../engine/pipeline/seal.js";
import { GEMINI_HOOK_EVENTS } from "../plugins/command/gemini/parse.js";
import type { GeminiHookEvent } from "../plugins/command/gemini/parse.js";
import { isObject, parseBody, str } from "./body.js";
import type { Body } from "./body.js";
import { passThroughOf } from "./request.js";
import type { PassThrough } from "./request.js";

/** Gemini CLI 0.61's hook events, in its spelling: one list, the command kind's. */
export { GEMINI_HOOK_EVENTS as GEMINI_EVENTS } from "../plugins/command/gemini/parse.js";
export type GeminiEvent = GeminiHookEvent;

/** The events hookd observes only (no typed point fits their semantics). */
export type GeminiObservedEvent = Exclude<GeminiEvent, "SessionStart" | "SessionEnd" | "BeforeAgent" | "AfterAgent" | "BeforeTool" | "AfterTool">;

/** One Gemini request: its typed event, its session and what the payload told about the session. */
export type GeminiRequest = GeminiTyped & { readonly session: SessionInfo; readonly passThrough: PassThrough };

type GeminiTyped =
  | { readonly event: "SessionStart"; readonly data: SessionStartEvent }
  | { readonly event: "SessionEnd"; readonly data: SessionEndEvent }
  | { readonly event: "BeforeAgent"; readonly data: PreStepEvent; readonly prompt: string }
  | { readonly event: "BeforeTool"; readonly data: PreToolEvent }
  | { readonly event: "AfterTool"; readonly data: PostToolEvent }
  | { readonly event: "AfterAgent"; readonly data: TurnStoppingEvent }
  | { readonly event: GeminiObservedEvent; readonly session: SessionInfo; readonly payload: JsonValue };

export interface GeminiRequestContext {
  readonly agentId: string;
  /** The event the URL names, if any: it must agree with hook_event_name. */
  readonly expectedEvent?: string;
  /** Steered continuations this session already had, given AfterAgent's stop_hook_active. */
  readonly steeredContinuations: (sessionId: string, stopHookActive: boolean) => number;
}

/** Gemini's SessionStart sources are a subset of hookd's. */
const SOURCES: readonly SessionSource[] = ["startup", "resume", "clear"];

/** Gemini's SessionEnd reasons to hookd's; the agent's own word is kept as the detail. */
const END_REASONS: Readonly<Record<string, SessionEndReason>> = {
  exit: "closed",
  clear: "cleared",
  logout: "closed",
  prompt_input_exit: "closed",
  other: "closed",
};

function isGeminiEvent(name: string): name is GeminiEvent {
  return (GEMINI_HOOK_EVENTS as readonly string[]).includes(name);
}

function sealed(body: Body, session: SessionInfo) {
  const toolName = str(body, "tool_name", { required: true }) ?? "";
  if (toolName === "") throw fieldError("tool_name", "must not be empty");
  const input = body.tool_input;
  if (input !== undefined && !isObject(input)) throw fieldError("tool_input", "expected an object");
  // Gemini sends no call id: sealing gives the call a fresh one.
  const result = sealCall({ toolName, arguments: input ?? {}, argumentsParsedHere: true }, { sessionId: session.sessionId, turn: 0, step: 0 }, () => undefined);
  if (!result.ok) throw fieldError("tool_input", result.failure.message);
  return result.call;
}

/** AfterTool's tool_response: the model sees llmContent; an `error` member marks a failed call. */
function toolResult(value: JsonValue | undefined): ToolResult {
  if (value !== undefined && value !== null && !isObject(value)) throw fieldError("tool_response", "expected an object");
  const response: Body = value ?? {};
  const error = response.error;
  if (error !== undefined && error !== null) {
    const message = isObject(error) && typeof error.message === "string" ? error.message : snapshotParsed(error, "tool_response.error").text;
    const name = isObject(error) && typeof error.type === "string" ? error.type : "tool_error";
    return failureResult("tool_error", name, message);
  }
  const content = response.llmContent ?? null;
  const snapshot = snapshotParsed(content, "tool_response.llmContent");
  return {
    isError: false,
    value: snapshot.value,
    content: [typeof snapshot.value === "string" ? { type: "text", text: snapshot.value } : { type: "json", json: snapshot.text }],
    contexts: [],
  };
}

/** Reads a Gemini request body. Throws a field error naming the field. */
export function readGeminiRequest(text: string, context: GeminiRequestContext): GeminiRequest {
  const body = parseBody(text);
  const event = str(body, "hook_event_name", { required: context.expectedEvent === undefined }) ?? context.expectedEvent ?? "";
  if (context.expectedEvent !== undefined && event !== context.expectedEvent) {
    throw fieldError("hook_event_name", `is ${JSON.stringify(event)} but the request names ${JSON.stringify(context.expectedEvent)}`);
  }
  if (!isGeminiEvent(event)) throw fieldError("hook_event_name", `expected a Gemini CLI hook event (${GEMINI_HOOK_EVENTS.join(", ")}), got ${JSON.stringify(event)}`);
  const sessionId = str(body, "session_id", { required: true }) ?? "";
  if (sessionId === "") throw fieldError("session_id", "must not be empty");
  const session: SessionInfo = { sessionId, agentId: context.agentId, cwd: str(body, "cwd", { required: false }) ?? "" };
  return { ...typed(event, body, session, context), session, passThrough: passThroughOf(body) };
}

function typed(event: GeminiEvent, body: Body, session: SessionInfo, context: GeminiRequestContext): GeminiTyped {
  switch (event) {
    case "SessionStart": {
      const source = str(body, "source", { required: false }) ?? "startup";
      if (!(SOURCES as readonly string[]).includes(source)) throw fieldError("source", `expected one of ${SOURCES.join(", ")}`);
      return { event, data: { session, source: source as SessionSource, tools: [] } };
    }
    case "SessionEnd": {
      const reason = str(body, "reason", { required: false }) ?? "other";
      const mapped = END_REASONS[reason];
      if (mapped === undefined) throw fieldError("reason", `expected one of ${Object.keys(END_REASONS).join(", ")}`);
      return { event, data: { session, reason: mapped, detail: `gemini: ${reason}`, turns: 0 } };
    }
    case "BeforeAgent": {
      const prompt = str(body, "prompt", { required: true }) ?? "";
      return { event, prompt, data: { session, turn: 0, step: 0, messages: [userMessage(prompt)] } };
    }
    case "BeforeTool":
      return { event, data: { session, call: sealed(body, session) } };
    case "AfterTool":
      return { event, data: { session, call: sealed(body, session), result: toolResult(body.tool_response) } };
    case "AfterAgent": {
      const active = body.stop_hook_active;
      if (active !== undefined && active !== null && typeof active !== "boolean") throw fieldError("stop_hook_active", "expected true or false");
      const last = str(body, "prompt_response", { required: false });
      return {
        event,
        data: {
          session,
          turn: 0,
          step: 0,
          stopHookActive: active === true,
          steeredContinuations: context.steeredContinuations(session.sessionId, active === true),
          ...(last === undefined ? {} : { lastAssistantMessage: assistantMessage(last) }),
        },
      };
    }
    case "BeforeModel":
    case "AfterModel":
    case "BeforeToolSelection":
    case "PreCompress":
    case "Notification":
      return { event, session, payload: body };
  }
}
