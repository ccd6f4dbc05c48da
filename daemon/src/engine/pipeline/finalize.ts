// The definition-owned content boundary: the tool's finalizeContent (snapshotted when the call
// was sealed) runs exactly once on the normalized candidate, failures included. It may replace
// content only. A synchronous one that throws or returns unusable content makes the result a
// finalize_error (the tool's own code broke its invariant); an awaited one (across a wire) that
// fails, is late or answers unusable content keeps the candidate's content (the seed's "total").
import { HookdError, validateToolResult } from "@hookd/sdk";
import type { ToolCall, ToolFailure, ToolResult } from "@hookd/sdk";
import { messageOf, pipelineFailure, withContent } from "./normalize.js";
import type { AwaitedFinalize, ToolSpec } from "./spec.js";

/**
 * Applies the tool's finalize boundary once. isError, the error identity, contexts and metadata
 * are the candidate's whatever it returns. Never rejects.
 */
export async function finalizeResult(candidate: ToolResult, call: ToolCall, spec: ToolSpec | undefined): Promise<ToolResult> {
  if (spec?.finalizeContent !== undefined) return finalizeSync(candidate, call, spec.finalizeContent);
  if (spec?.finalizeAwaited !== undefined) return finalizeAwaited(candidate, call, spec.finalizeAwaited);
  return candidate;
}

function finalizeSync(candidate: ToolResult, call: ToolCall, finalize: NonNullable<ToolSpec["finalizeContent"]>): ToolResult {
  const failed = (detail: string): ToolFailure =>
    pipelineFailure("finalize_error", `finalizeContent of ${call.toolName} failed: ${detail}`, call.toolName, candidate.contexts);
  let content: unknown;
  try {
    content = finalize(candidate, call);
  } catch (error) {
    return failed(messageOf(error));
  }
  if (content === undefined) return candidate;
  return withContent(candidate, content, (detail) => failed(`invalid content: ${detail}`));
}

async function finalizeAwaited(candidate: ToolResult, call: ToolCall, finalize: AwaitedFinalize): Promise<ToolResult> {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new HookdError("deadline_exceeded", `finalize of ${call.toolName} took longer than ${finalize.deadlineMs} ms`)),
    finalize.deadlineMs,
  );
  try {
    const late = new Promise<undefined>((resolve) => deadline.signal.addEventListener("abort", () => resolve(undefined), { once: true }));
    const content = await Promise.race([Promise.resolve().then(() => finalize.run(candidate, call, deadline.signal)), late]);
    if (content === undefined) return candidate;
    const checked = validateToolResult({ ...candidate, content });
    return checked.ok ? checked.result : candidate;
  } catch {
    return candidate;
  } finally {
    clearTimeout(timer);
    deadline.abort(new HookdError("cancelled", "finalize settled"));
  }
}
