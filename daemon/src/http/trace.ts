// An HTTP hook request's W3C trace context (`traceparent` header) carried into every evaluate
// call the request makes, so the request's decisions are spans under the agent's trace.
import type { IncomingHttpHeaders } from "node:http";
import { traceContextOfHttp } from "../host/trace-context.js";

/** `evaluate` with the request's trace context added to each call's options; itself when it has none. */
export function tracedEvaluator<E extends object>(evaluate: E, headers: IncomingHttpHeaders): E {
  const trace = traceContextOfHttp(headers);
  if (trace === undefined) return evaluate;
  return new Proxy(evaluate, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      return (event: unknown, options: object): unknown => Reflect.apply(value, target, [event, { ...options, trace }]);
    },
  });
}
