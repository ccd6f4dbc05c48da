// A Listener is one plugin's subscription to one point, whatever the plugin's kind: the engine
// calls every kind the same way and knows none of them; what matters to a runner is declared as
// the listener's traits. Owns the listener shape, the point-typed maps of events and contexts,
// and the subscription settings' defaults.
import { POINT_TABLE, compileToolMatcher } from "@hookd/sdk";
import type { EventOf, FailurePolicy, JsonValue, PointHandlers, PointName, SubscriptionOptions, ToolMatcher } from "@hookd/sdk";
import type { Cancellation } from "@hookd/sdk/internal";

/** A point's event, as the point table declares it. */
export type { EventOf } from "@hookd/sdk";
export type ContextOf<P extends PointName> = Parameters<PointHandlers[P]>[1];

/** Whether a listener's answers are applied ("enforce") or only audited ("shadow"). */
export type ListenerMode = "enforce" | "shadow";

/** What the runners need to know of how a listener is reached; every kind declares its own. */
export interface ListenerTraits {
  /** Its handler may call next(), so it runs around the listeners after it and is never fanned out. */
  readonly wraps: boolean;
  /**
   * Its answers arrive over a wire (a process, a socket): one the engine cannot use is the
   * plugin's fault, decided by its failure policy, not a handler's own error.
   */
  readonly answersOverWire: boolean;
  /** It settles its own calls and drops its abort listeners: the engine need not abort the call's signal when a call ends. */
  readonly settlesItself: boolean;
  /** Its request leaves only when the event loop turns: a concurrent call after it is started a turn later. */
  readonly sendsOnNextTurn: boolean;
}

/** How a call of the listener ends: the engine's own cancellation of it (deadline, caller gone) and its deadline. */
export interface ListenerCall {
  /** Aborted with a plugin fault at the deadline, with the caller's reason when the caller cancels, or when the call is over. */
  readonly cancellation: Cancellation;
  /** The effective deadline of this call in milliseconds: the smaller of the listener's and what is left of the point's budget. */
  readonly timeoutMs: number;
  /** The W3C traceparent of this call's span when tracing is on, given to listeners that answer over a wire, which send it along. */
  readonly traceparent?: string;
}

export interface Listener<P extends PointName = PointName> {
  readonly plugin: string;
  readonly point: P;
  /** How the plugin is reached, as audit records and metrics name it ("in-process", "remote", ...). */
  readonly kind: string;
  readonly traits: ListenerTraits;
  /** Lower runs outermost; ties by plugin name. */
  readonly priority: number;
  /** Applied by the engine before calling: a non-matching listener costs nothing. */
  readonly matches: ToolMatcher;
  /** Deadline of one call, in milliseconds. */
  readonly deadlineMs: number;
  /**
   * The time this listener's own work needs at its point (a command plugin: its hooks' timeouts,
   * the agent's defaults). When the daemon's point budget is not set explicitly, a call where the
   * listener matches gets the budget plus this (registry.ts), so the hooks get the time the agent
   * would give them and the other plugins keep theirs. Absent: nothing on top.
   */
  readonly ownBudgetMs?: number;
  readonly failurePolicy: FailurePolicy;
  /** May be called concurrently with its neighbours and folded in order (see the proto). */
  readonly sideEffectFree: boolean;
  /**
   * "shadow": called beside the enforcing listeners and audited, its answer never applied
   * (runners/shadow.ts). Absent means "enforce"; the plugin set sets it from the config.
   */
  readonly mode?: ListenerMode;
  /**
   * Calls the handler with its author-facing context; `call` carries the engine's cancellation
   * and the effective deadline, which the engine alone enforces. Rejects with a plugin fault when
   * the plugin could not answer (crash, transport, unusable wire answer); any other rejection is
   * the handler's own error. The answer is validated by the caller. An in-process handler's
   * answer may come back synchronously (and its own error be thrown): then there is nothing to
   * wait for.
   */
  call(event: EventOf<P>, ctx: ContextOf<P>, call: ListenerCall): unknown;
  /**
   * Plugins whose decisions are rules (kind: rules): the rule that made `answer` (an answer this
   * listener's call just returned), for the audit and the explanations. Absent: no rules.
   */
  ruleOf?(answer: unknown): RuleExplanation | undefined;
}

/** Which rule made an answer, and the values of the event's fields it read. */
export interface RuleExplanation {
  readonly rule: string;
  /** e.g. `{"call.command": "rm -rf /"}`. */
  readonly values: Readonly<Record<string, JsonValue>>;
}

/** Traits of a handler called directly on the daemon's main thread. */
export const IN_PROCESS_TRAITS: ListenerTraits = Object.freeze({ wraps: true, answersOverWire: false, settlesItself: false, sendsOnNextTurn: false });

/** Gates refuse by default when their plugin fails; everything else is passed over. */
export function defaultFailurePolicy(point: PointName): FailurePolicy {
  return POINT_TABLE[point].gate ? "fail-closed" : "fail-open";
}

/** The default deadline of one plugin call when neither the plugin nor the config sets one. */
export const DEFAULT_DEADLINE_MS = 2_000;

/** Orders listeners: priority ascending, then plugin name. */
export function compareListeners(a: Listener, b: Listener): number {
  return a.priority - b.priority || (a.plugin < b.plugin ? -1 : a.plugin > b.plugin ? 1 : 0);
}

/** Per-subscription settings the config may override. */
export interface ListenerOverrides {
  readonly priority?: number;
  readonly deadlineMs?: number;
  readonly failurePolicy?: FailurePolicy;
  readonly tools?: readonly string[];
}

/** A subscription's settings: the config's override, else the plugin's own, else the default. */
export function resolveSettings(
  point: PointName,
  override: ListenerOverrides,
  own: SubscriptionOptions,
  defaultDeadlineMs: number,
  /** Where the matchers came from, for the error an invalid matcher raises. */
  matchersPath = `points.${point}.tools`,
): Pick<Listener, "priority" | "matches" | "deadlineMs" | "failurePolicy"> {
  return {
    priority: override.priority ?? own.priority ?? 0,
    matches: compileToolMatcher(override.tools ?? own.tools, matchersPath),
    deadlineMs: override.deadlineMs ?? own.deadlineMs ?? defaultDeadlineMs,
    failurePolicy: override.failurePolicy ?? own.failurePolicy ?? defaultFailurePolicy(point),
  };
}
