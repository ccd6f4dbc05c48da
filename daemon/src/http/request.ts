// A Claude Code (or forwarded Codex) hook request body to a typed hookd event: the same JSON a
// command hook reads on stdin. The session is {sessionId: session_id, agentId, cwd}; a tool call
// is sealed exactly as the pipeline seals one (callId = tool_use_id, arguments from tool_input,
// parsed losslessly); turn and step are 0 (the agents do not report them). Every problem is a
// BadRequest naming the field. Owns the request shape only.
import { snapshotJson } from "@hookd/sdk";
import type {
  JsonValue,
  PostToolEvent,
  PreStepEvent,
  PreToolEvent,
  SessionInfo,
  SessionSource,
  SessionStartEvent,
  ToolResult,
  TurnStoppingEvent,
} from "@hookd/sdk";
import { LosslessNumber, assistantMessage, parseJson, userMessage } from "@hookd/sdk";
import { sealCall } from "../engine/pipeline/seal.js";

/** A request hookd cannot read; `field` names what is wrong (for the 400 answer). */
export class BadRequest extends Error {
  override readonly name = "BadRequest";
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

export type HookRequest =
  | { readonly event: "SessionStart"; readonly data: SessionStartEvent }
  | { readonly event: "UserPromptSubmit"; readonly data: PreStepEvent; readonly prompt: string }
  | { readonly event: "PreToolUse"; readonly data: PreToolEvent }
  | { readonly event: "PostToolUse"; readonly data: PostToolEvent }
  | { readonly event: "Stop"; readonly data: TurnStoppingEvent }
  /** An event hookd has no point for (Notification, SubagentStop, ...): answered with no opinion. */
  | { readonly event: "unsupported"; readonly name: string };

export interface RequestContext {
  readonly agentId: string;
  /** The event the URL or a header names, if any: it must agree with hook_event_name. */
  readonly expectedEvent?: string;
  /**
   * Steered continuations this turn already had, given the stop's stop_hook_active (the agents
   * report only the flag; the server counts consecutive hook-driven stops per session).
   */
  readonly steeredContinuations: (sessionId: string, stopHookActive: boolean) => number;
}

const SOURCES: readonly SessionSource[] = ["startup", "resume", "clear", "compact"];

type Body = { readonly [key: string]: JsonValue };

function isObject(value: JsonValue | undefined): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);
}

function str(body: Body, field: string, options: { required: boolean; nonEmpty?: boolean }): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (options.required) throw new BadRequest(field, "required");
    return undefined;
  }
  if (typeof value !== "string") throw new BadRequest(field, `expected a string, got ${Array.isArray(value) ? "an array" : typeof value}`);
  if (options.nonEmpty === true && value === "") throw new BadRequest(field, "must not be empty");
  return value;
}

function bool(body: Body, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new BadRequest(field, "expected true or false");
  return value;
}

/** The content the model saw for a tool response: its text when it is a string, else its JSON. */
function responseResult(value: JsonValue): ToolResult {
  const snapshot = snapshotJson(value, "tool_response");
  return {
    isError: false,
    value: snapshot.value,
    content: [typeof snapshot.value === "string" ? { type: "text", text: snapshot.value } : { type: "json", json: snapshot.text }],
    contexts: [],
  };
}

function sealed(body: Body, session: SessionInfo, field: "tool_input") {
  const toolName = str(body, "tool_name", { required: true, nonEmpty: true }) ?? "";
  const callId = str(body, "tool_use_id", { required: false }) ?? "";
  const input = body[field];
  if (input !== undefined && !isObject(input)) throw new BadRequest(field, "expected an object");
  const result = sealCall({ callId, toolName, arguments: input ?? {} }, { sessionId: session.sessionId, turn: 0, step: 0 }, () => undefined);
  if (!result.ok) throw new BadRequest(field, result.failure.message);
  return result.call;
}

/** Reads a request body. Throws BadRequest naming the field. */
export function readHookRequest(text: string, context: RequestContext): HookRequest {
  let parsed: JsonValue;
  try {
    parsed = parseJson(text);
  } catch (error) {
    throw new BadRequest("(body)", `not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new BadRequest("(body)", "expected a JSON object");
  const body = parsed;
  const event = str(body, "hook_event_name", { required: context.expectedEvent === undefined }) ?? context.expectedEvent ?? "";
  if (context.expectedEvent !== undefined && event !== context.expectedEvent) {
    throw new BadRequest("hook_event_name", `is ${JSON.stringify(event)} but the request names ${JSON.stringify(context.expectedEvent)}`);
  }
  const session: SessionInfo = {
    sessionId: str(body, "session_id", { required: true, nonEmpty: true }) ?? "",
    agentId: context.agentId,
    cwd: str(body, "cwd", { required: false }) ?? "",
  };
  switch (event) {
    case "SessionStart": {
      const source = str(body, "source", { required: false }) ?? "startup";
      if (!(SOURCES as readonly string[]).includes(source)) throw new BadRequest("source", `expected one of ${SOURCES.join(", ")}`);
      return { event, data: { session, source: source as SessionSource, tools: [] } };
    }
    case "UserPromptSubmit": {
      const prompt = str(body, "prompt", { required: true }) ?? "";
      return { event, prompt, data: { session, turn: 0, step: 0, messages: [userMessage(prompt)] } };
    }
    case "PreToolUse":
      return { event, data: { session, call: sealed(body, session, "tool_input") } };
    case "PostToolUse": {
      const call = sealed(body, session, "tool_input");
      return { event, data: { session, call, result: responseResult(body.tool_response ?? null) } };
    }
    case "Stop": {
      const active = bool(body, "stop_hook_active");
      const last = str(body, "last_assistant_message", { required: false });
      return {
        event,
        data: {
          session,
          turn: 0,
          step: 0,
          stopHookActive: active,
          steeredContinuations: context.steeredContinuations(session.sessionId, active),
          ...(last === undefined ? {} : { lastAssistantMessage: assistantMessage(last) }),
        },
      };
    }
    default:
      if (event === "") throw new BadRequest("hook_event_name", "must not be empty");
      return { event: "unsupported", name: event };
  }
}

/**
 * Counts consecutive hook-driven stops per session (stop_hook_active true), so the daemon's
 * continuation cap applies to agents that report only the flag. Bounded: the oldest sessions
 * are forgotten first.
 */
export class StopCounter {
  readonly #counts = new Map<string, number>();
  constructor(readonly maxSessions = 10_000) {}

  next(key: string, stopHookActive: boolean): number {
    const count = stopHookActive ? (this.#counts.get(key) ?? 0) + 1 : 0;
    this.#counts.delete(key);
    this.#counts.set(key, count);
    if (this.#counts.size > this.maxSessions) {
      const oldest = this.#counts.keys().next();
      if (oldest.done !== true) this.#counts.delete(oldest.value);
    }
    return count;
  }
}
