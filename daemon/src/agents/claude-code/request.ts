// A Claude Code hook request body (the same JSON a command hook reads on stdin; Codex and Qwen
// Code send the same shape) to the typed hookd event of the point it drives. The session is {sessionId: session_id, agentId, cwd}
// plus lineage: an event from inside a subagent (agent_id, agent_type in the payload; both agents
// send the parent's session_id there) belongs to the subagent's own session, named by its
// agent_id, whose parent is session_id (the command kind writes such a session back the same way). A tool call is sealed exactly as the
// pipeline seals one (callId = tool_use_id, arguments from tool_input, parsed losslessly); turn
// and step are 0 (the agents do not report them). Every problem is a field error naming the field.
// An event without a typed point keeps its whole payload, lossless, for the generic point.
import { fieldError, snapshotParsed } from "@hookd/sdk/internal";
import type { SessionInfo, SessionSource, ToolCall, ToolResult, TurnStoppingEvent } from "@hookd/sdk";
import { assistantMessage, failureResult, userMessage } from "@hookd/sdk";
import { sealCall } from "../../engine/pipeline/seal.js";
import type { Body } from "../body.js";
import { bool, isObject, str } from "../body.js";
import type { HookRequest, PassThrough, RequestContext, TypedRequest } from "../contract.js";


// "fork" (both agents) starts a session from a copy of an existing transcript: a resume for hookd.
const SOURCES: { readonly [source: string]: SessionSource } = { startup: "startup", resume: "resume", clear: "clear", compact: "compact", fork: "resume" };

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

/** The content the model saw for a tool response (`field` names it in errors): its text when it is a string, else its JSON. */
export function responseResult(value: Body[string], field = "tool_response"): ToolResult {
  const snapshot = snapshotParsed(value, field);
  return {
    isError: false,
    value: snapshot.value,
    content: [typeof snapshot.value === "string" ? { type: "text", text: snapshot.value } : { type: "json", json: snapshot.text }],
    contexts: [],
  };
}

/** The call a tool event proposes, sealed as the pipeline seals one (a fresh call id when the agent sends none). */
export function sealed(body: Body, session: SessionInfo): ToolCall {
  const toolName = str(body, "tool_name", { required: true, nonEmpty: true }) ?? "";
  const callId = str(body, "tool_use_id", { required: false }) ?? "";
  const input = body.tool_input;
  if (input !== undefined && !isObject(input)) throw fieldError("tool_input", "expected an object");
  const result = sealCall({ callId, toolName, arguments: input ?? {}, argumentsParsedHere: true }, { sessionId: session.sessionId, turn: 0, step: 0 }, () => undefined);
  if (!result.ok) throw fieldError("tool_input", result.failure.message);
  return result.call;
}

/** A turn-stopping request; `lastField` names the field holding the model's last message. */
export function stopRequest(body: Body, session: SessionInfo, context: RequestContext, lastField: string): TypedRequest {
  const active = bool(body, "stop_hook_active");
  const last = str(body, lastField, { required: false });
  const data: TurnStoppingEvent = {
    session,
    turn: 0,
    step: 0,
    stopHookActive: active,
    steeredContinuations: context.steeredContinuations(session.sessionId, active),
    ...(last === undefined ? {} : { lastAssistantMessage: assistantMessage(last) }),
  };
  return { point: "turn-stopping", data };
}

/** A prompt the user submitted: a pre-step of that one user message. */
export function promptRequest(body: Body, session: SessionInfo): TypedRequest {
  const prompt = str(body, "prompt", { required: true }) ?? "";
  return { point: "pre-step", prompt, data: { session, turn: 0, step: 0, messages: [userMessage(prompt)] } };
}

/** A session end: "cleared" for the agents' `clear`, else "closed"; the agent's own word is kept as the detail. */
export function endRequest(body: Body, session: SessionInfo): TypedRequest {
  const reason = str(body, "reason", { required: false }) ?? "other";
  return { point: "session-end", data: { session, reason: reason === "clear" ? "cleared" : "closed", detail: `the agent ended the session (${reason})`, turns: 0 } };
}

function typed(event: string, body: Body, session: SessionInfo, context: RequestContext, asker: string): TypedRequest {
  switch (event) {
    case "SessionStart": {
      const source = str(body, "source", { required: false }) ?? "startup";
      const mapped = SOURCES[source];
      if (mapped === undefined || !Object.hasOwn(SOURCES, source)) throw fieldError("source", `expected one of ${Object.keys(SOURCES).join(", ")}`);
      return { point: "session-start", data: { session, source: mapped, tools: [] } };
    }
    case "SubagentStart":
      return { point: "session-start", data: { session, source: "subagent", tools: [] } };
    case "UserPromptSubmit":
      return promptRequest(body, session);
    case "PreToolUse":
      return { point: "pre-tool", data: { session, call: sealed(body, session) } };
    case "PermissionRequest": {
      const call = sealed(body, session);
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
      return stopRequest(body, session, context, "last_assistant_message");
    case "SessionEnd":
      return endRequest(body, session);
    case "StopFailure": {
      const error = str(body, "error", { required: false }) ?? "unknown";
      // Claude Code often sends no error_details (its error is then "unknown"); the API's own error text is in last_assistant_message.
      const details = [str(body, "error_details", { required: false }), str(body, "last_assistant_message", { required: false })].find((text) => text !== undefined && text !== "");
      return { point: "turn-end", data: { session, turn: 0, outcome: "error", detail: details === undefined ? error : `${error}: ${details}`, steps: 0 } };
    }
    case "Interrupt": {
      // The user interrupted the turn (Codex: Ctrl-C, also SIGINT to a headless `codex exec`); no
      // Stop follows. Claude Code 2.1.337 says who stopped it (source) and why (reason).
      const source = str(body, "source", { required: false });
      const reason = str(body, "reason", { required: false });
      const why = [source === undefined ? undefined : `by ${source}`, reason === undefined ? undefined : `(${reason})`].filter((part) => part !== undefined).join(" ");
      return { point: "turn-end", data: { session, turn: 0, outcome: "cancelled", detail: `the agent's turn was interrupted${why === "" ? "" : ` ${why}`}`, steps: 0 } };
    }
    default:
      return { point: "agent-event", payload: body };
  }
}

/** Reads a request body of `event`, from the agent named `asker` (who asks at a PermissionRequest). Throws a field error naming the field. */
export function readClaudeRequest(event: string, body: Body, context: RequestContext, asker: string): HookRequest {
  const session = sessionOf(body, context.agentId, event === "SubagentStart" || event === "SubagentStop");
  return { ...typed(event, body, session, context, asker), event, session, passThrough: passThroughOf(body) };
}
