// What every handler receives beside its event: the call's cancellation, the trace it is part of
// (out of process) and, for waterfalls and execute wrappers, `next()`. Types only; the engine and
// the plugin server build them (context.ts).
import type { ToolResult } from "./types.js";

export type Awaitable<T> = T | Promise<T>;

export interface HandlerContext {
  /** Aborted when the call's deadline passes or the turn is cancelled. */
  readonly signal: AbortSignal;
  /** The name of the plugin being called. */
  readonly plugin: string;
  /**
   * The W3C trace context (`00-<trace id>-<span id>-<flags>`) of hookd's span for this plugin
   * call, so that the plugin's own spans can be its children (docs/tracing.md). Set for a plugin
   * served with `servePlugin` while the daemon's tracing is on, over either transport; absent
   * otherwise, and in process (the daemon's own spans cover an in-process handler).
   */
  readonly traceparent?: string;
}

/**
 * Context of a waterfall handler. `next()` runs the rest of the waterfall and returns its
 * decision, so a handler can wrap what the inner plugins decide. It may be called at most once.
 * Out of process (servePlugin) there is no `next()`: return `pass()` to defer instead.
 */
export interface WaterfallContext<D> extends HandlerContext {
  next(): Promise<D>;
}

/** Context of an execute wrapper: `next()` dispatches (through inner wrappers) and returns the normalized result. */
export interface ExecuteContext extends HandlerContext {
  /** The signal may be replaced (e.g. a shorter timeout); caller cancellation still reaches the tool. */
  next(options?: { readonly signal?: AbortSignal }): Promise<ToolResult>;
}
