// How a decided point is reported, in one place: the trace an agent is answered with (who decided,
// the failure policy's cause, how long it took) and the decision record the audit gets. decide(),
// the approval of an ask and the turn-stopping merge all report through here; nothing else builds either.
import type { DecisionTrace, PointName, ToolCall, UserNotice } from "@hookd/sdk";
import type { EventScope } from "./events.js";
import type { EventBus } from "./events.js";

/** The failure cause a trace names when a handler threw or answered something unusable (as the audit log does). */
export const LISTENER_ERROR = "listener_error";

/** Microseconds since `started` (a performance.now() reading). */
export function elapsedUs(started: number): number {
  return Math.round((performance.now() - started) * 1000);
}

export function traceOf(decidedBy: string, failureCause: string | undefined, durationUs: number): DecisionTrace {
  return failureCause === undefined ? { decidedBy, durationUs } : { decidedBy, failureCause, durationUs };
}

/** Where a decision is recorded: the point's bus and scope. */
export interface RecordTarget {
  readonly bus: EventBus;
  readonly scope: EventScope;
}

/**
 * Records the decision applied at `point`. Positional rather than an options object: it runs once
 * per decided point, and the record is the only object it builds.
 */
export function recordDecision(
  target: RecordTarget,
  point: PointName,
  decision: string,
  decidedBy: string,
  durationUs: number,
  reason?: string,
  cause?: string,
  call?: ToolCall,
  rule?: string,
  notice?: UserNotice,
): void {
  target.bus.emit({
    type: "decision",
    scope: target.scope,
    point,
    decision,
    decidedBy,
    ...(reason === undefined ? {} : { reason }),
    ...(cause === undefined ? {} : { cause }),
    durationUs,
    ...(call === undefined ? {} : { call }),
    ...(rule === undefined ? {} : { rule }),
    ...(notice?.userMessage === undefined ? {} : { userMessage: notice.userMessage }),
    ...(notice?.stopAgent === undefined ? {} : { stopAgent: notice.stopAgent.reason }),
  });
}

/**
 * A deciding runner's outcome with the trace it is reported with. The trace is built when read, so
 * a caller that reports none (the hosted loop's pre-step) pays nothing for it; it is kept off the
 * outcome's own fields, which stay those the runner gave.
 */
export class TracedOutcome {
  readonly #decidedBy: string;
  readonly #failureCause: string | undefined;
  readonly #durationUs: number;

  constructor(outcome: object, decidedBy: string, failureCause: string | undefined, durationUs: number) {
    Object.assign(this, outcome);
    this.#decidedBy = decidedBy;
    this.#failureCause = failureCause;
    this.#durationUs = durationUs;
  }

  get trace(): DecisionTrace {
    return traceOf(this.#decidedBy, this.#failureCause, this.#durationUs);
  }
}

/** `outcome` with its trace: the typed verdict of a deciding point. */
export type Traced<O> = O & { readonly trace: DecisionTrace };

export function traced<O extends object>(outcome: O, decidedBy: string, failureCause: string | undefined, durationUs: number): Traced<O> {
  return new TracedOutcome(outcome, decidedBy, failureCause, durationUs) as unknown as Traced<O>;
}
