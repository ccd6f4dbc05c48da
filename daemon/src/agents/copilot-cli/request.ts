// A GitHub Copilot CLI hook request body (what its command hook reads on stdin, and what its http
// hook POSTs) to the typed hookd event of the point it drives. Copilot's camelCase payloads carry
// no event name (the forwarder's --event or the URL's /hooks/<event> names it) and no tool call
// id (hookd seals one): sessionId, cwd, toolName, toolArgs (an object; a JSON string is read
// too), postToolUse's toolResult {resultType, textResultForLlm}, permissionRequest's toolInput,
// agentStop's stop_hook_active. An event named in PascalCase has Claude Code's payload and is
// read by Claude Code's reader. Every problem is a field error naming the field.
import { failureResult, parseJson, userMessage } from "@hookd/sdk";
import type { JsonValue, SessionInfo, SessionSource, ToolCall, ToolResult } from "@hookd/sdk";
import { fieldError } from "@hookd/sdk/internal";
import { sealCall } from "../../engine/pipeline/seal.js";
import { bool, isObject, str } from "../body.js";
import type { Body } from "../body.js";
import { readClaudeRequest, responseResult } from "../claude-code/request.js";
import type { HookRequest, PassThrough, RequestContext, TypedRequest } from "../contract.js";
import { CLAUDE_STYLE_EVENTS, COPILOT_EVENTS } from "./events.js";

/** Copilot's sessionStart sources ("new" is a fresh session). */
const SOURCES: { readonly [source: string]: SessionSource } = { new: "startup", startup: "startup", resume: "resume", continue: "resume", clear: "clear" };

export const COPILOT_DIALECT = "copilot-cli";

/** The tool arguments of a payload field: an object, or a JSON string holding one. */
function argumentsOf(body: Body, field: string): JsonValue {
  const value = body[field];
  if (value === undefined || value === null) return {};
  if (isObject(value)) return value;
  if (typeof value === "string") {
    try {
      const parsed = parseJson(value);
      if (isObject(parsed)) return parsed;
    } catch {
      // Reported below.
    }
  }
  throw fieldError(field, "expected an object of tool arguments (or a JSON string holding one)");
}

function call(body: Body, session: SessionInfo, argsField: string): ToolCall {
  const toolName = str(body, "toolName", { required: true, nonEmpty: true }) ?? "";
  const sealedCall = sealCall({ callId: "", toolName, arguments: argumentsOf(body, argsField), argumentsParsedHere: true }, { sessionId: session.sessionId, turn: 0, step: 0 }, () => undefined);
  if (!sealedCall.ok) throw fieldError(argsField, sealedCall.failure.message);
  return sealedCall.call;
}

/** postToolUse's toolResult: the model sees textResultForLlm; a resultType other than success is a failure. */
function toolResult(value: JsonValue | undefined): ToolResult {
  if (value === undefined || value === null) return responseResult(null, "toolResult");
  if (!isObject(value)) throw fieldError("toolResult", "expected an object {resultType, textResultForLlm}");
  const text = str(value, "textResultForLlm", { required: false }) ?? "";
  const kind = str(value, "resultType", { required: false }) ?? "success";
  if (kind === "success") return responseResult(text, "toolResult.textResultForLlm");
  return failureResult(kind === "denied" || kind === "rejected" ? "denied" : "tool_error", kind, text);
}

function passThroughOf(body: Body): PassThrough {
  const transcriptPath = str(body, "transcriptPath", { required: false });
  return transcriptPath === undefined ? {} : { transcriptPath };
}

function typed(event: string, body: Body, session: SessionInfo, context: RequestContext): TypedRequest {
  switch (event) {
    case "sessionStart": {
      const source = str(body, "source", { required: false }) ?? "new";
      const mapped = SOURCES[source];
      if (mapped === undefined || !Object.hasOwn(SOURCES, source)) throw fieldError("source", `expected one of ${Object.keys(SOURCES).join(", ")}`);
      return { point: "session-start", data: { session, source: mapped, tools: [] } };
    }
    case "sessionEnd": {
      const reason = str(body, "reason", { required: false }) ?? "complete";
      return { point: "session-end", data: { session, reason: "closed", detail: `the agent ended the session (${reason})`, turns: 0 } };
    }
    case "userPromptSubmitted": {
      const prompt = str(body, "prompt", { required: true }) ?? "";
      return { point: "pre-step", prompt, data: { session, turn: 0, step: 0, messages: [userMessage(prompt)] } };
    }
    case "preToolUse":
      return { point: "pre-tool", data: { session, call: call(body, session, "toolArgs") } };
    case "permissionRequest": {
      const asked = call(body, session, "toolInput");
      return { point: "approval", data: { session, call: asked, reason: `${COPILOT_DIALECT} asks permission to run ${asked.toolName}`, askedBy: COPILOT_DIALECT } };
    }
    case "postToolUse":
      return { point: "post-tool", data: { session, call: call(body, session, "toolArgs"), result: toolResult(body.toolResult) } };
    case "postToolUseFailure": {
      const shown = isObject(body.toolResult) ? str(body.toolResult, "textResultForLlm", { required: false }) : undefined;
      const error = str(body, "error", { required: false }) ?? shown ?? "the tool failed";
      return { point: "post-tool", data: { session, call: call(body, session, "toolArgs"), result: failureResult("tool_error", "ToolError", error) } };
    }
    case "agentStop": {
      const active = bool(body, "stop_hook_active");
      return {
        point: "turn-stopping",
        data: {
          session,
          turn: 0,
          step: 0,
          stopHookActive: active,
          // Copilot's agentStop carries no last assistant message.
          steeredContinuations: context.steeredContinuations(session.sessionId, active),
        },
      };
    }
    default:
      return { point: "agent-event", payload: body };
  }
}

/** Reads a Copilot CLI request body of `event`. Throws a field error naming the field. */
export function readCopilotRequest(event: string, body: Body, context: RequestContext): HookRequest {
  if (CLAUDE_STYLE_EVENTS.includes(event)) return readClaudeRequest(event, body, context, COPILOT_DIALECT);
  if (!Object.hasOwn(COPILOT_EVENTS, event)) {
    throw fieldError("hook_event_name", `expected a GitHub Copilot CLI hook event (${Object.keys(COPILOT_EVENTS).join(", ")}, or one in PascalCase), got ${JSON.stringify(event)}`);
  }
  const sessionId = str(body, "sessionId", { required: true, nonEmpty: true }) ?? "";
  const session: SessionInfo = { sessionId, agentId: context.agentId, cwd: str(body, "cwd", { required: false }) ?? "" };
  return { ...typed(event, body, session, context), event, session, passThrough: passThroughOf(body) };
}
