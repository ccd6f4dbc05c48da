// The client's view of turns: pending follow-ups matched to the turns the daemon runs for them
// (one turn per follow-up, in order), and the abort controllers of each turn's in-flight handlers,
// aborted when that turn ends. Owns no I/O; the session feeds it frames.
import { HookdError } from "../errors.js";
import type { TurnEnd } from "./types.js";

export interface PendingFollowUp {
  /** Set by the TurnStarted that began this follow-up's turn. */
  turn?: number;
  readonly resolve: (end: TurnEnd) => void;
  readonly reject: (error: Error) => void;
}

export class TurnLedger {
  readonly #followUps: PendingFollowUp[] = [];
  readonly #work = new Map<number, Set<AbortController>>();
  /** Turns are numbered from 1 and run one at a time, so every turn up to this one has ended. */
  #lastEnded = 0;

  /** A follow-up was sent; its turn ends later. */
  queue(followUp: PendingFollowUp): void {
    this.#followUps.push(followUp);
  }

  /** A turn began: it belongs to the oldest follow-up that has no turn yet. False when none waits. */
  started(turn: number): boolean {
    const followUp = this.#followUps.find((entry) => entry.turn === undefined);
    if (followUp !== undefined) followUp.turn = turn;
    return followUp !== undefined;
  }

  /**
   * A turn ended: its in-flight handlers are aborted and its follow-up is returned. Turn 0 is a
   * follow-up that never ran; it matches the oldest follow-up without a turn, as does a turn
   * whose TurnStarted this client never saw.
   */
  ended(end: TurnEnd): PendingFollowUp | undefined {
    if (end.turn !== 0) {
      this.#lastEnded = Math.max(this.#lastEnded, end.turn);
      this.#abort(end.turn, new HookdError("cancelled", `turn ${end.turn} ended (${end.reason})`));
    }
    let index = end.turn === 0 ? -1 : this.#followUps.findIndex((entry) => entry.turn === end.turn);
    if (index < 0) index = this.#followUps.findIndex((entry) => entry.turn === undefined);
    return index < 0 ? undefined : this.#followUps.splice(index, 1)[0];
  }

  /** True once the turn has ended: a reply for it would reach nobody. Turn 0 (unknown) never ends. */
  isOver(turn: number): boolean {
    return turn !== 0 && turn <= this.#lastEnded;
  }

  /**
   * A controller for a handler of `turn`, aborted when that turn ends or everything ends. Call
   * the returned `done` when the handler settled.
   */
  begin(turn: number): { readonly signal: AbortSignal; readonly controller: AbortController; readonly done: () => void } {
    const controller = new AbortController();
    if (this.isOver(turn)) controller.abort(new HookdError("cancelled", `turn ${turn} has already ended`));
    let set = this.#work.get(turn);
    if (set === undefined) this.#work.set(turn, (set = new Set()));
    set.add(controller);
    const work = set;
    return {
      signal: controller.signal,
      controller,
      done: () => {
        work.delete(controller);
        if (work.size === 0 && this.#work.get(turn) === work) this.#work.delete(turn);
      },
    };
  }

  /** The stream is over: every handler is aborted and every pending follow-up handed back. */
  finish(reason: Error): PendingFollowUp[] {
    for (const turn of [...this.#work.keys()]) this.#abort(turn, reason);
    return this.#followUps.splice(0);
  }

  #abort(turn: number, reason: Error): void {
    const set = this.#work.get(turn);
    if (set === undefined) return;
    this.#work.delete(turn);
    for (const controller of set) controller.abort(reason);
  }
}
