// Handler contexts whose `signal` is made when the handler first reads it (see LazyAbort): most
// handlers never look at it. Shared by the daemon's engine and the SDK's plugin server.
import type { Cancellation, LazyAbort } from "./lazy-abort.js";

/**
 * A handler context whose `signal` is made when first read. It stays an own enumerable property
 * (spreading a context still copies it), read through one getter shared by every context: a
 * getter written in an object literal is a new function per object, which gives every context
 * its own hidden class and made the GC promote several times as much (bench/README.md).
 */
export class CallContext {
  static readonly #signalProperty: PropertyDescriptor = {
    enumerable: true,
    get(this: CallContext): AbortSignal {
      return this.#abort.signal;
    },
  };

  readonly #abort: LazyAbort;
  declare readonly signal: AbortSignal;

  /** `traceparent` is assigned even when absent (undefined), so every context keeps one shape. */
  constructor(
    abort: LazyAbort,
    readonly plugin: string,
    readonly traceparent?: string,
  ) {
    this.#abort = abort;
    Object.defineProperty(this, "signal", CallContext.#signalProperty);
  }

  /**
   * The call's cancellation without making its signal: the LazyAbort of a CallContext, else the
   * context's own signal (a context built by hand, as tests do).
   */
  static cancellationOf(ctx: { readonly signal: AbortSignal }): Cancellation {
    return ctx instanceof CallContext ? ctx.#abort : ctx.signal;
  }
}

/** A waterfall or execute context: `next` runs what is inside this listener. */
export class NextContext<N extends (...args: never[]) => Promise<unknown>> extends CallContext {
  constructor(
    abort: LazyAbort,
    plugin: string,
    readonly next: N,
    traceparent?: string,
  ) {
    super(abort, plugin, traceparent);
  }
}
