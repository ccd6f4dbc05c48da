// Calling a plugin's handlers in the test's own process: the handler of a point gets a typed
// event and a context like the daemon's (a signal, the plugin's name, `next()` and `traceparent`
// when the test gives them), and its answer is validated exactly as the daemon validates it, so a
// test asserts on the typed decision the daemon would apply. No socket, no daemon;
// startTestDaemon is for those.
import { HookdError } from "../errors.js";
import { compileToolMatcher } from "../matcher.js";
import { matchKeyOf } from "../points/index.js";
import type { EventOf, PointAnswer, PointName } from "../points/index.js";
import type { PluginDefinition } from "../plugin.js";
import { validateDecision } from "../validate.js";

export interface CallHandlerOptions {
  /** Aborting it reaches the handler as `ctx.signal`; default a signal that never aborts (unless `timeoutMs`). */
  readonly signal?: AbortSignal;
  /** Aborts the handler's signal after this many milliseconds, as the daemon's deadline would. */
  readonly timeoutMs?: number;
  /**
   * What `ctx.next()` resolves with at a waterfall or execute point (what the inner plugins, or the
   * dispatch, decided). Absent: `next()` rejects, as it does out of process, where a plugin
   * returns pass() to defer instead.
   */
  readonly next?: () => Promise<unknown>;
  /** `ctx.traceparent`, as the daemon sends it to a served plugin while its tracing is on. */
  readonly traceparent?: string;
}

const NO_NEXT = "callHandler: no next() was given (options.next); out of process there is none either: return pass() to defer";

/**
 * Calls `plugin`'s handler for `point` with `event` and returns its validated answer: the point's
 * decision or pass (a notification answers pass). Throws HookdError("invalid_plugin") when the
 * plugin does not handle `point`, HookdError("invalid_decision") naming the field when the answer
 * is not a valid decision (the daemon would count it as a failure), and whatever the handler threw.
 * It calls the handler even when the subscription's matchers would not: ask `matches()` for that.
 */
export async function callHandler<P extends PointName>(plugin: PluginDefinition, point: P, event: EventOf<P>, options: CallHandlerOptions = {}): Promise<PointAnswer<P>> {
  const subscription = plugin.subscriptions[point];
  if (subscription === undefined) {
    const handled = Object.keys(plugin.subscriptions).join(", ");
    throw new HookdError("invalid_plugin", `callHandler: ${plugin.name} has no ${point} handler (it handles ${handled})`);
  }
  const signals = [options.signal, options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs)].filter((s) => s !== undefined);
  const signal = signals.length === 0 ? new AbortController().signal : AbortSignal.any(signals);
  const next = options.next ?? ((): Promise<never> => Promise.reject(new HookdError("invalid_argument", NO_NEXT)));
  // Every point's handler through the signature they share: (event, context) => answer.
  const handler = subscription.handler as (event: EventOf<P>, ctx: object) => unknown;
  const answer = await handler(event, { signal, plugin: plugin.name, next, ...(options.traceparent === undefined ? {} : { traceparent: options.traceparent }) });
  const checked = validateDecision(point, answer);
  if (!checked.ok) throw checked.error;
  return checked.decision;
}

/**
 * Whether the daemon would call `plugin` for `event` at `point`: it handles the point and its
 * matchers (tool name at tool points, event name at agent-event) match. The daemon filters
 * before calling, so an unmatched plugin is never called at all.
 */
export function matches<P extends PointName>(plugin: PluginDefinition, point: P, event: EventOf<P>): boolean {
  const subscription = plugin.subscriptions[point];
  if (subscription === undefined) return false;
  const key = matchKeyOf(point, event);
  return key === undefined || compileToolMatcher(subscription.tools)(key);
}
