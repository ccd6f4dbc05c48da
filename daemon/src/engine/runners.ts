// The three ways a point calls its listeners, as the seed defines them:
// - waterfall: outermost first; an in-process handler may call next() once to run the inner
//   listeners; `pass` hands on to the next listener; the first decision is final; when all pass,
//   the point's default applies. A listener error is sticky: the waterfall's outcome is that
//   error whatever an outer handler does with it.
// - guards: every guard in order until the first deny; a guard can never allow.
// - notification: every listener, answers collected in listener order.
// Owns ordering and short-circuiting; knows nothing of what the decisions mean.
import { HookdError } from "@hookd/sdk";
import type { ExecuteContext, HandlerContext, ToolResult, WaterfallContext } from "@hookd/sdk";
import { isPass } from "./decisions.js";
import type { DecisionOf } from "./decisions.js";
import type { ListenerError } from "./faults.js";
import { callListener } from "./invoke.js";
import type { CallOptions, Invocation } from "./invoke.js";
import type { ContextOf, EventOf, Listener } from "./listener.js";

export type WaterfallPoint = "pre-step" | "pre-tool" | "post-tool";

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

class StickyError {
  constructor(readonly error: ListenerError) {}
}

/**
 * Marks a promise handed to a plugin as handled and returns it. A handler may drop what next()
 * returned (a second call, fire and forget): the outcome is recorded by the runner anyway, and an
 * unobserved rejection must not crash the daemon. Awaiting the promise still throws.
 */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

export async function runWaterfall<P extends WaterfallPoint>(
  listeners: readonly Listener<P>[],
  event: EventOf<P>,
  fallback: () => DecisionOf<P>,
  options: RunOptions,
): Promise<PointOutcome<DecisionOf<P>>> {
  let sticky: StickyError | undefined;

  const dispatch = async (index: number): Promise<PointOutcome<DecisionOf<P>>> => {
    const listener = listeners[index];
    if (listener === undefined) return { type: "decided", decision: fallback(), decidedBy: DEFAULT_DECIDER };
    let inner: Promise<PointOutcome<DecisionOf<P>>> | undefined;
    const next = (): Promise<DecisionOf<P>> => {
      if (inner !== undefined) {
        return handled(Promise.reject(new HookdError("invalid_decision", `plugin ${listener.plugin} called next() twice at ${listener.point}`)));
      }
      inner = dispatch(index + 1);
      return handled(
        inner.then((outcome) => {
          if (outcome.type === "error") throw outcome.error;
          return outcome.decision;
        }),
      );
    };
    const makeContext = (signal: AbortSignal): ContextOf<P> =>
      ({ signal, plugin: listener.plugin, next }) satisfies WaterfallContext<DecisionOf<P>> as unknown as ContextOf<P>;
    const result = await callListener(listener, event, makeContext, options);
    options.onInvocation(result.invocation);
    if (sticky !== undefined) return { type: "error", error: sticky.error };
    if (result.type === "error") {
      sticky = new StickyError(result.error);
      return { type: "error", error: result.error };
    }
    const answer = result.answer;
    if (isPass(answer)) return inner ?? dispatch(index + 1);
    const fault = result.invocation.outcome === "fault" ? result.invocation : undefined;
    return { type: "decided", decision: answer, decidedBy: listener.plugin, ...(fault ? { fault } : {}) };
  };

  const outcome = await dispatch(0);
  return sticky !== undefined ? { type: "error", error: sticky.error } : outcome;
}

/** Guards in order; the first deny wins and later guards are not called. */
export async function runGuards(
  listeners: readonly Listener<"guard">[],
  event: EventOf<"guard">,
  options: RunOptions,
): Promise<PointOutcome<DecisionOf<"guard">>> {
  for (const listener of listeners) {
    const result = await callListener(listener, event, (signal): HandlerContext => ({ signal, plugin: listener.plugin }), options);
    options.onInvocation(result.invocation);
    if (result.type === "error") return { type: "error", error: result.error };
    if (result.answer.kind === "deny") {
      const fault = result.invocation.outcome === "fault" ? result.invocation : undefined;
      return { type: "decided", decision: result.answer, decidedBy: listener.plugin, ...(fault ? { fault } : {}) };
    }
  }
  return { type: "decided", decision: { kind: "abstain" }, decidedBy: DEFAULT_DECIDER };
}

export type NotificationPoint = "session-start" | "tool-result" | "turn-stopping";

export interface NotificationOutcome<P extends NotificationPoint> {
  /** Non-pass answers in listener order, with the plugin that gave each. */
  readonly answers: readonly { readonly plugin: string; readonly decision: DecisionOf<P> }[];
  /** Listener errors, in listener order. */
  readonly errors: readonly ListenerError[];
}

/** Calls every listener concurrently; answers and errors are reported in listener order. */
export async function runNotification<P extends NotificationPoint>(
  listeners: readonly Listener<P>[],
  event: EventOf<P>,
  options: RunOptions,
): Promise<NotificationOutcome<P>> {
  const results = await Promise.all(
    listeners.map((listener) =>
      callListener(listener, event, (signal) => ({ signal, plugin: listener.plugin }), options).then((result) => {
        options.onInvocation(result.invocation);
        return { listener, result };
      }),
    ),
  );
  const answers: { plugin: string; decision: DecisionOf<P> }[] = [];
  const errors: ListenerError[] = [];
  for (const { listener, result } of results) {
    if (result.type === "error") errors.push(result.error);
    else if (!isPass(result.answer)) answers.push({ plugin: listener.plugin, decision: result.answer });
  }
  return { answers, errors };
}

/**
 * The around-dispatch chain: wrappers outermost first around `dispatch`. A wrapper's next()
 * returns the normalized result of everything inside it; `pass` means "call next() for me".
 * Listener errors and faults are returned as results by `normalize`, never thrown.
 */
export async function runExecute(
  listeners: readonly Listener<"execute">[],
  event: EventOf<"execute">,
  dispatch: (signal: AbortSignal) => Promise<ToolResult>,
  normalize: (raw: ToolResult, source: string) => ToolResult,
  onError: (error: ListenerError) => ToolResult,
  options: RunOptions,
): Promise<ToolResult> {
  const run = async (index: number, signal: AbortSignal): Promise<ToolResult> => {
    const listener = listeners[index];
    if (listener === undefined) return dispatch(signal);
    let inner: Promise<ToolResult> | undefined;
    const callerSignal = signal;
    const makeContext = (callSignal: AbortSignal): ExecuteContext => ({
      signal: callSignal,
      plugin: listener.plugin,
      next: (nextOptions) => {
        if (inner !== undefined) return handled(Promise.reject(new HookdError("invalid_decision", `plugin ${listener.plugin} called next() twice at execute`)));
        // A wrapper may replace the signal, but the caller's cancellation still reaches the body.
        const replaced = nextOptions?.signal;
        inner = run(index + 1, replaced === undefined ? callerSignal : AbortSignal.any([replaced, callerSignal]));
        return handled(inner);
      },
    });
    const result = await callListener(listener, event, makeContext, { ...options, signal });
    options.onInvocation(result.invocation);
    if (result.type === "error") return onError(result.error);
    if (isPass(result.answer)) return inner ?? run(index + 1, signal);
    return normalize(result.answer, listener.plugin);
  };
  return run(0, options.signal);
}
