// The waterfall: outermost first; an in-process handler may call next() once to run the inner
// listeners; `pass` hands on to the next listener; the first decision is final; when all pass,
// the point's default applies. A listener error is sticky: the waterfall's outcome is that error
// whatever an outer handler does with it. A run of two or more consecutive side-effect-free
// listeners that cannot call next() is fanned out (fan-out.ts); listeners that wrap keep their
// sequential next() semantics around such a run. A default reached because failing plugins
// counted as passing names the first of them.
import { HookdError } from "@hookd/sdk";
import type { DecisionOf, EventOf, PointName, WaterfallContext } from "@hookd/sdk";
import { NextContext } from "@hookd/sdk/internal";
import type { LazyAbort } from "@hookd/sdk/internal";
import { isPass } from "../decisions.js";
import type { ListenerError } from "../faults.js";
import { callListener } from "../invoke.js";
import type { Invocation } from "../invoke.js";
import type { Listener } from "../listener.js";
import { fanOut } from "./fan-out.js";
import type { PointOutcome, RunOptions } from "./outcome.js";
import { PassedOverFailures, decidedBy, decidedByDefault, failedAsPass, handled } from "./outcome.js";

function foldable(listener: Listener | undefined): boolean {
  return listener !== undefined && listener.sideEffectFree && !listener.traits.wraps;
}

/** For each index, the end (exclusive) of the run of foldable listeners starting there; the index itself when it is not foldable. */
function foldableRuns(listeners: readonly Listener[]): number[] {
  const ends = new Array<number>(listeners.length);
  for (let index = listeners.length - 1; index >= 0; index--) {
    ends[index] = foldable(listeners[index]) ? (ends[index + 1] ?? index + 1) : index;
  }
  return ends;
}

export async function runWaterfall<P extends PointName>(
  listeners: readonly Listener<P>[],
  event: EventOf<P>,
  fallback: () => DecisionOf<P>,
  options: RunOptions,
): Promise<PointOutcome<DecisionOf<P>>> {
  type D = DecisionOf<P>;
  let sticky: ListenerError | undefined;
  const runEnds = foldableRuns(listeners);
  // A wrapper's own failure completes after the calls inside its next(): order by listener. Made
  // at the first failure that counts as passing, so a run without one allocates nothing for it.
  let passedOver: PassedOverFailures | undefined;
  const noteFailure = (invocation: Invocation): void => {
    if (failedAsPass(invocation)) (passedOver ??= new PassedOverFailures(listeners)).note(invocation);
  };
  // What a fanned-out run reports through, made at the first such run.
  let watched: RunOptions | undefined;
  // The default, once reached; a failure after it (a wrapper's) still counts for it.
  let fellThrough: PointOutcome<D> | undefined;

  const dispatch = async (index: number): Promise<PointOutcome<D>> => {
    const listener = listeners[index];
    if (listener === undefined) return (fellThrough = decidedByDefault(fallback(), undefined));
    const runEnd = runEnds[index] ?? index;
    if (runEnd - index >= 2) {
      watched ??= {
        ...options,
        onInvocation: (invocation) => {
          noteFailure(invocation);
          options.onInvocation(invocation);
        },
      };
      const folded = await fanOut<D>(listeners, index, runEnd, event, watched);
      if (folded === "passed") return dispatch(runEnd);
      if (folded.type === "error") sticky ??= folded.error;
      return sticky !== undefined ? { type: "error", error: sticky } : folded;
    }
    let inner: Promise<PointOutcome<D>> | undefined;
    // What next() resolved to: handing it back unchanged authors none of its messages.
    let passedOn: D | undefined;
    const next = (): Promise<D> => {
      if (inner !== undefined) {
        return handled(Promise.reject(new HookdError("invalid_decision", `plugin ${listener.plugin} called next() twice at ${listener.point}`)));
      }
      inner = dispatch(index + 1);
      return handled(
        inner.then((outcome) => {
          if (outcome.type === "error") throw outcome.error;
          passedOn = outcome.decision;
          return outcome.decision;
        }),
      );
    };
    const makeContext = (abort: LazyAbort) => new NextContext(abort, listener.plugin, next) satisfies WaterfallContext<D>;
    const result = await callListener(listener, event, makeContext, options, () => passedOn);
    noteFailure(result.invocation);
    options.onInvocation(result.invocation);
    if (sticky !== undefined) return { type: "error", error: sticky };
    if (result.type === "error") {
      sticky = result.error;
      return { type: "error", error: result.error };
    }
    if (isPass(result.answer)) return inner ?? dispatch(index + 1);
    return decidedBy(result.answer, listener.plugin, result.invocation);
  };

  const outcome = await dispatch(0);
  if (sticky !== undefined) return { type: "error", error: sticky };
  // Only the default itself, not a wrapper's decision made from it, names a passed-over failure.
  if (outcome !== fellThrough || fellThrough.type !== "decided" || passedOver?.first === undefined) return outcome;
  return decidedByDefault(fellThrough.decision, passedOver.first);
}
