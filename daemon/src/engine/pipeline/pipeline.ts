// The five-phase tool pipeline for one step's calls: seal → rewrite (the effective arguments) →
// policy (the gate waterfall, the approval of an ask, the guards) → around-dispatch and dispatch → review of the result →
// finalizeContent → the result's observers. Policy runs in model order, dispatch overlaps only
// for concurrency-safe tools, and every later phase commits in model order.
import { unreachable } from "@hookd/sdk";
import type { AgentMessage, DecisionTrace, SessionInfo, ToolCall, ToolResult } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import type { ApprovalSeam } from "./approval.js";
import { executeCall } from "./execute.js";
import type { Candidate } from "./execute.js";
import { finalizeResult } from "./finalize.js";
import { DispatchGate } from "./gate.js";
import { PIPELINE, cancelledFailure, messageOf, pipelineFailure } from "./normalize.js";
import { decideToolPolicy } from "./policy.js";
import type { PolicyVerdict } from "./policy.js";
import { reviewResult } from "./review.js";
import { rewriteCall } from "./rewrite.js";
import type { RewriteVerdict } from "./rewrite.js";
import { sealCall } from "./seal.js";
import type { SealedCall } from "./seal.js";
import type { ProposedCall, ToolBatchOutcome, ToolCallOutcome } from "../calls.js";
import type { Dispatch, ToolLookup } from "./spec.js";

export interface ToolPipelineOptions {
  /** Registry, bus and scope (session, turn, step); `env.signal` is the turn's cancellation. */
  readonly env: PointEnv;
  readonly session: SessionInfo;
  /** The tools visible to the calls, read once per call when it is sealed. */
  readonly tools: ToolLookup;
  readonly dispatch: Dispatch;
  /** Resolves the gate's asks; without it every ask is denied. */
  readonly approval?: ApprovalSeam;
  /** How many concurrency-safe dispatches may overlap. Default 4. */
  readonly maxConcurrency?: number;
  /** Set for nested calls: the calling tool's sealed call. */
  readonly parent?: ToolCall;
  /**
   * Told of each call as it commits (its final result known), in model order, before the batch
   * settles: the loop puts the call's contexts into its FIFO at that moment. Must not throw.
   */
  readonly onCommitted?: (outcome: ToolCallOutcome) => void;
}

export type { ToolBatchOutcome, ToolCallOutcome };

/**
 * Runs one step's calls. Every failure is a result; it rejects only for invalid options (a
 * maxConcurrency that is not a positive integer), before any call is sealed.
 */
export async function runToolBatch(options: ToolPipelineOptions, proposed: readonly ProposedCall[]): Promise<ToolBatchOutcome> {
  const { env } = options;
  const gate = new DispatchGate(signalOf(env.signal), options.maxConcurrency);
  const session: SessionInfo = Object.freeze({ ...options.session });
  const scope = { sessionId: session.sessionId, turn: env.scope.turn, step: env.scope.step, ...(options.parent ? { parent: options.parent } : {}) };
  // Every call is sealed before any policy runs: later caller mutations cannot reach the batch.
  // Its identity is final here; its arguments are final once its rewrite chain has run.
  const sealed = proposed.map((p) => sealCall(p, scope, options.tools));
  const envs = sealed.map((s): PointEnv => ({ ...env, scope: { ...env.scope, callId: s.call.callId } }));
  const candidates = sealed.map(() => deferred<Candidate>());
  const traces: (DecisionTrace | undefined)[] = [];
  // What each call is once rewritten: what every later phase, the log and the agent see.
  const effective: SealedCall[] = [...sealed];

  // Policy phases, one call after another in model order; an allowed call enters the gate at
  // once (in the same order) and the loop goes on to the next call's policy.
  const policy = (async () => {
    for (const [index, s] of sealed.entries()) {
      const slot = candidates[index];
      const callEnv = envs[index];
      if (slot === undefined || callEnv === undefined) continue;
      const decided: PolicyPhaseOutcome = await policyPhase(options, callEnv, session, s, gate).catch((error: unknown) => ({ later: internalCandidate(error) }));
      traces[index] = decided.trace;
      if (decided.call !== undefined && s.ok) effective[index] = { ...s, call: decided.call };
      slot.resolve(Promise.resolve(decided.later).catch(internalCandidate));
    }
  })();

  const calls: ToolCallOutcome[] = [];
  for (const [index, proposedSeal] of sealed.entries()) {
    const slot = candidates[index];
    const callEnv = envs[index];
    if (slot === undefined || callEnv === undefined) continue;
    const candidate = await slot.promise;
    const s = effective[index] ?? proposedSeal;
    const result = await commitPhase(callEnv, session, s, candidate).catch((error: unknown) =>
      pipelineFailure("internal", `internal error committing ${s.call.callId}: ${messageOf(error)}`, PIPELINE, candidate.result.contexts),
    );
    const trace = traces[index];
    callEnv.bus.emit({ type: "call-settled", scope: callEnv.scope, call: s.call, result, ...(trace === undefined ? {} : { trace }) });
    const outcome: ToolCallOutcome = Object.freeze({ call: s.call, result, ...(trace === undefined ? {} : { trace }) });
    calls.push(outcome);
    options.onCommitted?.(outcome);
  }
  await policy;
  gate.close();
  return Object.freeze({ calls: Object.freeze(calls), contexts: Object.freeze(calls.flatMap((c) => c.result.contexts)) });
}

/** Runs one call through the whole pipeline (a step with a single call, or a nested call). */
export async function runToolCall(options: ToolPipelineOptions, proposed: ProposedCall): Promise<ToolCallOutcome & { readonly contexts: readonly AgentMessage[] }> {
  const batch = await runToolBatch(options, [proposed]);
  const [only] = batch.calls;
  if (only === undefined) throw new Error("unreachable: a batch of one has one outcome");
  return Object.freeze({ ...only, contexts: batch.contexts });
}

/**
 * seal's failure, or the policy phases; an allowed call enters the gate before this
 * returns, and `later` settles when its execute phase has. Wrapped so awaiting the policy does
 * not await the dispatch.
 */
async function policyPhase(
  options: ToolPipelineOptions,
  env: PointEnv,
  session: SessionInfo,
  sealed: SealedCall,
  gate: DispatchGate,
): Promise<PolicyPhaseOutcome> {
  if (!sealed.ok) return { later: { result: sealed.failure, bypass: true } };
  if (env.signal.aborted) return { later: { result: cancelledFailure(env.signal), bypass: true } };
  // A refused rewrite leaves the call sealed with the agent's arguments, refused like a pre-tool deny.
  const rewritten = await rewriteCall(env, session, sealed.call);
  if (rewritten.kind !== "rewritten") return { later: refused(rewritten), ...(rewritten.kind === "cancelled" ? {} : { trace: rewritten.trace }) };
  const { call } = rewritten;
  const verdict = await decideToolPolicy(env, session, call, options.approval);
  const trace = verdict.trace === undefined ? {} : { trace: verdict.trace };
  if (verdict.kind !== "allow") return { later: refused(verdict), call, ...trace };
  const { spec } = sealed;
  const entered = gate.enter(spec?.concurrencySafe !== true);
  const later = entered.then(async (release): Promise<Candidate> => {
    if (release === undefined) return { result: cancelledFailure(env.signal), bypass: true };
    try {
      return await executeCall(env, session, call, spec, options.dispatch);
    } finally {
      release();
    }
  });
  return { later, call, ...trace };
}

/** What the policy phases of a call leave: its candidate (now or once dispatched), who decided, and the call as rewritten. */
interface PolicyPhaseOutcome {
  readonly later: Promise<Candidate> | Candidate;
  readonly trace?: DecisionTrace;
  /** The call with its effective arguments; absent when it kept the sealed one. */
  readonly call?: ToolCall;
}

/** A call that may not run: a denial is still reviewed; a listener failure or cancellation is not. */
function refused(verdict: Exclude<PolicyVerdict, { kind: "allow" | "ask" }> | Exclude<RewriteVerdict, { kind: "rewritten" }>): Candidate {
  switch (verdict.kind) {
    case "deny":
      return { result: pipelineFailure("denied", verdict.reason, verdict.decidedBy), bypass: false };
    case "error":
      return { result: pipelineFailure("listener_error", verdict.reason, verdict.decidedBy), bypass: true };
    case "cancelled":
      return { result: pipelineFailure("cancelled", `cancelled: ${verdict.reason}`), bypass: true };
    default:
      return unreachable(verdict, "policy verdict");
  }
}

/** The review (unless bypassed), finalizeContent exactly once, then the observers of the final result. */
async function commitPhase(env: PointEnv, session: SessionInfo, sealed: SealedCall, candidate: Candidate): Promise<ToolResult> {
  const { call, spec } = sealed;
  // Whatever the review does, finalize still sees a candidate: it runs once on every path.
  const transformed = candidate.bypass
    ? candidate.result
    : await reviewResult(env, session, call, spec, candidate.result).then(
        (reviewed) => reviewed.result,
        (error: unknown) => pipelineFailure("internal", `internal error in the post-tool phase: ${messageOf(error)}`, PIPELINE, candidate.result.contexts),
      );
  const result = await finalizeResult(transformed, call, spec);
  // Observers are bounded by their own deadlines but not by the turn's signal, so a call
  // cancelled before dispatch still reaches them, exactly once. Their failures change nothing.
  await decide({ ...env, signal: new AbortController().signal }, "tool-result", { session, call, result }).catch(() => undefined);
  return result;
}

function internalCandidate(error: unknown): Candidate {
  return { result: pipelineFailure("internal", `internal error before dispatch: ${messageOf(error)}`), bypass: true };
}

function deferred<T>(): { readonly promise: Promise<T>; readonly resolve: (value: T | Promise<T>) => void } {
  let resolve!: (value: T | Promise<T>) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
