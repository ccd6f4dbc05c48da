// Tracing with the OpenTelemetry SDK, exported over OTLP/gRPC: the engine's DecisionTracer
// (engine/tracing.ts) as OpenTelemetry spans. Loaded by a dynamic import only when
// `tracing.otlp` is configured, so a daemon without it never loads the SDK. Owns span names,
// attributes, sampling and the exporter; when spans are made is the engine's.
import { Metadata, credentials } from "@grpc/grpc-js";
import { DiagLogLevel, ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, defaultTextMapSetter, diag, trace } from "@opentelemetry/api";
import type { Attributes, Context, Span, Tracer } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-grpc";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from "@opentelemetry/sdk-trace-base";
import type { PointName } from "@hookd/sdk";
import type { EventScope, ShadowOutcome } from "../../engine/events.js";
import type { Invocation } from "../../engine/invoke.js";
import type { Listener } from "../../engine/listener.js";
import type { CallSpan, DecisionSpan, DecisionSummary, DecisionTracer, TraceContextHeaders, Tracing } from "../../engine/tracing.js";
import type { Logger } from "../../log.js";

export interface OtlpTracingOptions {
  /** The collector's OTLP/gRPC endpoint, http://host:port (plaintext) or https://host:port (TLS). */
  readonly endpoint: string;
  /** Sent as gRPC metadata with every export (e.g. an API key). */
  readonly headers: Readonly<Record<string, string>>;
  /** The share (0..1) of new traces recorded; a trace the agent started follows its sampled flag. */
  readonly samplingRatio: number;
  readonly serviceName: string;
  readonly serviceVersion: string;
  readonly log: Logger;
}

/** The daemon's tracing: tracers for the host, and the exporter to flush at stop. */
export interface OtlpTracing extends Tracing {
  /** Exports what is buffered and stops the exporter. */
  shutdown(): Promise<void>;
}

const W3C = new W3CTraceContextPropagator();
/** Plugin kinds whose calls leave the process over gRPC: their spans are clients. */
const WIRE_KINDS = new Set(["remote", "managed"]);

export function startOtlpTracing(options: OtlpTracingOptions): OtlpTracing {
  // The SDK reports export failures through its diagnostics: they go to the daemon's log.
  diag.setLogger(
    {
      error: (message, ...args) => options.log.warn(`tracing: ${message}`, { detail: args.map(String).join(" ") }),
      warn: (message, ...args) => options.log.warn(`tracing: ${message}`, { detail: args.map(String).join(" ") }),
      info: () => {},
      debug: () => {},
      verbose: () => {},
    },
    DiagLogLevel.WARN,
  );
  const metadata = new Metadata();
  for (const [key, value] of Object.entries(options.headers)) metadata.set(key, value);
  const exporter = new OTLPTraceExporter({
    url: options.endpoint,
    metadata,
    credentials: options.endpoint.startsWith("https:") ? credentials.createSsl() : credentials.createInsecure(),
  });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName, "service.version": options.serviceVersion }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(options.samplingRatio) }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("hookd", options.serviceVersion);
  return {
    under: (parent) => new OtelDecisionTracer(tracer, contextOf(parent)),
    shutdown: () => provider.shutdown(),
  };
}

/** The agent's trace context as a parent; ROOT_CONTEXT (a new trace) when absent or invalid. */
function contextOf(parent: TraceContextHeaders | undefined): Context {
  if (parent === undefined) return ROOT_CONTEXT;
  const carrier: Record<string, string> = { traceparent: parent.traceparent, ...(parent.tracestate === undefined ? {} : { tracestate: parent.tracestate }) };
  return W3C.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter);
}

class OtelDecisionTracer implements DecisionTracer {
  constructor(
    readonly tracer: Tracer,
    readonly parent: Context,
  ) {}

  startDecision(point: PointName, scope: EventScope): DecisionSpan {
    const attributes: Attributes = {
      "hookd.point": point,
      "hookd.agent": scope.agentId,
      "hookd.session": scope.sessionId,
      "hookd.turn": scope.turn,
      "hookd.step": scope.step,
      ...(scope.callId === undefined ? {} : { "hookd.call_id": scope.callId }),
      ...(scope.eventName === undefined ? {} : { "hookd.event_name": scope.eventName }),
    };
    return new OtelDecisionSpan(this.tracer, this.tracer.startSpan(`hookd ${point}`, { kind: SpanKind.INTERNAL, attributes }, this.parent));
  }
}

class OtelDecisionSpan implements DecisionSpan {
  readonly traceId: string;
  readonly #context: Context;

  constructor(
    readonly tracer: Tracer,
    readonly span: Span,
  ) {
    this.traceId = span.spanContext().traceId;
    this.#context = trace.setSpan(ROOT_CONTEXT, span);
  }

  startCall(listener: Listener, shadow: boolean): CallSpan {
    const attributes: Attributes = { "hookd.plugin": listener.plugin, "hookd.point": listener.point, "hookd.plugin.kind": listener.kind, "hookd.shadow": shadow };
    const kind = WIRE_KINDS.has(listener.kind) ? SpanKind.CLIENT : SpanKind.INTERNAL;
    return new OtelCallSpan(this.tracer.startSpan(`hookd.plugin ${listener.plugin}`, { kind, attributes }, this.#context));
  }

  end(summary: DecisionSummary): void {
    this.span.setAttribute("hookd.outcome", summary.outcome);
    if (summary.decidedBy !== undefined) this.span.setAttribute("hookd.decided_by", summary.decidedBy);
    if (summary.cause !== undefined) this.span.setAttribute("hookd.cause", summary.cause);
    if (summary.reason !== undefined) this.span.setAttribute("hookd.reason", summary.reason);
    if (summary.rule !== undefined) this.span.setAttribute("hookd.rule", summary.rule);
    // A deny is an answer, not an error: only a point that could not be decided is one.
    if (summary.outcome === "error") this.span.setStatus({ code: SpanStatusCode.ERROR, ...(summary.reason === undefined ? {} : { message: summary.reason }) });
    this.span.end();
  }
}

class OtelCallSpan implements CallSpan {
  #traceparent: string | undefined;

  constructor(readonly span: Span) {}

  /** Formatted on first read: only plugins on a wire are sent it. */
  get traceparent(): string {
    if (this.#traceparent === undefined) {
      const carrier: Record<string, string> = {};
      W3C.inject(trace.setSpan(ROOT_CONTEXT, this.span), carrier, defaultTextMapSetter);
      this.#traceparent = carrier.traceparent ?? "";
    }
    return this.#traceparent;
  }

  end(result: Invocation | ShadowOutcome | undefined): void {
    if (result === undefined) {
      this.span.setAttribute("hookd.outcome", "cancelled");
      this.span.end();
      return;
    }
    this.span.setAttribute("hookd.outcome", result.outcome);
    this.span.setAttribute("hookd.decision", result.decision);
    // An Invocation names a fault's cause `fault` and its text `detail`; a ShadowOutcome `cause` and `reason`.
    const cause = (result as Invocation).fault ?? (result as ShadowOutcome).cause ?? (result.outcome === "error" ? "listener_error" : undefined);
    if (cause !== undefined) this.span.setAttribute("hookd.cause", cause);
    const detail = (result as Invocation).detail ?? (result as ShadowOutcome).reason;
    if (detail !== undefined) this.span.setAttribute("hookd.reason", detail);
    const rule = (result as Invocation).rule;
    if (rule !== undefined) this.span.setAttribute("hookd.rule", rule);
    if (result.outcome === "fault" || result.outcome === "error") this.span.setStatus({ code: SpanStatusCode.ERROR, ...(detail === undefined ? {} : { message: detail }) });
    this.span.end();
  }
}
