// The around-dispatch chain: wrappers outermost first around core dispatch. A wrapper's next()
// returns the normalized result of everything inside it; `pass` means "call next() for me".
// Listener errors and faults come back as results (through `normalize` and `onError`), never thrown.
import { HookdError } from "@hookd/sdk";
import type { ExecuteContext, ToolResult } from "@hookd/sdk";
import { NextContext, signalOf } from "@hookd/sdk/internal";
import type { LazyAbort } from "@hookd/sdk/internal";
import { isPass } from "../decisions.js";
import type { ListenerError } from "../faults.js";
import { callListener } from "../invoke.js";
import type { Listener } from "../listener.js";
import type { RunOptions } from "./outcome.js";
import { handled } from "./outcome.js";

/** What the around runner needs besides the listeners: core dispatch and how results are normalized. */
export interface AroundDispatch {
  readonly dispatch: (signal: AbortSignal) => Promise<ToolResult>;
  /** Re-normalizes a wrapper-authored result; `source` is the wrapper's plugin name. */
  readonly normalize: (raw: ToolResult, source: string) => ToolResult;
  /** The result a wrapper's listener error stands for. */
  readonly onError: (error: ListenerError) => ToolResult;
}

export async function runAround(listeners: readonly Listener[], event: unknown, around: AroundDispatch, options: RunOptions): Promise<ToolResult> {
  const run = async (index: number, signal: AbortSignal): Promise<ToolResult> => {
    const listener = listeners[index];
    if (listener === undefined) return around.dispatch(signal);
    let inner: Promise<ToolResult> | undefined;
    // What next() resolved to: handing it back unchanged authors none of its contexts.
    let passedOn: ToolResult | undefined;
    const callerSignal = signal;
    const makeContext = (abort: LazyAbort): ExecuteContext =>
      new NextContext(abort, listener.plugin, (nextOptions?: { readonly signal?: AbortSignal }): Promise<ToolResult> => {
        if (inner !== undefined) return handled(Promise.reject(new HookdError("invalid_decision", `plugin ${listener.plugin} called next() twice at ${listener.point}`)));
        // A wrapper may replace the signal, but the caller's cancellation still reaches the body.
        const replaced = nextOptions?.signal;
        inner = run(index + 1, replaced === undefined ? callerSignal : AbortSignal.any([replaced, callerSignal])).then((result) => (passedOn = result));
        return handled(inner);
      });
    const result = await callListener(listener, event as never, makeContext as never, { ...options, signal }, () => passedOn);
    options.onInvocation(result.invocation);
    if (result.type === "error") return around.onError(result.error);
    if (isPass(result.answer)) return inner ?? run(index + 1, signal);
    return around.normalize(result.answer as ToolResult, listener.plugin);
  };
  return run(0, signalOf(options.signal));
}
