// A Cline hook's stdin to the typed hookd event of the point it drives. Cline's payload names
// its runtime hook (`hookName`: tool_call, tool_result, ...), not the event file that runs, so
// the event comes from the forwarder's --event (or the URL). The session is the task (`taskId`),
// its cwd the first workspace root; a tool call is `tool_call` / `tool_result` {id, name, input}
// (preToolUse.parameters holds the same input with every value stringified). Every problem is
// a field error naming the field.
import { fieldError } from "@hookd/sdk/internal";
import { failureResult } from "@hookd/sdk";
import type { SessionInfo, ToolCall } from "@hookd/sdk";
import { sealCall } from "../../engine/pipeline/seal.js";
import type { Body } from "../body.js";
import { isObject, str } from "../body.js";
import { responseResult } from "../claude-code/request.js";
import type { HookRequest, RequestContext, TypedRequest } from "../contract.js";
import { CLINE_EVENTS } from "./events.js";

function sessionOf(body: Body, agentId: string): SessionInfo {
  const sessionId = str(body, "taskId", { required: true, nonEmpty: true }) ?? "";
  const roots = body.workspaceRoots;
  if (roots !== undefined && !Array.isArray(roots)) throw fieldError("workspaceRoots", "expected a list of paths");
  const cwd = Array.isArray(roots) && typeof roots[0] === "string" ? roots[0] : "";
  return { sessionId, agentId, cwd };
}

function callOf(body: Body, field: "tool_call" | "tool_result", session: SessionInfo): ToolCall {
  const call = body[field];
  if (!isObject(call)) throw fieldError(field, "expected an object with id, name and input");
  const toolName = str(call, "name", { required: true, nonEmpty: true }) ?? "";
  const callId = str(call, "id", { required: false }) ?? "";
  const input = call.input;
  if (input !== undefined && !isObject(input)) throw fieldError(`${field}.input`, "expected an object");
  const sealed = sealCall({ callId, toolName, arguments: input ?? {}, argumentsParsedHere: true }, { sessionId: session.sessionId, turn: 0, step: 0 }, () => undefined);
  if (!sealed.ok) throw fieldError(`${field}.input`, sealed.failure.message);
  return sealed.call;
}

function typed(event: string, body: Body, session: SessionInfo): TypedRequest {
  switch (event) {
    case "TaskStart":
      return { point: "session-start", data: { session, source: "startup", tools: [] } };
    case "TaskResume":
      return { point: "session-start", data: { session, source: "resume", tools: [] } };
    case "PreToolUse":
      return { point: "pre-tool", data: { session, call: callOf(body, "tool_call", session) } };
    case "PostToolUse": {
      const call = callOf(body, "tool_result", session);
      const record = body.tool_result as Body;
      const error = str(record, "error", { required: false });
      const result = error === undefined ? responseResult(record.output ?? null, "tool_result.output") : failureResult("tool_error", "ToolError", error);
      return { point: "post-tool", data: { session, call, result } };
    }
    case "TaskComplete":
      return { point: "turn-end", data: { session, turn: 0, outcome: "completed", detail: "Cline completed the task", steps: 0 } };
    case "TaskError": {
      const error = isObject(body.error) ? (str(body.error, "message", { required: false }) ?? "") : "";
      return { point: "turn-end", data: { session, turn: 0, outcome: "error", detail: error === "" ? "the task failed" : error, steps: 0 } };
    }
    case "TaskCancel":
      return { point: "turn-end", data: { session, turn: 0, outcome: "cancelled", detail: `Cline cancelled the task (${str(body, "reason", { required: false }) ?? "no reason"})`, steps: 0 } };
    case "SessionShutdown":
      return { point: "session-end", data: { session, reason: "closed", detail: `Cline shut the session down (${str(body, "reason", { required: false }) ?? "no reason"})`, turns: 0 } };
    default:
      return { point: "agent-event", payload: body };
  }
}

/** Reads a Cline hook's stdin for `event` (the hook file's name). Throws a field error naming the field. */
export function readClineRequest(event: string, body: Body, context: RequestContext): HookRequest {
  if (!Object.hasOwn(CLINE_EVENTS, event)) throw fieldError("hook_event_name", `${JSON.stringify(event)} is not a Cline hook event; expected one of ${Object.keys(CLINE_EVENTS).join(", ")}`);
  const session = sessionOf(body, context.agentId);
  return { ...typed(event, body, session), event, session, passThrough: {} };
}
