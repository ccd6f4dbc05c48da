// What the engine asks of tracing: a span per decided point and a child span per plugin call,
// made by a tracer the host injects (ops/tracing/ implements it with OpenTelemetry). The engine
// knows no tracing library; with tracing off `PointEnv.trace` is undefined and nothing is made.
import type { PointMode, PointName } from "@hookd/sdk";
import { unreachable } from "@hookd/sdk";
import { answerKind, reasonOf } from "./decisions.js";
import type { EventScope, ShadowOutcome } from "./events.js";
import type { Invocation } from "./invoke.js";
import type { Listener } from "./listener.js";

/** The W3C trace context an agent sent (traceparent and tracestate headers, as they came). */
export interface TraceContextHeaders {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** The daemon's tracing, when configured: tracers bound to one caller's trace context. */
export interface Tracing {
  /**
   * Decision spans become children of `parent`; with none (or one that is not a valid W3C
   * traceparent) each decision starts a new trace.
   */
  under(parent: TraceContextHeaders | undefined): DecisionTracer;
}

/** Starts decision spans under the parent the caller's context names (or in a new trace). */
export interface DecisionTracer {
  startDecision(point: PointName, scope: EventScope): DecisionSpan;
}

/** How a decided point ended, as its span records it. */
export interface DecisionSummary {
  /** The applied decision's kind (allow, deny, pass, rewrite, ...), "error" or "cancelled". */
  readonly outcome: string;
  readonly decidedBy?: string;
  /** The failure policy's cause when it made the decision. */
  readonly cause?: string;
  readonly reason?: string;
  /** The deciding plugin's rule, for plugins whose decisions are rules. */
  readonly rule?: string;
}

export interface DecisionSpan {
  /** 32 lowercase hex digits: what the audit records carry. */
  readonly traceId: string;
  startCall(listener: Listener, shadow: boolean): CallSpan;
  end(summary: DecisionSummary): void;
}

export interface CallSpan {
  /** The W3C traceparent naming this span, sent with the call to a plugin on a wire. */
  readonly traceparent: string;
  /** Ends the span with the call's record; undefined when the caller cancelled first. */
  end(result: Invocation | ShadowOutcome | undefined): void;
}

/** What a point's outcome (of its mode's runner) is recorded as on its span. */
export function summarize(mode: PointMode, outcome: unknown): DecisionSummary {
  switch (mode) {
    case "notification":
      return { outcome: "notified" };
    case "around":
      return { outcome: answerKind(outcome) };
    case "waterfall":
    case "guards":
    case "chain": {
      const decided = outcome as
        | { readonly type: "decided"; readonly decision: unknown; readonly decidedBy: string; readonly fault?: Invocation; readonly rule?: string }
        | { readonly type: "error"; readonly error: { readonly details: { readonly plugin: string }; readonly message: string } }
        | { readonly type: "chained"; readonly changedBy: readonly string[]; readonly fault?: Invocation };
      switch (decided.type) {
        case "error":
          return { outcome: "error", decidedBy: decided.error.details.plugin, reason: decided.error.message };
        case "chained": {
          if (decided.changedBy.length > 0) return { outcome: "rewrite", decidedBy: decided.changedBy.join(",") };
          const cause = decided.fault?.fault;
          return { outcome: "pass", decidedBy: "default", ...(cause === undefined ? {} : { cause }) };
        }
        case "decided": {
          const reason = reasonOf(decided.decision);
          const cause = decided.fault?.fault;
          return {
            outcome: answerKind(decided.decision),
            decidedBy: decided.decidedBy,
            ...(reason === undefined ? {} : { reason }),
            ...(cause === undefined ? {} : { cause }),
            ...(decided.rule === undefined ? {} : { rule: decided.rule }),
          };
        }
        default:
          return unreachable(decided, "point outcome");
      }
    }
    default:
      return unreachable(mode, "point mode");
  }
}
