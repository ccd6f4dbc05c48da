// Normalization: whatever a tool body, a wrapper, a listener or a definition hook produced
// becomes a frozen, losslessly snapshotted ToolResult, and every failure the pipeline authors is
// built here. Owns the failure codes and the presentation rule; decides no policy.
import { HookdError, deepFreeze, hasCode, validateToolResult } from "@hookd/sdk";
import type { AgentMessage, ContentBlock, JsonObject, ToolFailure, ToolResult, ToolSuccess } from "@hookd/sdk";
import type { Cancellation } from "@hookd/sdk/internal";
import type { ListenerError } from "../faults.js";
import { presentValue } from "./spec.js";
import type { ToolSpec } from "./spec.js";

/**
 * The codes of failures the pipeline authors. A failure a tool body or wrapper authored keeps its
 * own code; "plugin_failure" comes from a fail-closed execute wrapper (decisions.ts).
 */
export const FAILURE_CODES = {
  invalid_arguments: "The arguments could not be held as lossless JSON; no policy phase ran.",
  unknown_tool: "No tool of that name is visible to the call.",
  tool_error: "The tool body threw or rejected.",
  invalid_result: "A tool body or wrapper produced something that is not a tool result.",
  invalid_value: "A canonical value is not JSON, or the tool's validateValue refused it.",
  invalid_presentation: "Presentation content is not a list of JSON-safe content blocks.",
  denied: "The gate waterfall before the call, the approval seam or a guard refused the call; the reason is the message.",
  blocked: "A plugin reviewing the result blocked it; the content is the feedback.",
  listener_error: "A gate, guard, around-dispatch or result-review handler threw or answered something unusable.",
  finalize_error: "The tool's finalizeContent threw or returned unusable content.",
  cancelled: "The turn was cancelled before the call could finish.",
  deadline_exceeded: "A wrapper's replacement signal timed out the tool body.",
  internal: "A bug in the pipeline; the message says where.",
} as const;

export type FailureCode = keyof typeof FAILURE_CODES;

/** Who authored a pipeline failure when no plugin or thrown error names it. */
export const PIPELINE = "hookd";

/** A frozen failure the model sees as `Error: <message>`. */
export function pipelineFailure(code: FailureCode, message: string, name: string = PIPELINE, contexts: readonly AgentMessage[] = []): ToolFailure {
  const failure: ToolFailure = { isError: true, code, name, message, content: [errorText(message)], contexts: [...contexts] };
  return deepFreeze(failure);
}

/** A thrown error as a failure, named by the error's own name. An abort of `signal` is a cancellation. */
export function thrownFailure(error: unknown, code: FailureCode, signal?: Cancellation): ToolFailure {
  if (signal?.aborted === true) return abortFailure(signal);
  if (hasCode(error, "unknown_tool")) return pipelineFailure("unknown_tool", error.message);
  return pipelineFailure(code, messageOf(error), error instanceof Error ? error.name : "Error");
}

/** The failure of work stopped by an aborted signal: a timeout is deadline_exceeded, anything else cancelled. */
export function abortFailure(signal: Cancellation, contexts: readonly AgentMessage[] = []): ToolFailure {
  const reason = HookdError.from(signal.reason, "cancelled");
  const code = reason.code === "deadline_exceeded" ? "deadline_exceeded" : "cancelled";
  return pipelineFailure(code, reason.message === "" ? "cancelled" : reason.message, PIPELINE, contexts);
}

/** The turn was cancelled before the call could finish: always code "cancelled". */
export function cancelledFailure(signal: Cancellation, contexts: readonly AgentMessage[] = []): ToolFailure {
  const reason: unknown = signal.reason;
  const detail = reason instanceof Error && reason.message !== "" ? reason.message : "the turn was cancelled";
  return pipelineFailure("cancelled", `cancelled: ${detail}`, PIPELINE, contexts);
}

/** A handler that threw or answered something unusable: a final failure named by its plugin. */
export function listenerFailure(error: ListenerError, contexts: readonly AgentMessage[] = []): ToolFailure {
  return pipelineFailure("listener_error", error.message, error.details.plugin, contexts);
}

/** A frozen, losslessly snapshotted copy of a candidate result, or `onInvalid`'s failure. */
export function snapshotResult(candidate: unknown, onInvalid: (detail: string) => ToolFailure): ToolResult {
  const checked = validateToolResult(candidate);
  return checked.ok ? checked.result : onInvalid(checked.error.message);
}

/** Who produced a candidate: `name` goes into a failure's name, `label` into its message. */
export interface Source {
  readonly name: string;
  readonly label: string;
}

export const toolSource = (toolName: string): Source => ({ name: toolName, label: `tool ${toolName}` });
export const pluginSource = (plugin: string): Source => ({ name: plugin, label: `plugin ${plugin}` });

interface Extras {
  readonly metadata?: JsonObject;
  readonly contexts: readonly AgentMessage[];
}

/**
 * A success from a canonical value: the value is snapshotted and checked by the tool, and the
 * presentation is computed from it by the tool's `present` (default: presentValue).
 */
export function successFromValue(value: unknown, spec: ToolSpec | undefined, extras: Extras, source: Source): ToolResult {
  const checked = checkedValue(value, spec, extras, source);
  if (checked.isError) return checked;
  let content: unknown;
  try {
    content = (spec?.present ?? presentValue)(checked.value);
  } catch (error) {
    return pipelineFailure("invalid_presentation", `presenting the value of ${source.label} failed: ${messageOf(error)}`, source.name, extras.contexts);
  }
  return withContent(checked, content, (detail) =>
    pipelineFailure("invalid_presentation", `the presentation of ${source.label}'s value is not valid content: ${detail}`, source.name, extras.contexts),
  );
}

/** The value snapshotted as a success with no content yet, and accepted by the tool's validateValue. */
function checkedValue(value: unknown, spec: ToolSpec | undefined, extras: Extras, source: Source): ToolResult {
  const base = { isError: false, value, content: [], contexts: extras.contexts, ...metadataOf(extras.metadata) };
  const checked = snapshotResult(base, (detail) =>
    pipelineFailure("invalid_value", `${source.label} produced an invalid value: ${detail}`, source.name, extras.contexts),
  );
  if (checked.isError) return checked;
  try {
    spec?.validateValue?.(checked.value);
  } catch (error) {
    const detail = messageOf(error);
    return pipelineFailure("invalid_value", `${source.label} produced a value ${spec?.name ?? "the tool"} refuses: ${detail}`, source.name, extras.contexts);
  }
  return checked;
}

/** The result with its content replaced, snapshotted; `onInvalid` when the content is not valid. */
export function withContent(result: ToolResult, content: unknown, onInvalid: (detail: string) => ToolFailure): ToolResult {
  return snapshotResult({ ...result, content }, onInvalid);
}

/**
 * What core dispatch resolved to. An object with a boolean `isError` is a whole result: a success
 * keeps the body's own content when it gave any (else it is presented from the value), a failure
 * is kept. Anything else is the canonical value.
 */
export function normalizeBodyOutput(raw: unknown, spec: ToolSpec | undefined, toolName: string): ToolResult {
  const source = toolSource(toolName);
  if (!isResultShaped(raw)) return successFromValue(raw, spec, { contexts: [] }, source);
  const result = snapshotResult(raw, (detail) => pipelineFailure("invalid_result", `${source.label} returned an invalid result: ${detail}`, source.name));
  if (result.isError) return keepFailure(result);
  const extras = { contexts: result.contexts, ...metadataOf(result.metadata) };
  if (result.content.length === 0) return successFromValue(result.value, spec, extras, source);
  const checked = checkedValue(result.value, spec, extras, source);
  return checked.isError ? checked : result;
}

/**
 * A result an execute wrapper authored. A success is re-normalized (value revalidated,
 * presentation recomputed); a failure is kept as authored.
 */
export function normalizeWrapperResult(raw: ToolResult, spec: ToolSpec | undefined, plugin: string): ToolResult {
  const source = pluginSource(plugin);
  const result = snapshotResult(raw, (detail) => pipelineFailure("invalid_result", `${source.label} returned an invalid result: ${detail}`, plugin));
  if (result.isError) return keepFailure(result);
  return successFromValue(result.value, spec, { contexts: result.contexts, ...metadataOf(result.metadata) }, source);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** An authored failure as is; one that shows nothing gets the `Error: <message>` text. */
function keepFailure(failure: ToolFailure): ToolFailure {
  if (failure.content.length > 0) return failure;
  return deepFreeze({ ...failure, content: [errorText(failure.message)] });
}

function errorText(message: string): ContentBlock {
  return { type: "text", text: `Error: ${message}` };
}

function isResultShaped(raw: unknown): raw is ToolSuccess | ToolFailure {
  return typeof raw === "object" && raw !== null && typeof (raw as { isError?: unknown }).isError === "boolean";
}

const metadataOf = (metadata: JsonObject | undefined): { metadata?: JsonObject } => (metadata === undefined ? {} : { metadata });
