// The post-tool phase: the inspect/transform waterfall over the frozen candidate (a denial
// included). accept keeps deferred contexts then the decision's; block keeps only the blocker's.
// A decision that cannot apply is a listener failure. Reused as is by the evaluate API.
import { HookdError, unreachable } from "@hookd/sdk";
import type { AgentMessage, DecisionTrace, PostToolDecision, SessionInfo, ToolCall, ToolResult } from "@hookd/sdk";
import { listenerError } from "../faults.js";
import { decide } from "../decide.js";
import type { Decided, PointEnv } from "../decide.js";
import { LISTENER_ERROR, elapsedUs, traceOf } from "../verdict.js";
import { PIPELINE, cancelledFailure, listenerFailure, messageOf, pipelineFailure, pluginSource, snapshotResult, successFromValue, withContent } from "./normalize.js";
import type { ToolSpec } from "./spec.js";

export interface ReviewOutcome {
  /** The frozen result after post-tool. */
  readonly result: ToolResult;
  /** What happened: the decision's kind, "error" for a listener failure, "cancelled". */
  readonly applied: "accept" | "block" | "error" | "cancelled";
  readonly decidedBy: string;
  /** The decision that was applied, when a plugin (or the default) decided. */
  readonly decision?: PostToolDecision;
  /** Set when a plugin's failure policy made the decision (e.g. "deadline_exceeded"). */
  readonly cause?: string;
  /** Who decided, for the evaluate API's answer: a decision that could not apply is a listener error. Absent when cancelled. */
  readonly trace?: DecisionTrace;
}

/** Runs post-tool over a frozen candidate and applies its decision. Never throws. */
export async function reviewResult(
  env: PointEnv,
  session: SessionInfo,
  call: ToolCall,
  spec: ToolSpec | undefined,
  candidate: ToolResult,
): Promise<ReviewOutcome> {
  // A cancelled turn runs no more policy: the result the post-tool policy never saw is not shown.
  const cancelled = (): ReviewOutcome => ({ result: cancelledFailure(env.signal, candidate.contexts), applied: "cancelled", decidedBy: PIPELINE });
  if (env.signal.aborted) return cancelled();
  const started = performance.now();
  let outcome: Decided<"post-tool">;
  try {
    outcome = await decide(env, "post-tool", { session, call, result: candidate });
  } catch (error) {
    if (env.signal.aborted) return cancelled();
    const result = pipelineFailure("internal", `internal error in the post-tool phase: ${messageOf(error)}`, PIPELINE, candidate.contexts);
    return { result, applied: "error", decidedBy: PIPELINE, trace: traceOf(PIPELINE, LISTENER_ERROR, elapsedUs(started)) };
  }
  if (outcome.type === "error") return { result: listenerFailure(outcome.error, candidate.contexts), applied: "error", decidedBy: outcome.error.details.plugin, trace: outcome.trace };
  const cause = outcome.fault?.fault;
  const applied = applyDecision(outcome.decision, outcome.decidedBy, candidate, spec);
  const trace = applied.applied === "error" ? traceOf(applied.decidedBy, LISTENER_ERROR, elapsedUs(started)) : outcome.trace;
  return { ...applied, decision: outcome.decision, ...(cause === undefined ? {} : { cause }), trace };
}

function applyDecision(decision: PostToolDecision, plugin: string, candidate: ToolResult, spec: ToolSpec | undefined): ReviewOutcome {
  switch (decision.kind) {
    case "block":
      return { result: blocked(decision.feedback, plugin, decision.additionalContexts ?? []), applied: "block", decidedBy: plugin };
    case "accept": {
      const unusable = (detail: string): ReviewOutcome => {
        const error = listenerError(plugin, "post-tool", new HookdError("invalid_decision", detail));
        return { result: listenerFailure(error, candidate.contexts), applied: "error", decidedBy: plugin };
      };
      const hasValue = Object.hasOwn(decision, "value");
      if (hasValue && decision.content !== undefined) return unusable("accept cannot replace both content and value");
      if (hasValue && candidate.isError) return unusable("accept cannot replace the value of a failed result");
      const added = decision.additionalContexts ?? [];
      if (!hasValue && decision.content === undefined && added.length === 0) return { result: candidate, applied: "accept", decidedBy: plugin };
      const contexts = [...candidate.contexts, ...added];
      const source = pluginSource(plugin);
      let result: ToolResult;
      if (hasValue && !candidate.isError) {
        const metadata = candidate.metadata === undefined ? {} : { metadata: candidate.metadata };
        result = successFromValue(decision.value, spec, { contexts, ...metadata }, source);
      } else if (decision.content !== undefined) {
        result = withContent({ ...candidate, contexts }, decision.content, (detail) =>
          pipelineFailure("invalid_presentation", `${source.label} replaced the content with invalid content: ${detail}`, plugin, candidate.contexts),
        );
      } else {
        result = snapshotResult({ ...candidate, contexts }, (detail) =>
          pipelineFailure("invalid_result", `${source.label} added invalid contexts: ${detail}`, plugin, candidate.contexts),
        );
      }
      return { result, applied: "accept", decidedBy: plugin };
    }
    default:
      return unreachable(decision, "post-tool decision");
  }
}

/** A valueless failure showing the feedback verbatim; deferred contexts are dropped. */
export function blocked(feedback: string, plugin: string, contexts: readonly AgentMessage[]): ToolResult {
  const text = feedback === "" ? `The result was blocked by plugin ${plugin}.` : feedback;
  return snapshotResult({ isError: true, code: "blocked", name: plugin, message: text, content: [{ type: "text", text }], contexts }, (detail) =>
    pipelineFailure("invalid_result", `plugin ${plugin} blocked with invalid contexts: ${detail}`, plugin),
  );
}
