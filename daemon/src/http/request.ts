// A Claude Code or Codex hook request body (the same JSON a command hook reads on stdin) to the
// typed hookd event of the point it drives. The session is {sessionId: session_id, agentId, cwd}
// plus lineage: an event from inside a subagent (agent_id, agent_type in the payload; both agents
// send the parent's session_id there) belongs to the subagent's own session, named by its
// agent_id, whose parent is session_id (the command kind writes such a session back the same way). A tool call is sealed exactly as the
// pipeline seals one (callId = tool_use_id, arguments from tool_input, parsed losslessly); turn
// and step are 0 (the agents do not report them). Every problem is a field error naming the field.
// An event without a typed point keeps its whole payload, lossless, for the generic point.
import { fieldError, snapshotParsed } from "@hookd/sdk/internal";
import type {
  ApprovalEvent,
  PostToolEvent,
  PreStepEvent,
  PreToolEvent,
  SessionEndEvent,
  SessionEndReason,
  SessionInfo,
  SessionSource,
  SessionStartEvent,
  ToolCall,
  ToolResult,
  TurnEndEvent,
  TurnStoppingEvent,
} from "@hookd/sdk";
import { assistantMessage, failureResult, userMessage } from "@hookd/sdk";
import { sealCall } from "../engine/pipeline/seal.js";
import type { Body } from "./body.js";
import { bool, isObject, parseBody, str } from "./body.js";


/** What the agent said about the session that no typed event has a field for; logged, and kept in a generic event's payload. */
export interface PassThrough {
  readonly transcriptPath?: string;
  readonly permissionMode?: string;
  /** Codex sends it in every payload, Claude Code at SessionStart. */
  readonly model?: string;
}

type Typed =
  | { readonly point: "session-start"; readonly data: SessionStartEvent }
  | { readonly point: "pre-step"; readonly data: PreStepEvent; readonly prompt: string }
  /** rewrite, then pre-tool (approval of an ask, guards) on the effective call. */
  | { readonly point: "pre-tool"; readonly data: PreToolEvent }
  | { readonly point: "approval"; readonly data: ApprovalEvent }
  | { readonly point: "post-tool"; readonly data: PostToolEvent }
  | { readonly point: "turn-stopping"; readonly data: TurnStoppingEvent }
  | { readonly point: "session-end"; readonly data: SessionEndEvent }
  | { readonly point: "turn-end"; readonly data: TurnEndEvent }
  /** An event without a typed point (Notification, PreCompact, ...): its whole payload, lossless. */
  | { readonly point: "agent-event"; readonly payload: Body };

/** `event` is the agent's own event name (hook_event_name). */
export type HookRequest = Typed & { readonly event: string; readonly session: SessionInfo; readonly passThrough: PassThrough };

export interface RequestContext {
  readonly agentId: string;
  /** The agent asking ("claude-code" or "codex"): who asks at a PermissionRequest. */
  readonly dialect?: string;
  /** The event the URL or a header names, if any: it must agree with hook_event_name. */
  readonly expectedEvent?: string;
  /**
   * Steered continuations this turn already had, given the stop's stop_hook_active (the agents
   * report only the flag; the server counts consecutive hook-driven stops per session).
   */
  readonly steeredContinuations: (sessionId: string, stopHookActive: boolean) => number;
}

// "fork" (both agents) starts a session from a copy of an existing transcript: a resume for hookd.
const SOURCES: { readonly [source: string]: SessionSource } = { startup: "startup", resume: "resume", clear: "clear", compact: "compact", fork: "resume" };

// The agents' SessionEnd reasons (Claude Code: clear, resume, logout, prompt_input_exit, other;
// Codex: other). Only `clear` has a hookd reason of its own; the agent's word is kept in `detail`.
const END_REASONS: { readonly [reason: string]: SessionEndReason } = { clear: "cleared" };

/**
 * The session a subagent's events belong to: its agent_id (unique per subagent in both agents),
 * so a subagent session round-trips through the command kind's payload (agent_id = session id).
 */
export const subagentSessionId = (_parentSessionId: string, agentId: string): string => agentId;

function sessionOf(body: Body, agentId: string, subagentRequired: boolean): SessionInfo {
  const sessionId = str(body, "session_id", { required: true, nonEmpty: true }) ?? "";
  const cwd = str(body, "cwd", { required: false }) ?? "";
  const agentType = str(body, "agent_type", { required: subagentRequired });
  const subagent = str(body, "agent_id", { required: subagentRequired, nonEmpty: subagentRequired });
  const base: SessionInfo = { sessionId, agentId, cwd, ...(agentType === undefined || agentType === "" ? {} : { agentType }) };
  return subagent === undefined || subagent === "" ? base : { ...base, sessionId: subagentSessionId(sessionId, subagent), parentSessionId: sessionId };
}

/** What the payload tells about the session (Gemini's reader shares it). A `model` that is not a string is not one hookd can pass on: ignored. */
export function passThroughOf(body: Body): PassThrough {
  const transcriptPath = str(body, "transcript_path", { required: false });
  const permissionMode = str(body, "permission_mode", { required: false });
  const model = typeof body.model === "string" ? body.model : undefined;
  return {
    ...(transcriptPath === undefined ? {} : { transcriptPath }),
    ...(permissionMode === undefined ? {} : { permissionMode }),
    ...(model === undefined ? {} : { model }),
  };
}

/** The content the model saw for a tool response: its text when it is a string, else its JSON. */
function responseResult(value: Body[string]): ToolResult {
  const snapshot = snapshotParsed(value, "tool_response");
  return {
    isError: false,
    value: snapshot.value,
    content: [typeof snapshot.value === "string" ? { type: "text", text: snapshot.value } : { type: "json", json: snapshot.text }],
    contexts: [],
  };
}

function sealed(body: Body, session: SessionInfo): ToolCall {
  const toolName = str(body, "tool_name", { required: true, nonEmpty: true }) ?? "";
  const callId = str(body, "tool_use_id", { required: false }) ?? "";
  const input = body.tool_input;
  if (input !== undefined && !isObject(input)) throw fieldError("tool_input", "expected an object");
  const result = sealCall({ callId, toolName, arguments: input ?? {}, argumentsParsedHere: true }, { sessionId: session.sessionId, turn: 0, step: 0 }, () => undefined);
  if (!result.ok) throw fieldError("tool_input", result.failure.message);
  return result.call;
}

function stopEvent(body: Body, session: SessionInfo, context: RequestContext): TurnStoppingEvent {
  const active = bool(body, "stop_hook_active");
  const last = str(body, "last_assistant_message", { required: false });
  return {
    session,
    turn: 0,
    step: 0,
    stopHookActive: active,
    steeredContinuations: context.steeredContinuations(session.sessionId, active),
    ...(last === undefined ? {} : { lastAssistantMessage: assistantMessage(last) }),
  };
}

function typed(event: string, body: Body, session: SessionInfo, context: RequestContext): Typed {
  switch (event) {
    case "SessionStart": {
      const source = str(body, "source", { required: false }) ?? "startup";
      const mapped = SOURCES[source];
      if (mapped === undefined || !Object.hasOwn(SOURCES, source)) throw fieldError("source", `expected one of ${Object.keys(SOURCES).join(", ")}`);
      return { point: "session-start", data: { session, source: mapped, tools: [] } };
    }
    case "SubagentStart":
      return { point: "session-start", data: { session, source: "subagent", tools: [] } };
    case "UserPromptSubmit": {
      const prompt = str(body, "prompt", { required: true }) ?? "";
      return { point: "pre-step", prompt, data: { session, turn: 0, step: 0, messages: [userMessage(prompt)] } };
    }
    case "PreToolUse":
      return { point: "pre-tool", data: { session, call: sealed(body, session) } };
    case "PermissionRequest": {
      const call = sealed(body, session);
      const asker = context.dialect ?? "the agent";
      return { point: "approval", data: { session, call, reason: `${asker} asks permission to run ${call.toolName}`, askedBy: asker } };
    }
    case "PostToolUse":
      return { point: "post-tool", data: { session, call: sealed(body, session), result: responseResult(body.tool_response ?? null) } };
    case "PostToolUseFailure": {
      const error = str(body, "error", { required: false }) ?? "the tool failed";
      const code = bool(body, "is_interrupt") ? "interrupted" : "tool_error";
      return { point: "post-tool", data: { session, call: sealed(body, session), result: failureResult(code, "ToolError", error) } };
    }
    case "Stop":
    case "SubagentStop":
      return { point: "turn-stopping", data: stopEvent(body, session, context) };
    case "SessionEnd": {
      const reason = str(body, "reason", { required: false }) ?? "other";
      return { point: "session-end", data: { session, reason: Object.hasOwn(END_REASONS, reason) ? (END_REASONS[reason] ?? "closed") : "closed", detail: `the agent ended the session (${reason})`, turns: 0 } };
    }
    case "StopFailure": {
      const error = str(body, "error", { required: false }) ?? "unknown";
      // Claude Code often sends no error_details (its error is then "unknown"); the API's own error text is in last_assistant_message.
      const details = [str(body, "error_details", { required: false }), str(body, "last_assistant_message", { required: false })].find((text) => text !== undefined && text !== "");
      return { point: "turn-end", data: { session, turn: 0, outcome: "error", detail: details === undefined ? error : `${error}: ${details}`, steps: 0 } };
    }
    case "Interrupt":
      // Codex: the user interrupted the turn (Ctrl-C, also SIGINT to a headless `codex exec`); no Stop follows.
      return { point: "turn-end", data: { session, turn: 0, outcome: "cancelled", detail: "the agent's turn was interrupted", steps: 0 } };
    default:
      return { point: "agent-event", payload: body };
  }
}

/** Reads a request body. Throws a field error naming the field. */
export function readHookRequest(text: string, context: RequestContext): HookRequest {
  const body = parseBody(text);
  const event = str(body, "hook_event_name", { required: context.expectedEvent === undefined }) ?? context.expectedEvent ?? "";
  if (context.expectedEvent !== undefined && event !== context.expectedEvent) {
    throw fieldError("hook_event_name", `is ${JSON.stringify(event)} but the request names ${JSON.stringify(context.expectedEvent)}`);
  }
  if (event === "") throw fieldError("hook_event_name", "must not be empty");
  const session = sessionOf(body, context.agentId, event === "SubagentStart" || event === "SubagentStop");
  return { ...typed(event, body, session, context), event, session, passThrough: passThroughOf(body) };
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
