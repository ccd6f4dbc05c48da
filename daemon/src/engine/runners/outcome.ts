// What the runners share: the options every run takes, the outcome of a decided point, and the
// promise a plugin may drop without crashing the daemon. Owns no ordering.
import type { ListenerError } from "../faults.js";
import type { CallOptions, Invocation } from "../invoke.js";

export interface RunOptions extends CallOptions {
  /** Receives every plugin invocation as it completes. */
  readonly onInvocation: (invocation: Invocation) => void;
}

/** What a point decided, and who decided it. */
export type PointOutcome<D> =
  | { readonly type: "decided"; readonly decision: D; readonly decidedBy: string; readonly fault?: Invocation }
  | { readonly type: "error"; readonly error: ListenerError };

/** The plugin name recorded when every listener passed. */
export const DEFAULT_DECIDER = "default";

/** The outcome of a listener's answer: it decided, with the fault that made it when a failure policy did. */
export function decidedBy<D>(decision: D, plugin: string, invocation: Invocation): PointOutcome<D> {
  const fault = invocation.outcome === "fault" ? invocation : undefined;
  return { type: "decided", decision, decidedBy: plugin, ...(fault ? { fault } : {}) };
}

/**
 * Marks a promise handed to a plugin as handled and returns it. A handler may drop what next()
 * returned (a second call, fire and forget): the outcome is recorded by the runner anyway, and an
 * unobserved rejection must not crash the daemon. Awaiting the promise still throws.
 */
export function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}
