// A Gemini CLI hook request body (what a Gemini command hook reads on stdin, forwarded by
// `hookd hook --dialect gemini`) to a typed hookd event. Gemini's names and fields differ from
// Claude Code's: BeforeAgent carries the prompt, BeforeTool/AfterTool carry tool_name and
// tool_input but no call id (hookd seals one), AfterTool's tool_response is
// {llmContent, returnDisplay, error?}, AfterAgent carries prompt_response and stop_hook_active,
// SessionEnd a reason of its own words. Every problem is a field error naming the field.
// The five events with no typed point (BeforeModel, AfterModel, BeforeToolSelection, PreCompress,
// Notification) come back as "observed" with their whole body. Owns the request shape only.
import { failureResult } from "@hookd/sdk";
import { fieldError, snapshotParsed } from "@hookd/sdk/internal";
import type { JsonValue, SessionInfo, SessionSource, ToolResult } from "@hookd/sdk";
import { isObject, str } from "../body.js";
import type { Body } from "../body.js";
import { endRequest, passThroughOf, promptRequest, responseResult, sealed, stopRequest } from "../claude-code/request.js";
import type { HookRequest, RequestContext, TypedRequest } from "../contract.js";
import { GEMINI_EVENTS } from "./hooks-file.js";

/** Gemini's SessionStart sources are a subset of hookd's. */
const SOURCES: readonly SessionSource[] = ["startup", "resume", "clear"];

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
  return responseResult(response.llmContent ?? null, "tool_response.llmContent");
}

/** Reads a Gemini request body of `event`. Throws a field error naming the field. */
export function readGeminiRequest(event: string, body: Body, context: RequestContext): HookRequest {
  if (!Object.hasOwn(GEMINI_EVENTS, event)) throw fieldError("hook_event_name", `expected a Gemini CLI hook event (${Object.keys(GEMINI_EVENTS).join(", ")}), got ${JSON.stringify(event)}`);
  const sessionId = str(body, "session_id", { required: true, nonEmpty: true }) ?? "";
  const session: SessionInfo = { sessionId, agentId: context.agentId, cwd: str(body, "cwd", { required: false }) ?? "" };
  return { ...typed(event, body, session, context), event, session, passThrough: passThroughOf(body) };
}

function typed(event: string, body: Body, session: SessionInfo, context: RequestContext): TypedRequest {
  switch (event) {
    case "SessionStart": {
      const source = str(body, "source", { required: false }) ?? "startup";
      if (!(SOURCES as readonly string[]).includes(source)) throw fieldError("source", `expected one of ${SOURCES.join(", ")}`);
      return { point: "session-start", data: { session, source: source as SessionSource, tools: [] } };
    }
    case "SessionEnd":
      return endRequest(body, session);
    case "BeforeAgent":
      return promptRequest(body, session);
    case "BeforeTool":
      return { point: "pre-tool", data: { session, call: sealed(body, session) } };
    case "AfterTool":
      return { point: "post-tool", data: { session, call: sealed(body, session), result: toolResult(body.tool_response) } };
    case "AfterAgent":
      return stopRequest(body, session, context, "prompt_response");
    default:
      // BeforeModel, AfterModel, BeforeToolSelection, PreCompress, Notification: observe-only.
      return { point: "agent-event", payload: body };
  }
}
