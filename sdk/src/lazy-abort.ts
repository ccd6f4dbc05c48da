// LazyAbort: an abort whose AbortSignal is made only when someone reads it. Node's AbortSignal
// is an EventTarget with its own hidden class and maps (about half a KiB); an idle stream or a
// synchronous plugin call never reads its signal, and aborting one nobody listens to still builds
// and dispatches an event. Until the signal is read, aborting only records the reason; a signal
// read afterwards is born aborted with it. Code of our own that must react to the abort (a plugin
// call to cancel) registers a plain callback with onAbort instead of making the signal.

export class LazyAbort {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #callbacks: (() => void)[] | undefined;

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

  /**
   * Calls `callback` once, on abort (before the signal's listeners); returns the way to take it
   * back. Registered after the abort, it is never called: check `aborted` first.
   */
  onAbort(callback: () => void): () => void {
    if (this.#aborted) return noop;
    (this.#callbacks ??= []).push(callback);
    return () => {
      const at = this.#callbacks?.indexOf(callback) ?? -1;
      if (at >= 0) this.#callbacks?.splice(at, 1);
    };
  }

  /** The first reason wins; later calls change nothing. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const callbacks = this.#callbacks;
    this.#callbacks = undefined;
    if (callbacks !== undefined) for (const callback of callbacks) callback();
    this.#controller?.abort(reason);
  }
}

const noop = (): void => {};

/**
 * A caller's cancellation as code that mostly polls it sees it: `aborted`, `reason` and
 * `throwIfAborted()` read either kind without making a signal; signalOf gives an AbortSignal for
 * work that must listen.
 */
export type Cancellation = AbortSignal | LazyAbort;

export function signalOf(cancellation: Cancellation): AbortSignal {
  return cancellation instanceof LazyAbort ? cancellation.signal : cancellation;
}

/** Calls `callback` once when `cancellation` aborts; returns the way to take it back. */
export function whenAborted(cancellation: Cancellation, callback: () => void): () => void {
  if (cancellation instanceof LazyAbort) return cancellation.onAbort(callback);
  cancellation.addEventListener("abort", callback, { once: true });
  return () => cancellation.removeEventListener("abort", callback);
}
