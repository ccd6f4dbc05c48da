// The rewrite phase: before a call is sealed for policy, the rewrite chain gives it its effective
// arguments (the seed's consistency rule: a rewrite happens before identity is final, never
// after, so history, audit, presentation and dispatch all read the same arguments). Shared by the
// tool pipeline and the evaluate API. Owns no policy: a refusal here is a failure policy's.
import { unreachable } from "@hookd/sdk";
import type { DecisionTrace, SessionInfo, ToolCall } from "@hookd/sdk";
import { freezeBuilt } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import { elapsedUs, traceOf } from "../verdict.js";
import { PIPELINE, messageOf } from "./normalize.js";

export type RewriteVerdict =
  /**
   * The call with its effective arguments. `trace` says who changed them; absent when nobody did,
   * unless a failing plugin was passed over (then "default" with its cause).
   */
  | { readonly kind: "rewritten"; readonly call: ToolCall; readonly trace?: DecisionTrace }
  /** A failing plugin's fail-closed answer: the call runs nowhere, sealed with its original arguments. */
  | { readonly kind: "deny"; readonly phase: "rewrite"; readonly decidedBy: string; readonly reason: string; readonly cause?: string; readonly trace: DecisionTrace }
  /** An in-process rewrite handler threw or answered something unusable: a final failure. */
  | { readonly kind: "error"; readonly phase: "rewrite"; readonly decidedBy: string; readonly reason: string; readonly trace: DecisionTrace }
  | { readonly kind: "cancelled"; readonly reason: string };

/** Runs the rewrite chain over a call sealed with the agent's arguments. Never throws. */
export async function rewriteCall(env: PointEnv, session: SessionInfo, call: ToolCall): Promise<RewriteVerdict> {
  const started = performance.now();
  const failed = (decidedBy: string, reason: string): RewriteVerdict => ({ kind: "error", phase: "rewrite", decidedBy, reason, trace: traceOf(decidedBy, "internal", elapsedUs(started)) });
  if (env.signal.aborted) return cancelled(env.signal);
  try {
    const outcome = await decide(env, "rewrite", { session, call });
    switch (outcome.type) {
      case "chained": {
        // Nobody changed the arguments: the call is the agent's, as sealed (traced only when a failing plugin was passed over).
        if (outcome.changedBy.length === 0) return outcome.fault?.fault === undefined ? { kind: "rewritten", call } : { kind: "rewritten", call, trace: outcome.trace };
        return { kind: "rewritten", call: freezeBuilt(outcome.event.call), trace: outcome.trace };
      }
      case "decided": {
        const { decision } = outcome;
        const cause = outcome.fault?.fault;
        // Only a failure policy ends a chain with a decision, and a rewrite's is always a deny.
        if (decision.kind !== "deny") return failed(outcome.decidedBy, `unexpected ${decision.kind} ending the rewrite chain`);
        return { kind: "deny", phase: "rewrite", decidedBy: outcome.decidedBy, reason: decision.reason, ...(cause === undefined ? {} : { cause }), trace: outcome.trace };
      }
      case "error":
        return { kind: "error", phase: "rewrite", decidedBy: outcome.error.details.plugin, reason: outcome.error.message, trace: outcome.trace };
      default:
        return unreachable(outcome, "rewrite outcome");
    }
  } catch (error) {
    // decide() throws only when the caller's signal was aborted; anything else is a bug here.
    if (env.signal.aborted) return cancelled(env.signal);
    return failed(PIPELINE, `internal error in the rewrite phase: ${messageOf(error)}`);
  }
}

function cancelled(signal: Cancellation): RewriteVerdict {
  const reason: unknown = signal.reason;
  return { kind: "cancelled", reason: reason instanceof Error && reason.message !== "" ? reason.message : "the turn was cancelled" };
}
