// LazyAbort: an abort whose AbortSignal is made only when someone reads it. Node's AbortSignal
// is an EventTarget with its own hidden class and maps (about half a KiB); an idle stream or a
// synchronous plugin call never reads its signal, and aborting one nobody listens to still builds
// and dispatches an event. Until the signal is read, aborting only records the reason; a signal
// read afterwards is born aborted with it.

export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Throws the reason once aborted, like AbortSignal.throwIfAborted. */
  throwIfAborted(): void {
    if (this.#aborted) throw this.#reason;
  }

  /** The first reason wins; later calls change nothing. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/**
 * A caller's cancellation as code that mostly polls it sees it: `aborted`, `reason` and
 * `throwIfAborted()` read either kind without making a signal; signalOf gives an AbortSignal for
 * work that must listen.
 */
export type Cancellation = AbortSignal | LazyAbort;

export function signalOf(cancellation: Cancellation): AbortSignal {
  return cancellation instanceof LazyAbort ? cancellation.signal : cancellation;
}
