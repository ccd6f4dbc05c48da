// A run of consecutive side-effect-free listeners that cannot call next() is called at once and
// folded in listener order, giving exactly the outcome the sequential waterfall gives: the first
// non-pass answer (a failure-policy answer included) decides, the first listener error is final,
// and when all pass the waterfall goes on after the run. The fold itself is pure (`foldSettled`);
// `fanOut` starts the calls, feeds their settled results to it in order and cleans up.
import { HookdError } from "@hookd/sdk";
import type { WaterfallContext } from "@hookd/sdk";
import { LazyAbort, NextContext, whenAborted } from "@hookd/sdk/internal";
import { isPass } from "../decisions.js";
import { callListener } from "../invoke.js";
import type { CallResult } from "../invoke.js";
import type { Listener } from "../listener.js";
import type { PointOutcome, RunOptions } from "./outcome.js";
import { decidedBy, handled } from "./outcome.js";

/** A concurrent call once it settled: its result, or thrown (only when its signal aborted). */
export type Settled = { readonly type: "result"; readonly result: CallResult } | { readonly type: "thrown"; readonly durationUs: number };

/** What one settled call, taken in listener order, means for the run. */
export type FoldStep<D> = { readonly type: "continue" } | { readonly type: "done"; readonly outcome: PointOutcome<D> } | { readonly type: "cancelled" };

/** The pure fold step: a throw means the caller cancelled; an error or a decision ends the run; a pass goes on. */
export function foldSettled<D>(settled: Settled, listener: Listener): FoldStep<D> {
  if (settled.type === "thrown") return { type: "cancelled" };
  const { result } = settled;
  if (result.type === "error") return { type: "done", outcome: { type: "error", error: result.error } };
  if (isPass(result.answer)) return { type: "continue" };
  return { type: "done", outcome: decidedBy(result.answer as D, listener.plugin, result.invocation) };
}

/** The abort reason of a fanned-out call whose answer is no longer needed. */
export function answerNotNeeded(decidedByPlugin: string): HookdError {
  return new HookdError("cancelled", `answer not needed: ${decidedByPlugin} decided first`);
}

/** Resolves in the event loop's next turn, after pending I/O (setImmediate). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs listeners [start, end) concurrently and folds their answers in order. Resolves "passed"
 * when every one passed. Each call gets min(its deadline, the budget left at its start). Once the
 * outcome is known, the calls after the deciding one are aborted and awaited (a cut-off call
 * settles at once), and every call whose answer was not used is recorded with outcome
 * "discarded" after the used ones: decision "cancelled" when it was cut off, else the kind of
 * what it answered. When the caller cancels, this rejects like the sequential waterfall, and
 * only calls that had already answered are recorded (as discarded).
 */
export async function fanOut<D>(listeners: readonly Listener[], start: number, end: number, event: unknown, options: RunOptions): Promise<PointOutcome<D> | "passed"> {
  const discard = new LazyAbort();
  const unlink = whenAborted(options.signal, () => discard.abort(options.signal.reason));
  const callOptions: RunOptions = { ...options, signal: discard };
  const started = performance.now();
  const pending: Promise<Settled>[] = [];
  let settledCalls = 0;
  try {
    for (let index = start; index < end; index++) {
      const listener = listeners[index] as Listener;
      // A listener whose request leaves only when the event loop turns: starting the next call in
      // a later turn lets each plugin start working while the daemon prepares the next request.
      if (index > start && listeners[index - 1]?.traits.sendsOnNextTurn === true) await nextTurn();
      const makeContext = (abort: LazyAbort) =>
        new NextContext(abort, listener.plugin, () =>
          handled(Promise.reject(new HookdError("invalid_decision", `plugin ${listener.plugin} (${listener.kind}) cannot call next()`))),
        ) satisfies WaterfallContext<unknown>;
      pending.push(
        callListener(listener, event as never, makeContext as never, callOptions).then(
          (result): Settled => {
            settledCalls++;
            return { type: "result", result };
          },
          (): Settled => {
            settledCalls++;
            return { type: "thrown", durationUs: Math.round((performance.now() - started) * 1000) };
          },
        ),
      );
    }
    let outcome: PointOutcome<D> | undefined;
    let used = 0;
    let cancelled = false;
    for (const call of pending) {
      const settled = await call;
      const step = foldSettled<D>(settled, listeners[start + used] as Listener);
      if (step.type === "cancelled") {
        // callListener throws only when its signal aborted, and nothing is discarded before the
        // outcome is known: the caller cancelled.
        cancelled = true;
        break;
      }
      used++;
      if (settled.type === "result") options.onInvocation(settled.result.invocation);
      if (step.type === "done") {
        outcome = step.outcome;
        break;
      }
    }
    if (!cancelled && outcome === undefined) return "passed";
    // Cut off the calls still running, if any: with all of them answered, the abort (an Error
    // with its async stack, and an event) would cost time for nothing.
    if (!discard.aborted && settledCalls < pending.length) {
      discard.abort(answerNotNeeded(outcome?.type === "decided" ? outcome.decidedBy : (outcome?.error.details.plugin ?? "")));
    }
    const rest = await Promise.all(pending.slice(used));
    rest.forEach((settled, offset) => {
      const listener = listeners[start + used + offset] as Listener;
      if (settled.type === "result") options.onInvocation({ ...settled.result.invocation, outcome: "discarded" });
      else if (!cancelled) {
        options.onInvocation({ plugin: listener.plugin, point: listener.point, kind: listener.kind, durationUs: settled.durationUs, outcome: "discarded", decision: "cancelled" });
      }
    });
    if (cancelled) {
      options.signal.throwIfAborted();
      throw new HookdError("internal", "a concurrent plugin call was cut off but the caller did not cancel");
    }
    return outcome as PointOutcome<D>;
  } finally {
    unlink();
  }
}
