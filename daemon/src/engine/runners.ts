// The three ways a point calls its listeners, as the seed defines them:
// - waterfall: outermost first; an in-process handler may call next() once to run the inner
//   listeners; `pass` hands on to the next listener; the first decision is final; when all pass,
//   the point's default applies. A listener error is sticky: the waterfall's outcome is that
//   error whatever an outer handler does with it.
//   A run of two or more consecutive side-effect-free leaf listeners (remote, worker, command:
//   they cannot call next()) is called concurrently and folded in order (see `fanOut`); in-process
//   listeners around such a run keep their sequential next() semantics.
// - guards: every guard in order until the first deny; a guard can never allow.
// - notification: every listener, answers collected in listener order.
// Owns ordering and short-circuiting; knows nothing of what the decisions mean.
import { HookdError } from "@hookd/sdk";
import type { ExecuteContext, HandlerContext, ToolResult, WaterfallContext } from "@hookd/sdk";
import { isPass } from "./decisions.js";
import type { DecisionOf } from "./decisions.js";
import type { ListenerError } from "./faults.js";
import { CallContext, LazyAbort, NextContext, signalOf, whenAborted } from "@hookd/sdk/internal";
import { callListener } from "./invoke.js";
import type { CallOptions, CallResult, Invocation } from "./invoke.js";
import type { ContextOf, EventOf, Listener, ListenerKind } from "./listener.js";

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

/** Resolves in the event loop's next turn, after pending I/O (setImmediate). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Kinds whose handler cannot call next(): its answer does not depend on the listeners after it. */
const LEAF_KINDS: ReadonlySet<ListenerKind> = new Set(["remote", "worker", "command"]);

function foldable(listener: Listener | undefined): boolean {
  return listener !== undefined && listener.sideEffectFree && LEAF_KINDS.has(listener.kind);
}

/**
 * For each index, the end (exclusive) of the run of foldable listeners starting there; equal to
 * the index for a listener that is not foldable.
 */
function foldableRuns(listeners: readonly Listener[]): number[] {
  const ends = new Array<number>(listeners.length);
  for (let index = listeners.length - 1; index >= 0; index--) {
    ends[index] = foldable(listeners[index]) ? (ends[index + 1] ?? index + 1) : index;
  }
  return ends;
}

type Settled<P extends WaterfallPoint> =
  | { readonly type: "result"; readonly result: CallResult<P> }
  | { readonly type: "thrown"; readonly durationUs: number };

/** The abort reason of a fanned-out call whose answer is no longer needed. */
export class AnswerNotNeeded extends HookdError {
  constructor(decidedBy: string) {
    super("cancelled", `answer not needed: ${decidedBy} decided first`);
  }
}

export async function runWaterfall<P extends WaterfallPoint>(
  listeners: readonly Listener<P>[],
  event: EventOf<P>,
  fallback: () => DecisionOf<P>,
  options: RunOptions,
): Promise<PointOutcome<DecisionOf<P>>> {
  let sticky: StickyError | undefined;
  const runEnds = foldableRuns(listeners);

  /**
   * Starts listeners [start, end) without waiting for their answers and folds the answers in
   * order, giving exactly the outcome the sequential waterfall gives: the first non-pass answer (a
   * failure-policy answer included) decides, the first listener error is sticky, and when all pass
   * the waterfall goes on at `end`. Each call gets min(its deadline, the budget left at its start).
   * Once the outcome is known, the calls after the deciding one are aborted and awaited (a cut-off
   * call settles at once), and every call whose answer was not used is recorded with outcome
   * "discarded" after the used ones: decision "cancelled" when it was cut off, else the kind of
   * what it answered. When the caller cancels, this rejects like the sequential waterfall, and only
   * calls that had already answered are recorded (as discarded).
   */
  const fanOut = async (start: number, end: number): Promise<PointOutcome<DecisionOf<P>>> => {
    const discard = new LazyAbort();
    const unlink = whenAborted(options.signal, () => discard.abort(options.signal.reason));
    const callOptions: RunOptions = { ...options, signal: discard };
    const started = performance.now();
    const pending: Promise<Settled<P>>[] = [];
    let settledCalls = 0;
    try {
      for (let index = start; index < end; index++) {
        const listener = listeners[index] as Listener<P>;
        // A remote call's request reaches its socket only when the event loop turns. Starting the
        // next call in a later turn lets each plugin start working while the daemon prepares the
        // next request, instead of all of them waiting for the last (bench/, fanout4).
        if (index > start && listeners[index - 1]?.kind === "remote") await nextTurn();
        const makeContext = (abort: LazyAbort): ContextOf<P> =>
          new NextContext(abort, listener.plugin, () =>
            handled(Promise.reject(new HookdError("invalid_decision", `plugin ${listener.plugin} (${listener.kind}) cannot call next()`))),
          ) satisfies WaterfallContext<DecisionOf<P>> as unknown as ContextOf<P>;
        pending.push(
          callListener(listener, event, makeContext, callOptions).then(
            (result): Settled<P> => {
              settledCalls++;
              return { type: "result", result };
            },
            (): Settled<P> => {
              settledCalls++;
              return { type: "thrown", durationUs: Math.round((performance.now() - started) * 1000) };
            },
          ),
        );
      }
      let outcome: PointOutcome<DecisionOf<P>> | undefined;
      let used = 0;
      let cancelled = false;
      for (const call of pending) {
        const settled = await call;
        if (settled.type === "thrown") {
          // callListener throws only when its signal aborted, and nothing is discarded before the
          // outcome is known: the caller cancelled.
          cancelled = true;
          break;
        }
        used++;
        const { result } = settled;
        options.onInvocation(result.invocation);
        if (result.type === "error") {
          sticky ??= new StickyError(result.error);
          outcome = { type: "error", error: result.error };
          break;
        }
        if (!isPass(result.answer)) {
          const listener = listeners[start + used - 1] as Listener<P>;
          const fault = result.invocation.outcome === "fault" ? result.invocation : undefined;
          outcome = { type: "decided", decision: result.answer, decidedBy: listener.plugin, ...(fault ? { fault } : {}) };
          break;
        }
      }
      if (!cancelled && outcome === undefined) return await dispatch(end);
      // Cut off the calls still running, if any: with all of them answered, the abort (an Error
      // with its async stack, and an event) would cost ~50 us for nothing (bench/, fanout4).
      if (!discard.aborted && settledCalls < pending.length) {
        discard.abort(new AnswerNotNeeded(outcome?.type === "decided" ? outcome.decidedBy : (outcome?.error.plugin ?? "")));
      }
      const rest = await Promise.all(pending.slice(used));
      rest.forEach((settled, offset) => {
        const listener = listeners[start + used + offset] as Listener<P>;
        if (settled.type === "result") options.onInvocation({ ...settled.result.invocation, outcome: "discarded" });
        else if (!cancelled) {
          options.onInvocation({ plugin: listener.plugin, point: listener.point, kind: listener.kind, durationUs: settled.durationUs, outcome: "discarded", decision: "cancelled" });
        }
      });
      if (cancelled) {
        options.signal.throwIfAborted();
        throw new HookdError("internal", "a concurrent plugin call was cut off but the caller did not cancel");
      }
      if (sticky !== undefined) return { type: "error", error: sticky.error };
      return outcome as PointOutcome<DecisionOf<P>>;
    } finally {
      unlink();
    }
  };

  const dispatch = async (index: number): Promise<PointOutcome<DecisionOf<P>>> => {
    const listener = listeners[index];
    if (listener === undefined) return { type: "decided", decision: fallback(), decidedBy: DEFAULT_DECIDER };
    const runEnd = runEnds[index] ?? index;
    if (runEnd - index >= 2) return fanOut(index, runEnd);
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
    const makeContext = (abort: LazyAbort): ContextOf<P> =>
      new NextContext(abort, listener.plugin, next) satisfies WaterfallContext<DecisionOf<P>> as unknown as ContextOf<P>;
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
    const result = await callListener(listener, event, (abort): HandlerContext => new CallContext(abort, listener.plugin), options);
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
      callListener(listener, event, (abort): HandlerContext => new CallContext(abort, listener.plugin), options).then((result) => {
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
    const makeContext = (abort: LazyAbort): ExecuteContext =>
      new NextContext(abort, listener.plugin, (nextOptions?: { readonly signal?: AbortSignal }): Promise<ToolResult> => {
        if (inner !== undefined) return handled(Promise.reject(new HookdError("invalid_decision", `plugin ${listener.plugin} called next() twice at execute`)));
        // A wrapper may replace the signal, but the caller's cancellation still reaches the body.
        const replaced = nextOptions?.signal;
        inner = run(index + 1, replaced === undefined ? callerSignal : AbortSignal.any([replaced, callerSignal]));
        return handled(inner);
      });
    const result = await callListener(listener, event, makeContext, { ...options, signal });
    options.onInvocation(result.invocation);
    if (result.type === "error") return onError(result.error);
    if (isPass(result.answer)) return inner ?? run(index + 1, signal);
    return normalize(result.answer, listener.plugin);
  };
  return run(0, signalOf(options.signal));
}
