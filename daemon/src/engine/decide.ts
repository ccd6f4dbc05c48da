// One entry for every point: picks the point's listeners (matching the point's match key: the
// tool at tool-scoped points, the event name at agent-event), freezes the event, runs the runner
// of the point's mode within the point's budget, and records every invocation and the applied
// decision on the event bus; the point's shadow listeners are started beside the enforcing ones
// and never awaited (runners/shadow.ts). The loop, the tool pipeline and the evaluate API all
// decide through `decide`, so a point behaves the same wherever it is reached, and a deciding
// point's verdict carries the trace its callers report (verdict.ts). With a tracer in the
// environment a decided point is one span and each of its calls a child (engine/tracing.ts).
// Knows the modes, never a point by name.
import { POINT_TABLE, hasNotice, matchKeyOf, noticeOf, unreachable } from "@hookd/sdk";
import type { Budgets, DecisionOf, EventOf, PointName, PointSpec, PointTable, ToolCall, ToolResult } from "@hookd/sdk";
import { freezeBuilt } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import { reasonOf } from "./decisions.js";
import type { EventBus, EventScope } from "./events.js";
import type { ChainOutcome } from "./runners/chain.js";
import { runChain } from "./runners/chain.js";
import type { Listener } from "./listener.js";
import type { PluginRegistry } from "./registry.js";
import type { AroundDispatch } from "./runners/execute.js";
import { runAround } from "./runners/execute.js";
import { runGuards } from "./runners/guards.js";
import type { NotificationOutcome } from "./runners/notify.js";
import { runNotification } from "./runners/notify.js";
import { NoticesHeard } from "./runners/notices.js";
import { startShadows } from "./runners/shadow.js";
import type { PointOutcome, RunOptions } from "./runners/outcome.js";
import { DEFAULT_DECIDER } from "./runners/outcome.js";
import { runWaterfall } from "./runners/waterfall.js";
import type { DecisionSpan, DecisionTracer } from "./tracing.js";
import { summarize } from "./tracing.js";
import type { Traced } from "./verdict.js";
import { LISTENER_ERROR, elapsedUs, recordDecision, traced } from "./verdict.js";

/** Where points are decided. Of its budgets, a point's sequential plugins together run under the one its spec names (PointSpec.budget). */
export interface PointEnv extends Budgets {
  readonly registry: PluginRegistry;
  readonly bus: EventBus;
  readonly scope: EventScope;
  /**
   * Cancellation of the turn (or of the agent's evaluate call). Polled on the way; an evaluate
   * call's is lazy, so a point whose plugins answer synchronously never makes its AbortSignal.
   */
  readonly signal: Cancellation;
  /** Set when tracing is on: each decided point becomes a span, its plugin calls child spans. */
  readonly trace?: DecisionTracer;
}

type ModeOf<P extends PointName> = PointTable[P]["mode"];

/**
 * What deciding a point gives, by its mode: the answers of a notification, the result of an
 * around, or the verdict of a deciding mode (the decision, or the chained event and so the call
 * with its effective arguments, or the listener error), with its trace and its failure cause.
 */
export type Decided<P extends PointName> = ModeOf<P> extends "notification"
  ? NotificationOutcome<DecisionOf<P>>
  : ModeOf<P> extends "around"
    ? ToolResult
    : ModeOf<P> extends "chain"
      ? Traced<ChainOutcome<EventOf<P>, DecisionOf<P>>>
      : Traced<PointOutcome<DecisionOf<P>>>;

/** The around mode needs core dispatch; the others nothing more than the event. */
type ModeArgs<P extends PointName> = ModeOf<P> extends "around" ? [around: AroundDispatch] : [];

/**
 * Decides `point` for `event`. Total for its listeners' failures (they become decisions, listener
 * errors or results); rejects only when env.signal aborts.
 */
export function decide<P extends PointName>(env: PointEnv, point: P, event: EventOf<P>, ...args: ModeArgs<P>): Promise<Decided<P>> {
  const spec: PointSpec = POINT_TABLE[point];
  const key = matchKeyOf(point, event);
  const listeners = env.registry.listeners(point, key);
  const shadows = env.registry.shadows(point, key);
  // A point nobody listens to decides nothing and gets no span.
  const span = env.trace === undefined || (listeners.length === 0 && shadows.length === 0) ? undefined : env.trace.startDecision(point, env.scope);
  // The point's records (decision, invocations, shadow verdicts) carry the trace id for the audit.
  const pointEnv = span === undefined ? env : { ...env, scope: { ...env.scope, traceId: span.traceId } };
  const real = enforced(pointEnv, spec, point, listeners, event, args, span);
  if (shadows.length > 0) {
    startShadows(shadows, freezeBuilt(event), {
      mode: spec.mode,
      real,
      emit: (shadow) => pointEnv.bus.emit({ type: "shadow-decision", scope: pointEnv.scope, shadow }),
      ...(span === undefined ? {} : { trace: span }),
    });
  }
  if (span !== undefined) {
    real.then(
      (outcome) => span.end(summarize(spec.mode, outcome)),
      () => span.end({ outcome: "cancelled" }),
    );
  }
  return real;
}

/** The enforcing listeners' decision: the one that is applied. */
function enforced<P extends PointName>(
  env: PointEnv,
  spec: PointSpec,
  point: P,
  listeners: readonly Listener<P>[],
  event: EventOf<P>,
  args: ModeArgs<P>,
  span: DecisionSpan | undefined,
): Promise<Decided<P>> {
  const budgetMs = env[spec.budget.of];
  const runOptions = (env: PointEnv, listeners: readonly Listener[]): RunOptions => optionsOf(env, budgetMs, listeners, span);
  const mode = spec.mode;
  switch (mode) {
    case "waterfall": {
      if (spec.notices !== true) return recorded(env, point, () => runWaterfall(listeners, freezeBuilt(event), () => spec.fallback(event) as DecisionOf<P>, runOptions(env, listeners))) as Promise<Decided<P>>;
      const heard = new NoticesHeard(listeners);
      const options = runOptions(env, listeners);
      const listening: RunOptions = { ...options, onInvocation: (invocation) => { heard.note(invocation); options.onInvocation(invocation); } };
      return recorded(env, point, async () => heard.applied(await runWaterfall(listeners, freezeBuilt(event), () => spec.fallback(event) as DecisionOf<P>, listening))) as Promise<Decided<P>>;
    }
    case "guards": {
      const abstain = spec.fallback(event) as DecisionOf<P> & { readonly kind: string };
      // No guard for this tool: nothing to decide, nothing to record.
      if (listeners.length === 0) return Promise.resolve(traced({ type: "decided", decision: abstain, decidedBy: DEFAULT_DECIDER }, DEFAULT_DECIDER, undefined, 0)) as Promise<Decided<P>>;
      return recorded(env, point, () => runGuards(listeners, freezeBuilt(event), runOptions(env, listeners), abstain)) as Promise<Decided<P>>;
    }
    case "notification":
      if (listeners.length === 0) return Promise.resolve(NO_ANSWERS as NotificationOutcome<DecisionOf<P>>) as Promise<Decided<P>>;
      return runNotification(listeners, freezeBuilt(event), runOptions(env, listeners)) as Promise<Decided<P>>;
    case "around": {
      const [around] = args as [AroundDispatch];
      return runAround(listeners, freezeBuilt(event), around, runOptions(env, listeners)) as Promise<Decided<P>>;
    }
    case "chain": {
      const frozen = freezeBuilt(event);
      // Nobody rewrites this tool: the event stays as it is, nothing to record.
      if (listeners.length === 0) return Promise.resolve(traced<ChainOutcome<EventOf<P>, DecisionOf<P>>>({ type: "chained", event: frozen, changedBy: [] }, DEFAULT_DECIDER, undefined, 0)) as Promise<Decided<P>>;
      const apply = (current: EventOf<P>, decision: DecisionOf<P>, plugin: string) => spec.apply?.(current, decision, plugin) as EventOf<P> | undefined;
      return recordedChain(env, point, frozen, () => runChain(listeners, frozen, apply, freezeBuilt, runOptions(env, listeners))) as Promise<Decided<P>>;
    }
    default:
      return unreachable(mode, "point mode");
  }
}

const NO_ANSWERS: NotificationOutcome<never> = Object.freeze({ answers: [], errors: [] });

function optionsOf(env: PointEnv, budgetMs: number | undefined, listeners: readonly Listener[], span: DecisionSpan | undefined): RunOptions {
  return {
    signal: env.signal,
    ...(span === undefined ? {} : { trace: span }),
    ...(budgetMs === undefined ? {} : { budgetEnd: performance.now() + budgetMs + env.registry.extraBudgetMs(listeners) }),
    onInvocation: (invocation) => env.bus.emit({ type: "invocation", scope: env.scope, invocation }),
  };
}

/** Runs a deciding runner and records its outcome as the point's applied decision. */
async function recorded<D>(env: PointEnv, point: PointName, run: () => Promise<PointOutcome<D>>): Promise<Traced<PointOutcome<D>>> {
  const started = performance.now();
  const outcome = await run();
  const durationUs = elapsedUs(started);
  if (outcome.type === "error") {
    recordDecision(env, point, "error", outcome.error.details.plugin, durationUs, outcome.error.message);
    return traced(outcome, outcome.error.details.plugin, LISTENER_ERROR, durationUs);
  }
  const cause = outcome.fault?.fault;
  const notice = noticeOf(outcome.decision);
  recordDecision(env, point, (outcome.decision as { readonly kind: string }).kind, outcome.decidedBy, durationUs, reasonOf(outcome.decision), cause, undefined, outcome.rule, hasNotice(notice) ? notice : undefined);
  return traced(outcome, outcome.decidedBy, cause, durationUs);
}

/**
 * Runs a chain and records its outcome as the point's applied decision: "rewrite" by the plugins
 * that changed the event (in order), "pass" by "default" when none did (with the cause of the
 * first failure passed over, if any), or the failure policy's refusal. At a tool point the record
 * carries the call as the chain left it (or as proposed, on a refusal), so the audit holds both
 * argument versions and the rewriters.
 */
async function recordedChain<E, D>(env: PointEnv, point: PointName, proposed: E, run: () => Promise<ChainOutcome<E, D>>): Promise<Traced<ChainOutcome<E, D>>> {
  const started = performance.now();
  const outcome = await run();
  const durationUs = elapsedUs(started);
  switch (outcome.type) {
    case "error":
      recordDecision(env, point, "error", outcome.error.details.plugin, durationUs, outcome.error.message, undefined, callOf(proposed));
      return traced(outcome, outcome.error.details.plugin, LISTENER_ERROR, durationUs);
    case "decided": {
      const cause = outcome.fault?.fault;
      const kind = (outcome.decision as { readonly kind: string }).kind;
      recordDecision(env, point, kind, outcome.decidedBy, durationUs, reasonOf(outcome.decision), cause, callOf(proposed));
      return traced(outcome, outcome.decidedBy, cause, durationUs);
    }
    case "chained": {
      const decidedBy = outcome.changedBy.length > 0 ? outcome.changedBy.join(",") : DEFAULT_DECIDER;
      const cause = outcome.fault?.fault;
      recordDecision(env, point, outcome.changedBy.length > 0 ? "rewrite" : "pass", decidedBy, durationUs, undefined, cause, callOf(outcome.event));
      return traced(outcome, decidedBy, cause, durationUs);
    }
  }
}

/** The call of a tool point's event, for its decision record. */
function callOf(event: unknown): ToolCall | undefined {
  return (event as { readonly call?: ToolCall }).call;
}

export type { PointOutcome, NotificationOutcome, AroundDispatch, Traced };
