// The definition-owned content boundary: the tool's finalizeContent (snapshotted when the call
// was sealed) runs exactly once on the normalized candidate, failures included. It may replace
// content only; if it throws or returns unusable content the result becomes a finalize_error.
import type { ToolCall, ToolFailure, ToolResult } from "@hookd/sdk";
import { messageOf, pipelineFailure, withContent } from "./normalize.js";
import type { ToolSpec } from "./spec.js";

/**
 * Applies finalizeContent once. isError, the error identity, contexts and metadata are the
 * candidate's whatever it returns; its failure keeps the candidate's contexts. Never throws.
 */
export function finalizeResult(candidate: ToolResult, call: ToolCall, spec: ToolSpec | undefined): ToolResult {
  const finalize = spec?.finalizeContent;
  if (finalize === undefined) return candidate;
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
