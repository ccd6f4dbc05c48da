// The policy phases before dispatch, in the seed's order: the pre-tool waterfall, the approval
// of an ask (the approval waterfall, then the agent's approver: ask.ts), then the guards (which
// may only deny, so no listener order can resurrect a call a guard forbids). Reused as is by the
// evaluate API. Owns no result shaping.
import { hasNotice, noticeOf, unreachable } from "@hookd/sdk";
import type { DecisionTrace, SessionInfo, ToolCall, UserNotice } from "@hookd/sdk";
import type { Cancellation } from "@hookd/sdk/internal";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import type { ApprovalSeam } from "./approval.js";
import { elapsedUs, traceOf } from "../verdict.js";
import { resolveAsk } from "./ask.js";
import { PIPELINE, messageOf } from "./normalize.js";

export type PolicyPhase = "pre-tool" | "approval" | "guard";

/**
 * The final word of the policy phases, and who said it. `trace` is the decision that stands:
 * the waterfall's, the approval's after an ask, or a denying guard's; the hosted loop and the
 * evaluate API both report it. Every verdict but a cancellation has one.
 */
export type PolicyVerdict = (
  /**
   * decidedBy: the allowing pre-tool plugin ("default" when all passed); after an ask, the
   * approving approval plugin, or APPROVER_DECIDER ("approval") when the agent's approver allowed it once.
   */
  | { readonly kind: "allow"; readonly decidedBy: string; readonly askedBy?: string }
  /** `cause` is set when a plugin's failure policy made the denial (e.g. "deadline_exceeded"). */
  | { readonly kind: "deny"; readonly phase: PolicyPhase; readonly decidedBy: string; readonly reason: string; readonly cause?: string }
  /** A pre-tool, approval or guard handler threw or answered something unusable: a final failure. */
  | { readonly kind: "error"; readonly phase: PolicyPhase; readonly decidedBy: string; readonly reason: string }
  /** The turn was cancelled before the policy could finish. */
  | { readonly kind: "cancelled"; readonly reason: string }
  /** Only with RETURN_ASK: a plugin asked, every approval plugin passed and no guard denied; the caller resolves the ask. */
  | { readonly kind: "ask"; readonly decidedBy: string; readonly reason: string }
) & {
  readonly trace?: DecisionTrace;
  /** What the pre-tool plugins said to the agent's user, whatever the verdict (notice.ts). */
  readonly notice?: UserNotice;
};

/**
 * Pass as the approval to have an ask the approval plugins all passed returned to the caller (an
 * agent that resolves asks itself) instead of resolved: the guards still run, and no approval by
 * the agent is recorded.
 */
export const RETURN_ASK = Symbol("return the ask to the caller");

/** pre-tool, then approval for an ask, then guards. Never throws. */
export async function decideToolPolicy(
  env: PointEnv,
  session: SessionInfo,
  call: ToolCall,
  approval: ApprovalSeam | undefined,
): Promise<Exclude<PolicyVerdict, { kind: "ask" }>>;
export async function decideToolPolicy(env: PointEnv, session: SessionInfo, call: ToolCall, approval: ApprovalSeam | typeof RETURN_ASK | undefined): Promise<PolicyVerdict>;
export async function decideToolPolicy(
  env: PointEnv,
  session: SessionInfo,
  call: ToolCall,
  approval: ApprovalSeam | typeof RETURN_ASK | undefined,
): Promise<PolicyVerdict> {
  const at: { phase: PolicyPhase; notice?: UserNotice } = { phase: "pre-tool" };
  const started = performance.now();
  try {
    const verdict = await decidePolicy(env, session, call, approval, at);
    return at.notice === undefined ? verdict : { ...verdict, notice: at.notice };
  } catch (error) {
    // decide() throws only when the caller's signal was aborted; anything else is a bug here.
    if (env.signal.aborted) return cancelled(env.signal);
    const reason = `internal error in the ${at.phase} phase: ${messageOf(error)}`;
    return { kind: "error", phase: at.phase, decidedBy: PIPELINE, reason, trace: traceOf(PIPELINE, "internal", elapsedUs(started)) };
  }
}

async function decidePolicy(
  env: PointEnv,
  session: SessionInfo,
  call: ToolCall,
  approval: ApprovalSeam | typeof RETURN_ASK | undefined,
  at: { phase: PolicyPhase; notice?: UserNotice },
): Promise<PolicyVerdict> {
  if (env.signal.aborted) return cancelled(env.signal);
  const pre = await decide(env, "pre-tool", { session, call });
  if (pre.type === "error") return { kind: "error", phase: "pre-tool", decidedBy: pre.error.details.plugin, reason: pre.error.message, trace: pre.trace };
  const notice = noticeOf(pre.decision);
  if (hasNotice(notice)) at.notice = notice;
  let allowed: PolicyVerdict & { kind: "allow" | "ask" };
  const decision = pre.decision;
  const preTrace = pre.trace;
  switch (decision.kind) {
    case "allow":
      allowed = { kind: "allow", decidedBy: pre.decidedBy, trace: preTrace };
      break;
    case "deny":
      return { kind: "deny", phase: "pre-tool", decidedBy: pre.decidedBy, reason: decision.reason, ...causeOf(pre), trace: preTrace };
    case "ask": {
      at.phase = "approval";
      const ask = { session, call, reason: decision.reason, askedBy: pre.decidedBy };
      const resolved = await resolveAsk(env, ask, approval === RETURN_ASK ? undefined : approval, approval === RETURN_ASK);
      const trace = resolved.trace === undefined ? {} : { trace: resolved.trace };
      switch (resolved.kind) {
        case "unresolved":
          allowed = { kind: "ask", decidedBy: pre.decidedBy, reason: decision.reason, trace: preTrace };
          break;
        case "allow":
          allowed = { kind: "allow", decidedBy: resolved.decidedBy, askedBy: pre.decidedBy, ...trace };
          break;
        case "deny":
          return { kind: "deny", phase: "approval", decidedBy: resolved.decidedBy, reason: resolved.reason, ...(resolved.cause === undefined ? {} : { cause: resolved.cause }), ...trace };
        case "error":
          return { kind: "error", phase: "approval", decidedBy: resolved.decidedBy, reason: resolved.reason, ...trace };
        default:
          return unreachable(resolved, "approval resolution");
      }
      break;
    }
    default:
      return unreachable(decision, "pre-tool decision");
  }
  if (env.signal.aborted) return cancelled(env.signal);
  at.phase = "guard";
  const guards = await decide(env, "guard", { session, call });
  if (guards.type === "error") return { kind: "error", phase: "guard", decidedBy: guards.error.details.plugin, reason: guards.error.message, trace: guards.trace };
  // A guard's deny overrides what the waterfall (or the approval) decided; abstaining guards do not.
  if (guards.decision.kind === "deny") return { kind: "deny", phase: "guard", decidedBy: guards.decidedBy, reason: guards.decision.reason, ...causeOf(guards), trace: guards.trace };
  return allowed;
}

function causeOf(outcome: { readonly fault?: { readonly fault?: string } }): { cause?: string } {
  return outcome.fault?.fault === undefined ? {} : { cause: outcome.fault.fault };
}

function cancelled(signal: Cancellation): PolicyVerdict {
  const reason: unknown = signal.reason;
  return { kind: "cancelled", reason: reason instanceof Error && reason.message !== "" ? reason.message : "the turn was cancelled" };
}
