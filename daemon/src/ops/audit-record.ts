// The shape of one audit line and how an engine event becomes one (or none). The file, its fsync
// policy and the live subscribers are audit.ts's.
import type { JsonValue, PointName, ToolCall } from "@hookd/sdk";
import type { EngineEvent } from "../engine/events.js";
import { shadowVerdict } from "./shadow-verdict.js";

/** One line of the audit log; the JSON names are those of hookd.v1.AuditRecord. */
export interface AuditRecord {
  /** RFC 3339 with milliseconds. */
  readonly time: string;
  /** shadow: a shadow plugin's call, whose decision was never applied. */
  readonly kind: "invocation" | "decision" | "shadow";
  readonly agentId: string;
  readonly sessionId: string;
  readonly turn: number;
  readonly step: number;
  readonly callId: string;
  /** agent-event records only: the agent's own event name (hookd.v1.AuditRecord.event_name). */
  readonly eventName?: string;
  /** The plugin called, or the one whose decision was applied ("default" when nobody decided). */
  readonly plugin: string;
  readonly point: PointName;
  readonly decision: string;
  readonly reason: string;
  /** Set for failures: deadline_exceeded, unavailable, invalid_answer, listener_error, ... */
  readonly cause: string;
  readonly durationUs: number;
  /** Invocations and shadow calls: answered, passed, fault or error. */
  readonly outcome?: string;
  /**
   * Rewrite decisions only (hookd.v1.AuditRecord carries them to `hookd tail` too):
   * the effective arguments, and when a plugin changed them, the agent's and who changed them, in order.
   */
  readonly argumentsJson?: string;
  readonly originalArgumentsJson?: string;
  readonly rewrittenBy?: readonly string[];
  /** Shadow calls only: what the plugin would have done, "would have denied" (shadowVerdict). */
  readonly verdict?: string;
  /** With tracing on: the W3C trace id (32 hex digits) of the point's decision span (AuditRecord.trace_id). */
  readonly traceId?: string;
  /** The daemon instance that wrote the record and the config version in force (config/instance.ts). */
  readonly instanceId?: string;
  readonly configVersion?: string;
  /** Set on the decisions of an evaluate answered again from its first answer (host/retries.ts). */
  readonly retry?: boolean;
  /** The rule that answered (an invocation) or decided (a decision), for plugins whose decisions are rules. */
  readonly rule?: string;
  /** What the plugin (an invocation) or the point's plugins (a decision) said to the agent's user. */
  readonly userMessage?: string;
  /** The reason a plugin asked the agent to stop with. */
  readonly stopAgent?: string;
  /** `hookd eval` only, never written to the log: the values the rule read (Invocation.ruleValues). */
  readonly ruleValues?: Readonly<Record<string, JsonValue>>;
}

/** The audit record for an engine event, or undefined for events that are not audited. */
export function toAuditRecord(event: EngineEvent, now: Date = new Date()): AuditRecord | undefined {
  const { scope } = event;
  const time = now.toISOString();
  const where = {
    agentId: scope.agentId,
    sessionId: scope.sessionId,
    turn: scope.turn,
    step: scope.step,
    callId: scope.callId ?? "",
    ...(scope.eventName === undefined ? {} : { eventName: scope.eventName }),
    ...(scope.traceId === undefined ? {} : { traceId: scope.traceId }),
  };
  switch (event.type) {
    case "invocation": {
      const { invocation } = event;
      return {
        time,
        kind: "invocation",
        ...where,
        plugin: invocation.plugin,
        point: invocation.point,
        decision: invocation.decision,
        reason: invocation.detail ?? "",
        cause: invocation.fault ?? (invocation.outcome === "error" ? "listener_error" : ""),
        durationUs: invocation.durationUs,
        outcome: invocation.outcome,
        ...(invocation.rule === undefined ? {} : { rule: invocation.rule }),
        ...(invocation.notice?.userMessage === undefined ? {} : { userMessage: invocation.notice.userMessage }),
        ...(invocation.notice?.stopAgent === undefined ? {} : { stopAgent: invocation.notice.stopAgent.reason }),
      };
    }
    case "decision":
      return {
        time,
        kind: "decision",
        ...where,
        plugin: event.decidedBy,
        point: event.point,
        decision: event.decision,
        reason: event.reason ?? "",
        cause: event.cause ?? (event.decision === "error" ? "listener_error" : ""),
        durationUs: event.durationUs,
        ...argumentsOf(event.call),
        ...(event.rule === undefined ? {} : { rule: event.rule }),
        ...(event.userMessage === undefined ? {} : { userMessage: event.userMessage }),
        ...(event.stopAgent === undefined ? {} : { stopAgent: event.stopAgent }),
      };
    case "shadow-decision": {
      const { shadow } = event;
      const cause = shadow.cause ?? "";
      return {
        time,
        kind: "shadow",
        ...where,
        plugin: shadow.plugin,
        point: shadow.point,
        decision: shadow.decision,
        reason: shadow.reason ?? "",
        cause,
        durationUs: shadow.durationUs,
        outcome: shadow.outcome,
        verdict: shadowVerdict(shadow.decision, cause),
      };
    }
    case "turn-started":
    case "step-started":
    case "call-settled":
    case "contexts-appended":
    case "turn-ended":
      return undefined;
    default: {
      const unknown: never = event;
      return unknown;
    }
  }
}

/** The argument versions of a rewrite decision's call. */
function argumentsOf(call: ToolCall | undefined): Pick<AuditRecord, "argumentsJson" | "originalArgumentsJson" | "rewrittenBy"> {
  if (call === undefined) return {};
  return {
    argumentsJson: call.argumentsJson,
    ...(call.originalArgumentsJson === undefined ? {} : { originalArgumentsJson: call.originalArgumentsJson }),
    ...(call.rewrittenBy === undefined ? {} : { rewrittenBy: call.rewrittenBy }),
  };
}

