// The unary Evaluate* calls for agents that keep their own loop: a typed event goes out through
// its point's codec, the merged decision and its trace come back typed. One invoker for every
// point in the evaluate table; a request that cannot be built or an answer that cannot be used
// rejects as a StatusError.
import { status } from "@grpc/grpc-js";
import type { Message } from "@bufbuild/protobuf";
import type { CallOptions, TypedClient } from "../grpc/client.js";
import { StatusError, toStatusError } from "../grpc/status.js";
import { deepFreeze } from "../json.js";
import { EVALUATED_POINTS, EVALUATE_TABLE, POINT_TABLE } from "../points/index.js";
import type { EvaluateOptionsOf, EvaluatedPoint, EvaluationOf, EventOf } from "../points/index.js";
import type { EvaluateOptions, EvaluateSpec } from "../points/define.js";
import type * as pb from "../proto.js";
import { messageOf } from "./results.js";

type MethodOf<P extends EvaluatedPoint> = (typeof EVALUATE_TABLE)[P]["method"];

/** One evaluate method per point of the evaluate table, named after its RPC ("evaluate" and the point's name). */
export type Evaluator = {
  readonly [P in EvaluatedPoint as MethodOf<P>]: (event: EventOf<P>, options?: EvaluateOptionsOf<P>) => Promise<EvaluationOf<P>>;
};

type HostStub = TypedClient<typeof pb.HookHost>;
type LooseCall = (request: Record<string, unknown>, call: CallOptions) => Promise<Message>;

/** `assertOpen` throws (a StatusError) once the client is closed. */
export function evaluator(stub: HostStub, metadata: Readonly<Record<string, string>>, assertOpen: () => void): Evaluator {
  const methods: Record<string, (event: object, options?: EvaluateOptions) => Promise<unknown>> = {};
  for (const point of EVALUATED_POINTS) {
    // Every entry of the table, through the interface they share.
    const spec = EVALUATE_TABLE[point] as EvaluateSpec<object, EvaluateOptions, unknown>;
    const codec = POINT_TABLE[point].event as { toProto(event: object): Message };
    const send = stub[spec.method] as unknown as LooseCall;
    const rpc = spec.method.charAt(0).toUpperCase() + spec.method.slice(1);
    methods[spec.method] = async (event, options = {}) => {
      let response: Message;
      try {
        assertOpen();
        const call: CallOptions = { metadata, signal: options.signal, timeoutMs: options.timeoutMs };
        response = await send({ event: codec.toProto(event), ...spec.requestFields(options) }, call);
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
  return methods as unknown as Evaluator;
}
