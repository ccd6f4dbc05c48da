// The guard list: every guard in order until the first deny; a guard can never allow, so no
// listener order can resurrect a call that a final invariant forbids. When none denies, the
// abstention names the first guard that failed and counted as abstaining.
import type { DecisionOf, EventOf, HandlerContext, PointName } from "@hookd/sdk";
import { CallContext } from "@hookd/sdk/internal";
import { callListener } from "../invoke.js";
import type { Listener } from "../listener.js";
import type { Invocation } from "../invoke.js";
import type { PointOutcome, RunOptions } from "./outcome.js";
import { decidedBy, decidedByDefault, failedAsPass } from "./outcome.js";

/** The kind that ends the list. */
const DENY = "deny";

/** Guards in order; the first deny wins and later guards are not called; `abstain` (the point's default) when none denies. */
export async function runGuards<P extends PointName>(
  listeners: readonly Listener<P>[],
  event: EventOf<P>,
  options: RunOptions,
  abstain: DecisionOf<P>,
): Promise<PointOutcome<DecisionOf<P>>> {
  type D = DecisionOf<P> & { readonly kind: string };
  let passedOver: Invocation | undefined;
  for (const listener of listeners) {
    const result = await callListener(listener, event, (abort): HandlerContext => new CallContext(abort, listener.plugin), options);
    options.onInvocation(result.invocation);
    if (result.type === "error") return { type: "error", error: result.error };
    const answer = result.answer as D;
    if (answer.kind === DENY) return decidedBy(answer, listener.plugin, result.invocation);
    if (failedAsPass(result.invocation)) passedOver ??= result.invocation;
  }
  return decidedByDefault(abstain, passedOver);
}
