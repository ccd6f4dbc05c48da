// Calls one listener: links its deadline (the smaller of its own and what is left of the point's
// budget) to the caller's signal, validates the answer, and turns every failure into either a
// decision by failure policy or a listener error. Never throws, except when the caller itself
// was cancelled.
import { HookdError } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { validateAnswer } from "./answers.js";
import { answerKind, failurePolicyAnswer, isPass } from "./decisions.js";
import type { AnswerOf } from "./decisions.js";
import { ListenerError, PluginFault } from "./faults.js";
import type { FaultCause } from "./faults.js";
import type { ContextOf, EventOf, Listener } from "./listener.js";

/** One plugin call, as the audit log and metrics see it. */
export interface Invocation {
  readonly plugin: string;
  readonly point: PointName;
  readonly kind: Listener["kind"];
  readonly durationUs: number;
  /**
   * answered: a decision; passed: deferred; fault: decided by failure policy; error: listener
   * error; discarded: called concurrently with its neighbours (runners.ts, fanOut) but its answer
   * was not used, because an earlier listener decided or failed (`decision` is then "cancelled"
   * when the call was cut off, else the kind of what it answered).
   */
  readonly outcome: "answered" | "passed" | "fault" | "error" | "discarded";
  /** The kind of the answer that took effect ("pass" for a fault under fail-open). */
  readonly decision: string;
  readonly fault?: FaultCause;
  readonly detail?: string;
}

export type CallResult<P extends PointName> =
  | { readonly type: "answer"; readonly answer: AnswerOf<P>; readonly invocation: Invocation }
  | { readonly type: "error"; readonly error: ListenerError; readonly invocation: Invocation };

export interface CallOptions {
  /** Cancellation of the whole operation (turn, session, agent call). */
  readonly signal: AbortSignal;
  /** Absolute time (performance.now() ms) by which the point must be done, when budgeted. */
  readonly budgetEnd?: number;
}

/** Builds the handler context for this call, given the linked per-call signal. */
export type ContextFactory<P extends PointName> = (signal: AbortSignal) => ContextOf<P>;

const OVER_THE_WIRE = new Set<Listener["kind"]>(["remote", "command"]);

/**
 * The abort reason of a call's signal once the call is over. One shared instance: building an
 * Error (its stack trace) on every call cost about 20 µs per plugin call (bench/, --profile).
 */
const CALL_FINISHED = new HookdError("cancelled", "plugin call finished");

export async function callListener<P extends PointName>(
  listener: Listener<P>,
  event: EventOf<P>,
  makeContext: ContextFactory<P>,
  options: CallOptions,
): Promise<CallResult<P>> {
  options.signal.throwIfAborted();
  const started = performance.now();
  const remaining = options.budgetEnd === undefined ? Infinity : options.budgetEnd - started;
  const timeoutMs = Math.max(0, Math.min(listener.deadlineMs, remaining));
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let failNow: (reason: unknown) => void = () => {};
  // Settles first when the deadline passes or the caller cancels: a handler that ignores its
  // signal must not hold a cancelled caller until the deadline.
  const deadline = new Promise<never>((_, fail) => {
    failNow = fail;
    timer = setTimeout(() => {
      const fault = new PluginFault(listener.plugin, listener.point, "deadline_exceeded", `no answer within ${Math.round(timeoutMs)} ms`);
      controller.abort(fault);
      fail(fault);
    }, timeoutMs);
  });
  const onParentAbort = (): void => {
    controller.abort(options.signal.reason);
    failNow(options.signal.reason);
  };
  options.signal.addEventListener("abort", onParentAbort, { once: true });
  const finish = (outcome: Invocation["outcome"], decision: string, extra: Partial<Invocation> = {}): Invocation => ({
    plugin: listener.plugin,
    point: listener.point,
    kind: listener.kind,
    durationUs: Math.round((performance.now() - started) * 1000),
    outcome,
    decision,
    ...extra,
  });
  try {
    const raw = await Promise.race([listener.call(event, makeContext(controller.signal)), deadline]);
    const checked = validateAnswer(listener.point, raw);
    if (checked.ok) {
      const answer = checked.answer;
      return { type: "answer", answer, invocation: finish(isPass(answer) ? "passed" : "answered", answerKind(answer)) };
    }
    if (OVER_THE_WIRE.has(listener.kind)) throw new PluginFault(listener.plugin, listener.point, "invalid_answer", checked.error.message);
    throw checked.error;
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    if (error instanceof PluginFault) {
      const answer = failurePolicyAnswer(listener.point, listener.failurePolicy, listener.plugin, error.message);
      return { type: "answer", answer, invocation: finish("fault", answerKind(answer), { fault: error.fault, detail: error.message }) };
    }
    const listenerError = new ListenerError(listener.plugin, listener.point, HookdError.from(error));
    return { type: "error", error: listenerError, invocation: finish("error", "error", { detail: listenerError.message }) };
  } finally {
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onParentAbort);
    if (!controller.signal.aborted) controller.abort(CALL_FINISHED);
  }
}
