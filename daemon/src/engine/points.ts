// One entry per point: picks the point's listeners (matching the tool at tool points), freezes
// the event, runs the point's runner within the point's budget, and records every invocation and
// the applied decision on the event bus. The loop, the tool pipeline and the evaluate API all
// decide through these functions, so a point behaves the same wherever it is reached.
import { freezeBuilt } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import type { PointName, ToolResult } from "@hookd/sdk";
import type { DecisionOf } from "./decisions.js";
import type { EventBus, EventScope } from "./events.js";
import type { ListenerError } from "./faults.js";
import type { EventOf } from "./listener.js";
import type { PluginRegistry } from "./registry.js";
import { DEFAULT_DECIDER, runExecute, runGuards, runNotification, runWaterfall } from "./runners.js";
import type { NotificationOutcome, NotificationPoint, PointOutcome, RunOptions, WaterfallPoint } from "./runners.js";

export interface PointEnv {
  readonly registry: PluginRegistry;
  readonly bus: EventBus;
  readonly scope: EventScope;
  /**
   * Cancellation of the turn (or of the agent's evaluate call). Polled on the way; an evaluate
   * call's is lazy, so a point whose plugins answer synchronously never makes its AbortSignal.
   */
  readonly signal: Cancellation;
  /** Total time all of a point's sequential plugins may take, in milliseconds. */
  readonly pointBudgetMs?: number;
}

function runOptions(env: PointEnv): RunOptions {
  return {
    signal: env.signal,
    ...(env.pointBudgetMs === undefined ? {} : { budgetEnd: performance.now() + env.pointBudgetMs }),
    onInvocation: (invocation) => env.bus.emit({ type: "invocation", scope: env.scope, invocation }),
  };
}

function toolName(event: unknown): string | undefined {
  return (event as { call?: { toolName?: string } }).call?.toolName;
}

/** The reason or feedback a decision carries, for the audit record. */
function reasonOf(decision: unknown): string | undefined {
  const d = decision as { reason?: unknown; feedback?: unknown; message?: unknown };
  const reason = d.reason ?? d.feedback ?? d.message;
  return typeof reason === "string" ? reason : undefined;
}

function recordDecision<D>(env: PointEnv, point: PointName, outcome: PointOutcome<D>, kind: (d: D) => string, started: number): void {
  const durationUs = Math.round((performance.now() - started) * 1000);
  if (outcome.type === "error") {
    env.bus.emit({ type: "decision", scope: env.scope, point, decision: "error", decidedBy: outcome.error.plugin, reason: outcome.error.message, durationUs });
    return;
  }
  const reason = reasonOf(outcome.decision);
  env.bus.emit({
    type: "decision",
    scope: env.scope,
    point,
    decision: kind(outcome.decision),
    decidedBy: outcome.decidedBy,
    ...(reason === undefined ? {} : { reason }),
    ...(outcome.fault?.fault === undefined ? {} : { cause: outcome.fault.fault }),
    durationUs,
  });
}

const byKind = (decision: { kind: string }): string => decision.kind;

async function decideWaterfall<P extends WaterfallPoint>(
  env: PointEnv,
  point: P,
  event: EventOf<P>,
  fallback: () => DecisionOf<P>,
): Promise<PointOutcome<DecisionOf<P>>> {
  const started = performance.now();
  const listeners = env.registry.listeners(point, toolName(event));
  const outcome = await runWaterfall(listeners, freezeBuilt(event), fallback, runOptions(env));
  recordDecision(env, point, outcome, byKind, started);
  return outcome;
}

/** pre-step: enter with the claimed batch unless a plugin decides otherwise. */
export function decidePreStep(env: PointEnv, event: EventOf<"pre-step">): Promise<PointOutcome<DecisionOf<"pre-step">>> {
  return decideWaterfall(env, "pre-step", event, () => ({ kind: "enter", messages: event.messages }));
}

/** pre-tool waterfall only (guards and approval are separate phases). Default: allow. */
export function decidePreTool(env: PointEnv, event: EventOf<"pre-tool">): Promise<PointOutcome<DecisionOf<"pre-tool">>> {
  return decideWaterfall(env, "pre-tool", event, () => ({ kind: "allow" }));
}

/** post-tool: accept unchanged unless a plugin decides otherwise. */
export function decidePostTool(env: PointEnv, event: EventOf<"post-tool">): Promise<PointOutcome<DecisionOf<"post-tool">>> {
  return decideWaterfall(env, "post-tool", event, () => ({ kind: "accept" }));
}

/** The guard list: abstain unless a guard denies. */
export async function decideGuards(env: PointEnv, event: EventOf<"guard">): Promise<PointOutcome<DecisionOf<"guard">>> {
  const listeners = env.registry.listeners("guard", toolName(event));
  // No guard for this tool: nothing to decide, nothing to record.
  if (listeners.length === 0) return { type: "decided", decision: { kind: "abstain" }, decidedBy: DEFAULT_DECIDER };
  const started = performance.now();
  const outcome = await runGuards(listeners, freezeBuilt(event), runOptions(env));
  recordDecision(env, "guard", outcome, byKind, started);
  return outcome;
}

/** The around-dispatch chain; total (faults and listener errors come back as results). */
export function executeChain(
  env: PointEnv,
  event: EventOf<"execute">,
  dispatch: (signal: AbortSignal) => Promise<ToolResult>,
  normalize: (raw: ToolResult, source: string) => ToolResult,
  onError: (error: ListenerError) => ToolResult,
): Promise<ToolResult> {
  return runExecute(env.registry.listeners("execute", toolName(event)), freezeBuilt(event), dispatch, normalize, onError, runOptions(env));
}

/** Notifications: every listener, answers in listener order. */
export async function notify<P extends NotificationPoint>(env: PointEnv, point: P, event: EventOf<P>): Promise<NotificationOutcome<P>> {
  const listeners = env.registry.listeners(point, point === "tool-result" ? toolName(event) : undefined);
  if (listeners.length === 0) return { answers: [], errors: [] };
  return runNotification(listeners, freezeBuilt(event), runOptions(env));
}

export type { PointOutcome, NotificationOutcome, ListenerError };
