// What a waterfall's plugins said to the agent's user: every call whose answer counted (the
// decider and those that passed before it, not a discarded or failed one) in listener order,
// merged onto the decision that is applied, so the user hears every plugin as the agents do.
import { mergeNotices, withNotice } from "@hookd/sdk";
import type { UserNotice } from "@hookd/sdk";
import type { Invocation } from "../invoke.js";
import type { Listener } from "../listener.js";
import type { PointOutcome } from "./outcome.js";

export class NoticesHeard {
  readonly #order: ReadonlyMap<string, number>;
  readonly #heard: { readonly at: number; readonly notice: UserNotice }[] = [];

  constructor(listeners: readonly Listener[]) {
    this.#order = new Map(listeners.map((listener, index) => [listener.plugin, index]));
  }

  /** A completed call (calls complete out of listener order under fan-out and wrappers). */
  note(invocation: Invocation): void {
    if (invocation.notice === undefined || (invocation.outcome !== "answered" && invocation.outcome !== "passed")) return;
    this.#heard.push({ at: this.#order.get(invocation.plugin) ?? Infinity, notice: invocation.notice });
  }

  /** The outcome with every heard notice on its decision; a listener error is left as it is. */
  applied<D>(outcome: PointOutcome<D>): PointOutcome<D> {
    if (outcome.type !== "decided" || this.#heard.length === 0) return outcome;
    const merged = mergeNotices([...this.#heard].sort((a, b) => a.at - b.at).map((entry) => entry.notice));
    return { ...outcome, decision: withNotice(outcome.decision, merged) };
  }
}
