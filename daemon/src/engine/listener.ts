// A Listener is one plugin's subscription to one point, whatever the plugin's kind: the engine
// calls every kind the same way. Owns the listener shape, the point-typed maps of events and
// answers, and the failure-policy defaults; knows nothing of how a kind reaches its handler.
import { compileToolMatcher } from "@hookd/sdk";
import type {
  ExecuteContext,
  HandlerContext,
  PointHandlers,
  PointName,
  FailurePolicy,
  SubscriptionOptions,
  ToolMatcher,
  WaterfallContext,
} from "@hookd/sdk";

/** How a plugin is reached. Over-the-wire kinds have every failure decided by the failure policy. */
export type ListenerKind = "in-process" | "worker" | "remote" | "command";

export type EventOf<P extends PointName> = Parameters<PointHandlers[P]>[0];
export type ContextOf<P extends PointName> = Parameters<PointHandlers[P]>[1];
/** What a handler may return at a point, before validation. */
export type AnswerOf<P extends PointName> = Awaited<ReturnType<PointHandlers[P]>>;

export interface Listener<P extends PointName = PointName> {
  readonly plugin: string;
  readonly point: P;
  readonly kind: ListenerKind;
  /** Lower runs outermost; ties by plugin name. */
  readonly priority: number;
  /** Applied by the engine before calling: a non-matching listener costs nothing. */
  readonly matches: ToolMatcher;
  /** Deadline of one call, in milliseconds. */
  readonly deadlineMs: number;
  readonly failurePolicy: FailurePolicy;
  /** May be called concurrently with its neighbours and folded in order (see the proto). */
  readonly sideEffectFree: boolean;
  /**
   * Calls the handler. Rejects with a PluginFault when the plugin could not answer (deadline,
   * crash, transport, unusable wire answer); any other rejection is the handler's own error.
   * The answer is validated by the caller. An in-process handler's answer may come back
   * synchronously (and its own error be thrown): then there is nothing to wait for.
   */
  call(event: EventOf<P>, ctx: ContextOf<P>): unknown;
}

export type AnyContext = HandlerContext | WaterfallContext<unknown> | ExecuteContext;

/** Points where a failing plugin refuses by default. */
export const GATE_POINTS: ReadonlySet<PointName> = new Set(["pre-step", "pre-tool", "guard", "post-tool"]);

export function defaultFailurePolicy(point: PointName): FailurePolicy {
  return GATE_POINTS.has(point) ? "fail-closed" : "fail-open";
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
