// What the runners share: the options every run takes, the outcome of a decided point (with the
// failure that made it, a default's included), and the promise a plugin may drop without crashing
// the daemon. Owns no ordering.
import type { ListenerError } from "../faults.js";
import type { CallOptions, Invocation } from "../invoke.js";
import type { Listener } from "../listener.js";

export interface RunOptions extends CallOptions {
  /** Receives every plugin invocation as it completes. */
  readonly onInvocation: (invocation: Invocation) => void;
}

/**
 * What a point decided, and who decided it. `fault` is the call whose failure made the decision
 * through its failure policy: the deciding plugin's own (a fail-closed refusal), or, when the
 * default decided, the first call in listener order whose failure counted as no opinion.
 */
export type PointOutcome<D> =
  | { readonly type: "decided"; readonly decision: D; readonly decidedBy: string; readonly fault?: Invocation; readonly rule?: string }
  | { readonly type: "error"; readonly error: ListenerError };

/** The plugin name recorded when every listener passed. */
export const DEFAULT_DECIDER = "default";

/** The outcome of a listener's answer: it decided, with the fault that made it when a failure policy did. */
export function decidedBy<D>(decision: D, plugin: string, invocation: Invocation): PointOutcome<D> {
  const fault = invocation.outcome === "fault" ? invocation : undefined;
  return { type: "decided", decision, decidedBy: plugin, ...(fault ? { fault } : {}), ...(invocation.rule === undefined ? {} : { rule: invocation.rule }) };
}

/**
 * True for a call that failed and was answered with the failure policy's pass (fail-open, or a
 * point whose refusal is no opinion): the plugin counts as having passed.
 */
export function failedAsPass(invocation: Invocation): boolean {
  return invocation.outcome === "fault" && invocation.decision === "pass";
}

/** The point's default decided; `passedOver` is the first call whose failure counted as no opinion, if any. */
export function decidedByDefault<D>(decision: D, passedOver: Invocation | undefined): PointOutcome<D> {
  return { type: "decided", decision, decidedBy: DEFAULT_DECIDER, ...(passedOver === undefined ? {} : { fault: passedOver }) };
}

/**
 * Keeps the first call, in listener order, whose failure counted as no opinion, for a runner
 * whose calls do not complete in listener order (a wrapper's next(), a fanned-out run).
 */
export class PassedOverFailures {
  readonly #listeners: readonly Listener[];
  #first: Invocation | undefined;
  #firstAt = Infinity;

  constructor(listeners: readonly Listener[]) {
    this.#listeners = listeners;
  }

  get first(): Invocation | undefined {
    return this.#first;
  }

  /** A call whose failure counted as no opinion (failedAsPass). */
  note(invocation: Invocation): void {
    const at = this.#listeners.findIndex((listener) => listener.plugin === invocation.plugin);
    if (at >= 0 && at < this.#firstAt) {
      this.#first = invocation;
      this.#firstAt = at;
    }
  }
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
