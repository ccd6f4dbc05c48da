// Shadow listeners (config `mode: shadow`): called for the same frozen event as the enforcing
// chain, started beside it and never awaited by it. Each call is bounded by its own deadline
// only: not by the point's budget, and not by the turn's cancellation (a shadow verdict on a
// cancelled turn is still worth auditing). Nothing a shadow listener answers, throws or fails
// to answer is applied, and no failure policy stands in for a fault: every outcome goes to the
// bus as a "shadow-decision" and nowhere else.
import { HookdError, unreachable } from "@hookd/sdk";
import type { HandlerContext, PointMode } from "@hookd/sdk";
import { CallContext, LazyAbort, NextContext } from "@hookd/sdk/internal";
import { answerKind, isPass, reasonOf } from "../decisions.js";
import type { ShadowOutcome } from "../events.js";
import { callListener } from "../invoke.js";
import type { CallResult } from "../invoke.js";
import type { Listener } from "../listener.js";
import type { DecisionSpan } from "../tracing.js";
import type { PointOutcome } from "./outcome.js";
import { handled } from "./outcome.js";

export interface ShadowRun {
  readonly mode: PointMode;
  /**
   * What the enforcing chain gives (a PointOutcome, or the ToolResult at around points): a
   * shadow handler's next() resolves to it, because a shadow listener must never run the
   * enforcing listeners again, nor dispatch the tool a second time.
   */
  readonly real: Promise<unknown>;
  readonly emit: (outcome: ShadowOutcome) => void;
  /** The point's span when tracing is on: each shadow call is a child span marked shadow. */
  readonly trace?: DecisionSpan;
}

/**
 * Starts every shadow listener for `event` and returns at once. The calls begin after the
 * current turn of the event loop: a synchronous in-process shadow handler then runs after the
 * enforcing chain's own synchronous work, so it cannot hold the real answer either.
 */
export function startShadows(listeners: readonly Listener[], event: unknown, run: ShadowRun): void {
  setImmediate(() => {
    for (const listener of listeners) void callShadow(listener, event, run);
  });
}

/** One shadow call, to its outcome on the bus. Never rejects. */
export async function callShadow(listener: Listener, event: unknown, run: ShadowRun): Promise<void> {
  // Fail-open: a fault's stand-in answer is a pass, so no fail-closed answer is even built.
  const shadow: Listener = { ...listener, failurePolicy: "fail-open" };
  const started = performance.now();
  let outcome: ShadowOutcome;
  try {
    const result = await callListener(shadow, event as never, (abort) => shadowContext(listener, abort, run) as never, {
      signal: new LazyAbort(),
      ...(run.trace === undefined ? {} : { trace: run.trace, shadow: true }),
    });
    outcome = shadowOutcome(listener, result);
  } catch (error) {
    // callListener rejects only when its caller's signal aborts, and this one never does.
    outcome = { ...identity(listener), outcome: "error", decision: "none", cause: "listener_error", reason: HookdError.from(error).message, durationUs: Math.round((performance.now() - started) * 1000) };
  }
  run.emit(outcome);
}

function identity(listener: Listener): Pick<ShadowOutcome, "plugin" | "point" | "kind"> {
  return { plugin: listener.plugin, point: listener.point, kind: listener.kind };
}

/** What a shadow call's result is recorded as. */
export function shadowOutcome(listener: Listener, result: CallResult): ShadowOutcome {
  const { invocation } = result;
  const base = { ...identity(listener), durationUs: invocation.durationUs };
  if (result.type === "error") return { ...base, outcome: "error", decision: "none", cause: "listener_error", reason: result.error.message };
  if (invocation.outcome === "fault") {
    return { ...base, outcome: "fault", decision: "none", ...(invocation.fault === undefined ? {} : { cause: invocation.fault }), ...(invocation.detail === undefined ? {} : { reason: invocation.detail }) };
  }
  const reason = isPass(result.answer) ? undefined : reasonOf(result.answer);
  return { ...base, outcome: isPass(result.answer) ? "passed" : "answered", decision: answerKind(result.answer), ...(reason === undefined ? {} : { reason }) };
}

/** The handler context of a shadow call: next() gives the enforcing chain's result, once. */
function shadowContext(listener: Listener, abort: LazyAbort, run: ShadowRun): HandlerContext {
  const mode = run.mode;
  switch (mode) {
    // A shadow rewriter (chain) sees the event as proposed: its rewrite is audited, never chained.
    case "chain":
    case "guards":
    case "notification":
      return new CallContext(abort, listener.plugin);
    case "waterfall":
    case "around": {
      let called = false;
      return new NextContext(abort, listener.plugin, (): Promise<unknown> => {
        if (called) return handled(Promise.reject(new HookdError("invalid_decision", `plugin ${listener.plugin} called next() twice at ${listener.point}`)));
        called = true;
        return handled(mode === "around" ? run.real : run.real.then(decisionOf));
      });
    }
    default:
      return unreachable(mode, "point mode");
  }
}

function decisionOf(outcome: unknown): unknown {
  const decided = outcome as PointOutcome<unknown>;
  if (decided.type === "error") throw decided.error;
  return decided.decision;
}
