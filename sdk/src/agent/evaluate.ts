// The evaluate calls for agents that keep their own loop: a typed event goes out through its
// point's codec, the merged decision and its trace come back typed. One invoker for every point
// in the evaluate table, over the Evaluate stream (evaluate-stream.ts) or the unary Evaluate*
// RPCs; a request that cannot be built or an answer that cannot be used rejects as a StatusError.
// A refusal for load, or an unreachable daemon, is tried again within the deadline (evaluate-retry.ts).
import { status } from "@grpc/grpc-js";
import type { Message } from "@bufbuild/protobuf";
import type { CallOptions, TypedClient } from "../grpc/client.js";
import { EvaluateStreamClient } from "./evaluate-stream.js";
import type { StreamCallOptions } from "./evaluate-stream.js";
import { EVALUATE_STREAM_CASES } from "./stream-cases.js";
import { StatusError, toStatusError } from "../grpc/status.js";
import { deepFreeze } from "../json.js";
import { EVALUATED_POINTS, EVALUATE_TABLE, POINT_TABLE } from "../points/index.js";
import type { EvaluateOptionsOf, EvaluatedPoint, EvaluationOf, EventOf } from "../points/index.js";
import type { EvaluateOptions, EvaluateSpec } from "../points/define.js";
import type * as pb from "../proto.js";
import { messageOf } from "./results.js";
import { withSession } from "./affinity.js";
import { DEFAULT_EVALUATE_RETRY, withRetries } from "./evaluate-retry.js";
import type { EvaluateRetryOptions } from "./evaluate-retry.js";

type MethodOf<P extends EvaluatedPoint> = (typeof EVALUATE_TABLE)[P]["method"];

/** One evaluate method per point of the evaluate table, named after its RPC ("evaluate" and the point's name). */
export type Evaluator = {
  readonly [P in EvaluatedPoint as MethodOf<P>]: (event: EventOf<P>, options?: EvaluateOptionsOf<P>) => Promise<EvaluationOf<P>>;
};

type HostStub = TypedClient<typeof pb.HookHost>;
type LooseCall = (request: Record<string, unknown>, call: CallOptions) => Promise<Message>;
type Send = (point: EvaluatedPoint, request: Record<string, unknown>, options: StreamCallOptions, sessionId?: string) => Promise<Message>;

/** How evaluate calls travel: one multiplexed Evaluate stream (the default), or a unary RPC each. */
export type EvaluateTransport = "stream" | "unary";

export interface EvaluatorHandle {
  readonly methods: Evaluator;
  /** Ends the Evaluate stream, if one is open. */
  close(): void;
}

/**
 * `assertOpen` throws (a StatusError) once the client is closed. With the stream, a daemon that
 * answers it UNIMPLEMENTED (one older than the stream) is called unary from then on; the calls the
 * stream held are re-sent unary with the time they have left.
 */
export function evaluator(
  stub: HostStub,
  metadata: Readonly<Record<string, string>>,
  assertOpen: () => void,
  transport: EvaluateTransport = "stream",
  retry: Required<EvaluateRetryOptions> = DEFAULT_EVALUATE_RETRY,
): EvaluatorHandle {
  let mode = transport;
  // A unary call carries its session for affinity; the stream multiplexes sessions, so only its agent.
  const unary: Send = (point, request, options, sessionId) =>
    (stub[EVALUATE_TABLE[point].method] as unknown as LooseCall)(request, {
      metadata: sessionId === undefined ? metadata : withSession(metadata, sessionId),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  const stream = new EvaluateStreamClient(stub, metadata, (calls) => {
    mode = "unary";
    for (const call of calls) {
      const { signal, timeoutMs } = call.options;
      const left = timeoutMs === undefined ? undefined : timeoutMs - (performance.now() - call.started);
      unary(call.route.point, call.request, { signal, timeoutMs: left }, sessionIdOf(call.request.event)).then(call.resolve, (error: unknown) => call.reject(toStatusError(error)));
    }
  });
  const send: Send = (point, request, options, sessionId) =>
    mode === "stream" ? stream.call(EVALUATE_STREAM_CASES[point], request, options) : unary(point, request, options, sessionId);
  const methods: Record<string, (event: object, options?: EvaluateOptions) => Promise<unknown>> = {};
  for (const point of EVALUATED_POINTS) {
    // Every entry of the table, through the interface they share.
    const spec = EVALUATE_TABLE[point] as EvaluateSpec<object, EvaluateOptions, unknown>;
    const codec = POINT_TABLE[point].event as { toProto(event: object): Message };
    const rpc = spec.method.charAt(0).toUpperCase() + spec.method.slice(1);
    methods[spec.method] = async (event, options = {}) => {
      let response: Message;
      try {
        assertOpen();
        const request = { event: codec.toProto(event), ...spec.requestFields(options) };
        response = await withRetries(retry, { signal: options.signal, timeoutMs: options.timeoutMs }, (attempt) => send(point, request, attempt, sessionIdOf(event)));
      } catch (error) {
        throw toStatusError(error); // a typed event the codecs refuse is INVALID_ARGUMENT
      }
      try {
        return deepFreeze(spec.readResponse(response, event));
      } catch (error) {
        throw new StatusError(status.INTERNAL, `${rpc}: the daemon's answer is unusable: ${messageOf(error)}`, { cause: error });
      }
    };
  }
  return { methods: methods as unknown as Evaluator, close: () => stream.close() };
}

/** The session id of a typed or proto event, for the affinity header. */
function sessionIdOf(event: unknown): string | undefined {
  if (typeof event !== "object" || event === null) return undefined;
  const { session } = event as { readonly session?: { readonly sessionId?: unknown } };
  return typeof session?.sessionId === "string" ? session.sessionId : undefined;
}
