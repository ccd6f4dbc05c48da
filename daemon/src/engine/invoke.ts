// Calls one listener: links its deadline (the smaller of its own and what is left of the point's
// budget) to the caller's signal, validates the answer, and turns every failure into either a
// decision by failure policy or a listener error. Never throws, except when the caller itself
// was cancelled. A handler that answers synchronously costs no timer, signal or race.
import { HookdError, USER_MESSAGE_SEPARATOR, hasNotice, noticeOf, validateDecision } from "@hookd/sdk";
import { LazyAbort, whenAborted } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import type { JsonValue, PointAnswer, PointName, UserNotice } from "@hookd/sdk";
import { authored } from "./authorship.js";
import { answerKind, failurePolicyAnswer, isPass, reasonOf } from "./decisions.js";
import { isPluginFault, listenerError, pluginFault } from "./faults.js";
import type { FaultCause, ListenerError } from "./faults.js";
import type { ContextOf, EventOf, Listener } from "./listener.js";
import type { CallSpan, DecisionSpan } from "./tracing.js";

/** One plugin call, as the audit log and metrics see it. */
export interface Invocation {
  readonly plugin: string;
  readonly point: PointName;
  readonly kind: string;
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
  /** Why: the fault or error, or the reason an answer gave (deny, ask, reject, block). */
  readonly detail?: string;
  /** The rule that made the answer, for plugins whose decisions are rules (Listener.ruleOf). */
  readonly rule?: string;
  /** The values the rule read (`hookd eval` shows them; the audit log keeps only the rule). */
  readonly ruleValues?: Readonly<Record<string, JsonValue>>;
  /** What the answer (a pass included) said to the agent's user: merged over the point's plugins (notices.ts). */
  readonly notice?: UserNotice;
}

export type CallResult<P extends PointName = PointName> =
  | { readonly type: "answer"; readonly answer: PointAnswer<P>; readonly invocation: Invocation }
  | { readonly type: "error"; readonly error: ListenerError; readonly invocation: Invocation };

export interface CallOptions {
  /** Cancellation of the whole operation (turn, session, agent call). */
  readonly signal: Cancellation;
  /** Absolute time (performance.now() ms) by which the point must be done, when budgeted. */
  readonly budgetEnd?: number;
  /** The decided point's span, when tracing is on: each call gets a child span. */
  readonly trace?: DecisionSpan;
  /** A shadow listener's call (runners/shadow.ts): its span says so. */
  readonly shadow?: boolean;
}

/**
 * Builds the handler context for this call from the call's cancellation, which is linked to the
 * caller's and aborted once the call is over. Its AbortSignal is made on first use, so a context
 * should read it only when the handler does (see CallContext): most in-process handlers never look.
 */
export type ContextFactory<P extends PointName = PointName> = (abort: LazyAbort) => ContextOf<P>;

/**
 * The abort reason of a call's signal once the call is over. One shared instance: building an
 * Error (its stack trace) on every call showed in profiles of every plugin call (bench/README.md).
 */
const CALL_FINISHED = new HookdError("cancelled", "plugin call finished");

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/**
 * `passedOn` reads what next() gave the handler, if it called it: messages in it handed back
 * unchanged keep their source (authorship.ts).
 */
export function callListener<P extends PointName>(
  listener: Listener<P>,
  event: EventOf<P>,
  makeContext: ContextFactory<P>,
  options: CallOptions,
  passedOn?: () => unknown,
): Promise<CallResult<P>> {
  // Tracing off: the call as it is, not one promise more.
  if (options.trace === undefined) return callOnce(listener, event, makeContext, options, passedOn, undefined);
  const span = options.trace.startCall(listener, options.shadow === true);
  return traced(span, callOnce(listener, event, makeContext, options, passedOn, span));
}

async function traced<P extends PointName>(span: CallSpan, pending: Promise<CallResult<P>>): Promise<CallResult<P>> {
  try {
    const result = await pending;
    span.end(result.invocation);
    return result;
  } catch (error) {
    span.end(undefined);
    throw error;
  }
}

async function callOnce<P extends PointName>(
  listener: Listener<P>,
  event: EventOf<P>,
  makeContext: ContextFactory<P>,
  options: CallOptions,
  passedOn: (() => unknown) | undefined,
  span: CallSpan | undefined,
): Promise<CallResult<P>> {
  options.signal.throwIfAborted();
  const started = performance.now();
  // The call's own signal, made only if the handler reads it: an AbortController and the abort
  // event at the end of every call were a visible share of an in-process call's cost (bench/README.md).
  const signal = new LazyAbort();
  const finish = (outcome: Invocation["outcome"], decision: string, extra?: Partial<Invocation>): Invocation => {
    const invocation: Invocation = {
      plugin: listener.plugin,
      point: listener.point,
      kind: listener.kind,
      durationUs: Math.round((performance.now() - started) * 1000),
      outcome,
      decision,
    };
    return extra === undefined ? invocation : { ...invocation, ...extra };
  };
  try {
    const timeoutMs = effectiveTimeout(listener, options, started);
    // Only a plugin on a wire is handed its span's traceparent (formatting it is not free).
    const traced = span !== undefined && listener.traits.answersOverWire;
    let raw = listener.call(event, makeContext(signal), traced ? { cancellation: signal, timeoutMs, traceparent: span.traceparent } : { cancellation: signal, timeoutMs });
    // A handler that answered synchronously is done: there is nothing to time out or cut off.
    if (isThenable(raw)) raw = await withinDeadline(raw, listener, signal, options, timeoutMs);
    // The SDK's validators: the daemon accepts a decision from untyped code only after this
    // check (the constructors' frozen singletons pass without a walk). Then the daemon sources
    // the messages it contributes, whatever the plugin wrote.
    const checked = validateDecision(listener.point, raw);
    if (checked.ok) {
      const handedOn = passedOn?.();
      const answer = authored(listener.point, listener.plugin, event, checked.decision, handedOn);
      // A wrapper that hands on next()'s decision says only what it added: the inner plugins' notices are heard from their own calls.
      const notice = handedOn === undefined ? noticeOf(answer) : addedNotice(noticeOf(handedOn), noticeOf(answer));
      const said = hasNotice(notice) ? { notice } : undefined;
      if (isPass(answer)) return { type: "answer", answer, invocation: finish("passed", answerKind(answer), said) };
      // A deny, ask or reject carries its reason into the invocation's audit record, a rule its id.
      const reason = reasonOf(answer);
      const rule = listener.ruleOf?.(raw);
      const extra = reason === undefined && rule === undefined && said === undefined ? undefined : { ...(reason === undefined ? {} : { detail: reason }), ...(rule === undefined ? {} : { rule: rule.rule, ruleValues: rule.values }), ...said };
      return { type: "answer", answer, invocation: finish("answered", answerKind(answer), extra) };
    }
    if (listener.traits.answersOverWire) throw pluginFault(listener.plugin, listener.point, "invalid_answer", checked.error.message);
    throw checked.error;
  } catch (error) {
    if (options.signal.aborted) throw options.signal.reason;
    if (isPluginFault(error)) {
      const answer = failurePolicyAnswer(listener.point, listener.failurePolicy, listener.plugin, error.message);
      return { type: "answer", answer, invocation: finish("fault", answerKind(answer), { fault: error.details.fault, detail: error.message }) };
    }
    const failed = listenerError(listener.plugin, listener.point, HookdError.from(error));
    return { type: "error", error: failed, invocation: finish("error", "error", { detail: failed.message }) };
  } finally {
    // Work a handler left running learns that the call is over. A listener that settles its own
    // calls has dropped its abort listeners: for it the abort event would be spent on nobody.
    if (!listener.traits.settlesItself) signal.abort(CALL_FINISHED);
  }
}

/** What `answer`'s notice adds to the one it was handed (tellUser appends after the separator). */
function addedNotice(handed: UserNotice, answer: UserNotice): UserNotice {
  const had = handed.userMessage;
  const message = answer.userMessage === had ? undefined : had !== undefined && answer.userMessage?.startsWith(had + USER_MESSAGE_SEPARATOR) === true ? answer.userMessage.slice(had.length + USER_MESSAGE_SEPARATOR.length) : answer.userMessage;
  const stop = answer.stopAgent?.reason === handed.stopAgent?.reason ? undefined : answer.stopAgent;
  return { ...(message === undefined ? {} : { userMessage: message }), ...(stop === undefined ? {} : { stopAgent: stop }) };
}

/** The smaller of the listener's deadline and what is left of the point's budget, in milliseconds. */
function effectiveTimeout(listener: Listener, options: CallOptions, started: number): number {
  const remaining = options.budgetEnd === undefined ? Infinity : options.budgetEnd - started;
  return Math.max(0, Math.min(listener.deadlineMs, remaining));
}

/**
 * The one place a plugin call's deadline is enforced. Settles with the handler's answer, or rejects first when the deadline (the smaller of the
 * listener's and what is left of the point's budget) passes or the caller cancels: a handler that
 * ignores its signal must not hold a cancelled caller until the deadline.
 */
async function withinDeadline(pending: PromiseLike<unknown>, listener: Listener, signal: LazyAbort, options: CallOptions, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  // The caller's abort reason is passed on as it is, Error or not.
  let failNow: (reason: unknown) => void = () => {};
  const cutOff = new Promise<never>((_, fail) => {
    failNow = fail;
    timer = setTimeout(() => {
      const fault = pluginFault(listener.plugin, listener.point, "deadline_exceeded", `no answer within ${Math.round(timeoutMs)} ms`);
      signal.abort(fault);
      fail(fault);
    }, timeoutMs);
  });
  const onCallerAbort = (): void => {
    signal.abort(options.signal.reason);
    failNow(options.signal.reason);
  };
  const unlink = whenAborted(options.signal, onCallerAbort);
  try {
    return await Promise.race([pending, cutOff]);
  } finally {
    clearTimeout(timer);
    unlink();
  }
}
