// The chain: every listener in order, strictly one after another, each called with the event as
// the previous listener's answer left it (the point's `apply`). Never fanned out, even for
// side-effect-free plugins: the second plugin's input is the first one's output, so running
// them one at a time is what makes the result the same whatever each plugin's speed. `pass`
// changes nothing; a failure policy's non-pass answer (a fail-closed refusal) ends the chain with
// that answer; a listener error ends it as an error. A chain nobody changed names the first
// plugin that failed and counted as passing.
import { HookdError } from "@hookd/sdk";
import type { HandlerContext } from "@hookd/sdk";
import { CallContext } from "@hookd/sdk/internal";
import type { LazyAbort } from "@hookd/sdk/internal";
import { isPass } from "../decisions.js";
import { listenerError } from "../faults.js";
import type { ListenerError } from "../faults.js";
import type { Invocation } from "../invoke.js";
import { callListener } from "../invoke.js";
import type { Listener } from "../listener.js";
import type { RunOptions } from "./outcome.js";
import { decidedBy, failedAsPass } from "./outcome.js";

/** Applies one listener's decision to the event; undefined when it changed nothing. */
export type ChainApply<E, D> = (event: E, decision: D, plugin: string) => E | undefined;

export type ChainOutcome<E, D> =
  /**
   * Every listener ran: the event as the last one left it, and who changed it, in order. `fault`:
   * nobody changed it, and this call (the first in listener order) failed and counted as a pass.
   */
  | { readonly type: "chained"; readonly event: E; readonly changedBy: readonly string[]; readonly fault?: Invocation }
  /** A failure policy ended the chain: its answer (e.g. a fail-closed deny), on the event as it was proposed. */
  | { readonly type: "decided"; readonly decision: D; readonly decidedBy: string; readonly fault?: Invocation }
  | { readonly type: "error"; readonly error: ListenerError };

/** Runs the chain. Total for listener failures; rejects only when the caller's signal aborts. */
export async function runChain<E, D>(listeners: readonly Listener[], event: E, apply: ChainApply<E, D>, freeze: (event: E) => E, options: RunOptions): Promise<ChainOutcome<E, D>> {
  let current = event;
  const changedBy: string[] = [];
  let passedOver: Invocation | undefined;
  for (const listener of listeners) {
    const makeContext = (abort: LazyAbort): HandlerContext => new CallContext(abort, listener.plugin);
    const result = await callListener(listener, current as never, makeContext as never, options);
    options.onInvocation(result.invocation);
    if (result.type === "error") return { type: "error", error: result.error };
    if (isPass(result.answer)) {
      if (failedAsPass(result.invocation)) passedOver ??= result.invocation;
      continue;
    }
    // A failure policy's refusal is not a rewrite: it ends the chain, and the call stays as proposed.
    if (result.invocation.outcome === "fault") return decidedBy<D>(result.answer as D, listener.plugin, result.invocation);
    let next: E | undefined;
    try {
      next = apply(current, result.answer as D, listener.plugin);
    } catch (error) {
      return { type: "error", error: listenerError(listener.plugin, listener.point, HookdError.from(error)) };
    }
    if (next === undefined) continue;
    current = freeze(next);
    changedBy.push(listener.plugin);
  }
  return { type: "chained", event: current, changedBy, ...(changedBy.length === 0 && passedOver !== undefined ? { fault: passedOver } : {}) };
}
