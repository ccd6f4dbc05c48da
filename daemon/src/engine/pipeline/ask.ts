// The approval phase of the policy: a pre-tool `ask` goes to the approval waterfall first (a
// plugin approves once, rejects, or passes), and only when every plugin passed to the approval
// seam, the agent's own approver (or back to the agent that resolves asks itself). Records the
// phase's decision, naming who resolved the ask (through verdict.ts). Owns no guard and no result shaping.
import { unreachable } from "@hookd/sdk";
import type { DecisionTrace, SessionInfo, ToolCall } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import { elapsedUs, recordDecision, traceOf } from "../verdict.js";
import { resolveApproval } from "./approval.js";
import type { ApprovalSeam } from "./approval.js";

/**
 * Who decided an ask the agent's approver resolved, as traces and records name it: a decider, as
 * "default" is, not the approval point (whose plugins are named by their own names).
 */
export const APPROVER_DECIDER = "approval";

/** What the approval phase made of an ask. */
export type AskResolution = (
  /** decidedBy: the approving plugin, or APPROVER_DECIDER when the agent's approver allowed it once. */
  | { readonly kind: "allow"; readonly decidedBy: string }
  | { readonly kind: "deny"; readonly decidedBy: string; readonly reason: string; readonly cause?: string }
  /** An approval handler threw or answered something unusable. */
  | { readonly kind: "error"; readonly decidedBy: string; readonly reason: string }
  /** Every plugin passed and the caller resolves the ask itself. */
  | { readonly kind: "unresolved" }
) & { readonly trace?: DecisionTrace };

export interface Ask {
  readonly session: SessionInfo;
  readonly call: ToolCall;
  readonly reason: string;
  readonly askedBy: string;
}

/**
 * Resolves an ask: the approval waterfall, then `seam` (undefined: no approval channel, so a
 * denial) or, with `returnAsk`, nothing more. Rejects only when env.signal aborts.
 */
export async function resolveAsk(env: PointEnv, ask: Ask, seam: ApprovalSeam | undefined, returnAsk: boolean): Promise<AskResolution> {
  const started = performance.now();
  const outcome = await decide(env, "approval", { session: ask.session, call: ask.call, reason: ask.reason, askedBy: ask.askedBy });
  if (outcome.type === "error") return { kind: "error", decidedBy: outcome.error.details.plugin, reason: outcome.error.message, trace: outcome.trace };
  const decision = outcome.decision;
  const cause = outcome.fault?.fault;
  switch (decision.kind) {
    case "approve":
      recordDecision(env, "pre-tool", "allowed-once", outcome.decidedBy, elapsedUs(started));
      return { kind: "allow", decidedBy: outcome.decidedBy, trace: outcome.trace };
    case "reject":
      recordDecision(env, "pre-tool", "rejected", outcome.decidedBy, elapsedUs(started), decision.reason);
      return { kind: "deny", decidedBy: outcome.decidedBy, reason: decision.reason, ...(cause === undefined ? {} : { cause }), trace: outcome.trace };
    case "pass":
      break;
    default:
      return unreachable(decision, "approval decision");
  }
  if (returnAsk) return { kind: "unresolved" };
  const asked = performance.now();
  const resolution = await resolveApproval(seam, { ...ask, signal: signalOf(env.signal) });
  const reason = resolution.outcome === "allowed-once" ? undefined : resolution.reason;
  // The approval phase's record: how the ask was resolved, at pre-tool where it was asked.
  const durationUs = elapsedUs(asked);
  recordDecision(env, "pre-tool", resolution.outcome, APPROVER_DECIDER, durationUs, reason);
  env.signal.throwIfAborted();
  const trace = traceOf(APPROVER_DECIDER, undefined, durationUs);
  return reason === undefined ? { kind: "allow", decidedBy: APPROVER_DECIDER, trace } : { kind: "deny", decidedBy: APPROVER_DECIDER, reason, trace };
}
