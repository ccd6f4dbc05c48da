// The dispatch gate of one step: calls enter in model order; concurrency-safe calls overlap up
// to a limit, a call that is not safe runs alone (after every earlier dispatch, before every
// later one). Owns only admission order; knows nothing of what a dispatch does.
import { HookdError } from "@hookd/sdk";

/** Ends a dispatch's hold on the gate. Calling it again does nothing. */
export type Release = () => void;

interface Ticket {
  readonly exclusive: boolean;
  readonly admit: (release: Release | undefined) => void;
}

export const DEFAULT_MAX_CONCURRENCY = 4;

export class DispatchGate {
  readonly #limit: number;
  readonly #signal: AbortSignal;
  readonly #queue: Ticket[] = [];
  #running = 0;
  #exclusiveRunning = false;
  // One listener for the whole step, however many calls wait.
  readonly #onAbort = (): void => {
    for (const ticket of this.#queue.splice(0)) ticket.admit(undefined);
  };

  /** `signal` is the turn's: when it aborts, every call still waiting is turned away. */
  constructor(signal: AbortSignal, limit: number = DEFAULT_MAX_CONCURRENCY) {
    if (!Number.isInteger(limit) || limit < 1) throw new HookdError("invalid_argument", `maxConcurrency: expected a positive integer, got ${limit}`);
    this.#limit = limit;
    this.#signal = signal;
    signal.addEventListener("abort", this.#onAbort, { once: true });
  }

  /**
   * Waits until this dispatch may start; admission is first come, first served. Resolves to the
   * release, or to undefined when the turn aborted first (the dispatch never started).
   */
  enter(exclusive: boolean): Promise<Release | undefined> {
    if (this.#signal.aborted) return Promise.resolve(undefined);
    return new Promise((admit) => {
      this.#queue.push({ exclusive, admit });
      this.#pump();
    });
  }

  /** Stops listening to the turn's signal; call once the step's batch has settled. */
  close(): void {
    this.#signal.removeEventListener("abort", this.#onAbort);
  }

  #pump(): void {
    for (;;) {
      const head = this.#queue[0];
      if (head === undefined) return;
      const free = head.exclusive ? this.#running === 0 : !this.#exclusiveRunning && this.#running < this.#limit;
      if (!free) return;
      this.#queue.shift();
      this.#running++;
      this.#exclusiveRunning = head.exclusive;
      head.admit(this.#releaseOf(head));
    }
  }

  #releaseOf(ticket: Ticket): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
      if (ticket.exclusive) this.#exclusiveRunning = false;
      this.#pump();
    };
  }
}
