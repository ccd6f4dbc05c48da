// The W3C trace context an agent sends with a call: `traceparent` (and `tracestate`) in its gRPC
// metadata or its HTTP hook request's headers. Read only when tracing is on; what the values
// mean is the tracer's (ops/tracing/), which ignores a malformed one and starts a new trace.
import type { Metadata } from "@grpc/grpc-js";
import type { IncomingHttpHeaders } from "node:http";
import type { TraceContextHeaders } from "../engine/tracing.js";

export function traceContextOf(metadata: Metadata): TraceContextHeaders | undefined {
  return headersOf(metadata.get("traceparent")[0], metadata.get("tracestate")[0]);
}

export function traceContextOfHttp(headers: IncomingHttpHeaders): TraceContextHeaders | undefined {
  return headersOf(headers.traceparent, headers.tracestate);
}

function headersOf(traceparent: unknown, tracestate: unknown): TraceContextHeaders | undefined {
  const parent: unknown = Array.isArray(traceparent) ? (traceparent as unknown[])[0] : traceparent;
  if (typeof parent !== "string" || parent === "") return undefined;
  const state: unknown = Array.isArray(tracestate) ? (tracestate as unknown[]).join(",") : tracestate;
  return typeof state === "string" && state !== "" ? { traceparent: parent, tracestate: state } : { traceparent: parent };
}
