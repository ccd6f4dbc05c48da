// The approval phase of the policy: a pre-tool `ask` goes to the approval waterfall first (a
// plugin approves once, rejects, or passes), and only when every plugin passed to the approval
// seam, the agent's own approver (or back to the agent that resolves asks itself). Records the
// phase's decision, naming who resolved the ask. Owns no guard and no result shaping.
import { unreachable } from "@hookd/sdk";
import type { DecisionTrace, SessionInfo, ToolCall } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import { resolveApproval } from "./approval.js";
import type { ApprovalSeam } from "./approval.js";

/** The decidedBy of an approval-seam outcome (the agent's approver). */
export const APPROVAL = "approval";

/** What the approval phase made of an ask. */
export type AskResolution = (
  /** decidedBy: the approving plugin, or APPROVAL when the agent's approver allowed it once. */
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
  if (outcome.type === "error") {
    return { kind: "error", decidedBy: outcome.error.details.plugin, reason: outcome.error.message, trace: traceOf(outcome.error.details.plugin, LISTENER_ERROR, started) };
  }
  const decision = outcome.decision;
  const cause = outcome.fault?.fault;
  switch (decision.kind) {
    case "approve":
      record(env, "allowed-once", outcome.decidedBy, undefined, started);
      return { kind: "allow", decidedBy: outcome.decidedBy, trace: traceOf(outcome.decidedBy, cause, started) };
    case "reject":
      record(env, "rejected", outcome.decidedBy, decision.reason, started);
      return { kind: "deny", decidedBy: outcome.decidedBy, reason: decision.reason, ...(cause === undefined ? {} : { cause }), trace: traceOf(outcome.decidedBy, cause, started) };
    case "pass":
      break;
    default:
      return unreachable(decision, "approval decision");
  }
  if (returnAsk) return { kind: "unresolved" };
  const asked = performance.now();
  const resolution = await resolveApproval(seam, { ...ask, signal: signalOf(env.signal) });
  const reason = resolution.outcome === "allowed-once" ? undefined : resolution.reason;
  record(env, resolution.outcome, APPROVAL, reason, asked);
  env.signal.throwIfAborted();
  const trace = traceOf(APPROVAL, undefined, asked);
  return reason === undefined ? { kind: "allow", decidedBy: APPROVAL, trace } : { kind: "deny", decidedBy: APPROVAL, reason, trace };
}

/** The approval phase's record: how the ask was resolved (at pre-tool, where it was asked) and by whom. */
function record(env: PointEnv, decision: string, decidedBy: string, reason: string | undefined, started: number): void {
  env.bus.emit({
    type: "decision",
    scope: env.scope,
    point: "pre-tool",
    decision,
    decidedBy,
    ...(reason === undefined ? {} : { reason }),
    durationUs: Math.round((performance.now() - started) * 1000),
  });
}

/** The failure cause a trace names when a handler threw or answered something unusable (as the audit log does). */
export const LISTENER_ERROR = "listener_error";

export function traceOf(decidedBy: string, failureCause: string | undefined, started: number): DecisionTrace {
  return { decidedBy, ...(failureCause === undefined ? {} : { failureCause }), durationUs: Math.round((performance.now() - started) * 1000) };
}
