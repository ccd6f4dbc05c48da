// The execute phase: the around-dispatch wrappers (points.ts executeChain) around core dispatch.
// Core dispatch and every wrapper answer sit inside normalization, so next() always yields a
// frozen result, and the first wrapper that throws makes the phase's final failure (sticky).
import { isDeepStrictEqual } from "node:util";
import type { SessionInfo, ToolCall, ToolResult } from "@hookd/sdk";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import type { ListenerError } from "../faults.js";
import { PIPELINE, abortFailure, cancelledFailure, listenerFailure, messageOf, normalizeBodyOutput, normalizeWrapperResult, pipelineFailure, thrownFailure } from "./normalize.js";
import type { Dispatch, ToolSpec } from "./spec.js";

/** A result before its review; `bypass` skips the review (a listener failure or a cancellation). */
export interface Candidate {
  readonly result: ToolResult;
  readonly bypass: boolean;
}

/** Runs the wrappers and core dispatch for an allowed call. Never throws. */
export async function executeCall(
  env: PointEnv,
  session: SessionInfo,
  call: ToolCall,
  spec: ToolSpec | undefined,
  dispatch: Dispatch,
): Promise<Candidate> {
  // Results this chain already normalized. A wrapper handing on what next() gave it (the answer
  // arrives as a validated copy, so compared by value) authors nothing: it passes through as is.
  const normalized: ToolResult[] = [];
  const mark = (result: ToolResult): ToolResult => {
    normalized.push(result);
    return result;
  };
  let sticky: ToolResult | undefined;
  const core = async (signal: AbortSignal): Promise<ToolResult> => mark(await coreDispatch(call, spec, dispatch, signal));
  const normalize = (raw: ToolResult, plugin: string): ToolResult =>
    normalized.find((known) => isDeepStrictEqual(known, raw)) ?? mark(normalizeWrapperResult(raw, spec, plugin));
  const onError = (error: ListenerError): ToolResult => {
    const failure = mark(listenerFailure(error));
    sticky ??= failure;
    return failure;
  };
  try {
    const result = await decide(env, "execute", { session, call }, { dispatch: core, normalize, onError });
    return sticky === undefined ? { result, bypass: false } : { result: sticky, bypass: true };
  } catch (error) {
    // decide() throws only when the turn was cancelled while a wrapper ran.
    if (env.signal.aborted) return { result: cancelledFailure(env.signal), bypass: true };
    return { result: pipelineFailure("internal", `internal error in the execute phase: ${messageOf(error)}`, PIPELINE), bypass: true };
  }
}

/** The tool body, normalized: unknown tools, throws and invalid output all become failures. */
async function coreDispatch(call: ToolCall, spec: ToolSpec | undefined, dispatch: Dispatch, signal: AbortSignal): Promise<ToolResult> {
  if (spec === undefined) return pipelineFailure("unknown_tool", `unknown tool ${JSON.stringify(call.toolName)}`);
  if (signal.aborted) return abortFailure(signal);
  let raw: unknown;
  try {
    raw = await dispatch(call, signal);
  } catch (error) {
    return thrownFailure(error, "tool_error", signal);
  }
  return normalizeBodyOutput(raw, spec, call.toolName);
}
