// The policy phases before dispatch, in the seed's order: the pre-tool waterfall, the approval
// seam for an ask, then the guards (which may only deny, so no listener order can resurrect a
// call a guard forbids). Reused as is by the evaluate API. Owns no result shaping.
import { unreachable } from "@hookd/sdk";
import type { DecisionTrace, SessionInfo, ToolCall } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import { resolveApproval } from "./approval.js";
import type { ApprovalSeam } from "./approval.js";
import { PIPELINE, messageOf } from "./normalize.js";

/** The decidedBy of an approval-seam outcome. */
export const APPROVAL = "approval";

export type PolicyPhase = "pre-tool" | "approval" | "guard";

/**
 * The final word of the policy phases, and who said it. `trace` is the decision that stands:
 * the waterfall's, the approval's after an ask, or a denying guard's; the hosted loop and the
 * evaluate API both report it. Every verdict but a cancellation has one.
 */
export type PolicyVerdict = (
  /** decidedBy: the allowing pre-tool plugin ("default" when all passed), or "approval" after an ask. */
  | { readonly kind: "allow"; readonly decidedBy: string; readonly askedBy?: string }
  /** `cause` is set when a plugin's failure policy made the denial (e.g. "deadline_exceeded"). */
  | { readonly kind: "deny"; readonly phase: PolicyPhase; readonly decidedBy: string; readonly reason: string; readonly cause?: string }
  /** A pre-tool or guard handler threw or answered something unusable: a final failure. */
  | { readonly kind: "error"; readonly phase: "pre-tool" | "guard"; readonly decidedBy: string; readonly reason: string }
  /** The turn was cancelled before the policy could finish. */
  | { readonly kind: "cancelled"; readonly reason: string }
  /** Only with RETURN_ASK: a plugin asked and no guard denied; the caller resolves the ask. */
  | { readonly kind: "ask"; readonly decidedBy: string; readonly reason: string }
) & { readonly trace?: DecisionTrace };

/**
 * Pass as the approval to have an ask returned to the caller (an agent that resolves asks
 * itself) instead of resolved: the guards still run, and no approval is recorded.
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
  const at: { phase: "pre-tool" | "guard" } = { phase: "pre-tool" };
  const started = performance.now();
  try {
    return await decidePolicy(env, session, call, approval, at);
  } catch (error) {
    // decide() throws only when the caller's signal was aborted; anything else is a bug here.
    if (env.signal.aborted) return cancelled(env.signal);
    const reason = `internal error in the ${at.phase} phase: ${messageOf(error)}`;
    return { kind: "error", phase: at.phase, decidedBy: PIPELINE, reason, trace: traceOf(PIPELINE, "internal", started) };
  }
}

async function decidePolicy(
  env: PointEnv,
  session: SessionInfo,
  call: ToolCall,
  approval: ApprovalSeam | typeof RETURN_ASK | undefined,
  at: { phase: "pre-tool" | "guard" },
): Promise<PolicyVerdict> {
  if (env.signal.aborted) return cancelled(env.signal);
  const preStarted = performance.now();
  const pre = await decide(env, "pre-tool", { session, call });
  if (pre.type === "error") {
    return { kind: "error", phase: "pre-tool", decidedBy: pre.error.plugin, reason: pre.error.message, trace: traceOf(pre.error.plugin, LISTENER_ERROR, preStarted) };
  }
  let allowed: PolicyVerdict & { kind: "allow" | "ask" };
  const decision = pre.decision;
  const preTrace = traceOf(pre.decidedBy, pre.fault?.fault, preStarted);
  switch (decision.kind) {
    case "allow":
      allowed = { kind: "allow", decidedBy: pre.decidedBy, trace: preTrace };
      break;
    case "deny":
      return { kind: "deny", phase: "pre-tool", decidedBy: pre.decidedBy, reason: decision.reason, ...causeOf(pre), trace: preTrace };
    case "ask": {
      if (approval === RETURN_ASK) {
        allowed = { kind: "ask", decidedBy: pre.decidedBy, reason: decision.reason, trace: preTrace };
        break;
      }
      const started = performance.now();
      const resolution = await resolveApproval(approval, { session, call, reason: decision.reason, askedBy: pre.decidedBy, signal: signalOf(env.signal) });
      const reason = resolution.outcome === "allowed-once" ? undefined : resolution.reason;
      env.bus.emit({
        type: "decision",
        scope: env.scope,
        point: "pre-tool",
        decision: resolution.outcome,
        decidedBy: APPROVAL,
        ...(reason === undefined ? {} : { reason }),
        durationUs: Math.round((performance.now() - started) * 1000),
      });
      if (env.signal.aborted) return cancelled(env.signal);
      const approvalTrace = traceOf(APPROVAL, undefined, started);
      if (reason !== undefined) return { kind: "deny", phase: "approval", decidedBy: APPROVAL, reason, trace: approvalTrace };
      allowed = { kind: "allow", decidedBy: APPROVAL, askedBy: pre.decidedBy, trace: approvalTrace };
      break;
    }
    default:
      return unreachable(decision, "pre-tool decision");
  }
  if (env.signal.aborted) return cancelled(env.signal);
  at.phase = "guard";
  const guardsStarted = performance.now();
  const guards = await decide(env, "guard", { session, call });
  if (guards.type === "error") {
    return { kind: "error", phase: "guard", decidedBy: guards.error.plugin, reason: guards.error.message, trace: traceOf(guards.error.plugin, LISTENER_ERROR, guardsStarted) };
  }
  // A guard's deny overrides what the waterfall (or the approval) decided; abstaining guards do not.
  if (guards.decision.kind === "deny") {
    const trace = traceOf(guards.decidedBy, guards.fault?.fault, guardsStarted);
    return { kind: "deny", phase: "guard", decidedBy: guards.decidedBy, reason: guards.decision.reason, ...causeOf(guards), trace };
  }
  return allowed;
}

/** The failure cause a trace names when a handler threw or answered something unusable (as the audit log does). */
const LISTENER_ERROR = "listener_error";

function traceOf(decidedBy: string, failureCause: string | undefined, started: number): DecisionTrace {
  return { decidedBy, ...(failureCause === undefined ? {} : { failureCause }), durationUs: Math.round((performance.now() - started) * 1000) };
}

function causeOf(outcome: { readonly fault?: { readonly fault?: string } }): { cause?: string } {
  return outcome.fault?.fault === undefined ? {} : { cause: outcome.fault.fault };
}

function cancelled(signal: Cancellation): PolicyVerdict {
  const reason: unknown = signal.reason;
  return { kind: "cancelled", reason: reason instanceof Error && reason.message !== "" ? reason.message : "the turn was cancelled" };
}
