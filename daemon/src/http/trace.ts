// An HTTP hook request's W3C trace context (`traceparent` header) carried into every evaluate
// call the request makes, so the request's decisions are spans under the agent's trace.
import type { IncomingHttpHeaders } from "node:http";
import { traceContextOfHttp } from "../host/trace-context.js";
import type { HookEvaluator } from "./lifecycle.js";

/** `evaluator` with the request's trace context added to each call's options; itself when it has none. */
export function tracedEvaluator(evaluator: HookEvaluator, headers: IncomingHttpHeaders): HookEvaluator {
  const trace = traceContextOfHttp(headers);
  if (trace === undefined) return evaluator;
  return { evaluate: (point, event, options) => evaluator.evaluate(point, event, { ...options, trace }) };
}
