// Tool results on the agent's side: constructors for what a dispatch handler returns, and the one
// total normalization of whatever it returned or threw into a frozen ToolResult. Failure codes
// match the daemon's pipeline ("tool_error", "invalid_result"); knows nothing of the stream.
import { deepFreeze, snapshotJson } from "../json.js";
import type { JsonObject } from "../json.js";
import type { AgentMessage, ContentBlock, ToolFailure, ToolResult, ToolSuccess } from "../types.js";
import { validateToolResult } from "../validate.js";

/** A success; `content` empty lets the daemon derive what the model sees from the value. */
export function toolSuccess(
  value: unknown,
  options: { readonly content?: readonly ContentBlock[]; readonly metadata?: JsonObject; readonly contexts?: readonly AgentMessage[] } = {},
): ToolSuccess {
  return {
    isError: false,
    value: snapshotJson(value === undefined ? null : value, "value").value,
    content: options.content ?? [],
    ...(options.metadata === undefined ? {} : { metadata: options.metadata }),
    contexts: options.contexts ?? [],
  };
}

/** A failure the model sees as `Error: <message>` unless `content` says otherwise. */
export function toolFailure(
  message: string,
  options: { readonly code?: string; readonly name?: string; readonly content?: readonly ContentBlock[]; readonly contexts?: readonly AgentMessage[] } = {},
): ToolFailure {
  return {
    isError: true,
    message,
    code: options.code ?? "tool_error",
    name: options.name ?? "Error",
    content: options.content ?? [{ type: "text", text: `Error: ${message}` }],
    contexts: options.contexts ?? [],
  };
}

/**
 * What a dispatch handler resolved with, as a frozen ToolResult. Never throws: an object with a
 * boolean `isError` must be a valid ToolResult, anything else must be a JSON value; what is
 * neither becomes an "invalid_result" failure naming the problem.
 */
export function resultOf(outcome: unknown): ToolResult {
  if (typeof outcome === "object" && outcome !== null && typeof (outcome as { isError?: unknown }).isError === "boolean") {
    const checked = validateToolResult(outcome);
    return checked.ok ? checked.result : invalidResult(checked.error.message);
  }
  try {
    return deepFreeze(toolSuccess(outcome));
  } catch (error) {
    return invalidResult(messageOf(error));
  }
}

/** A thrown or rejected tool body as a frozen "tool_error" failure, named by the error's class. */
export function thrownResult(error: unknown): ToolFailure {
  return deepFreeze(toolFailure(messageOf(error), { name: error instanceof Error ? error.name : "Error" }));
}

function invalidResult(detail: string): ToolFailure {
  return deepFreeze(toolFailure(`the dispatch handler returned an unusable result: ${detail}`, { code: "invalid_result", name: "hookd-agent" }));
}

/** Never empty: an empty message would read as no message at all on the wire. */
export function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (message !== "") return message;
  return error instanceof Error && error.name !== "" ? error.name : "unknown error";
}
