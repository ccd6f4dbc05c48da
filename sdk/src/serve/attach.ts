// HookPlugin.Attach served by the same point handlers as the unary RPCs: each call frame runs its
// point's handler at once (calls run concurrently and are answered as they finish, in any order),
// with a context whose signal aborts when the daemon sends a cancel frame for the call
// (AbortError), when the frame's deadline passes (TimeoutError) or when the stream ends. Every
// call is answered once: with its point's response, or with a CallError carrying the status the
// unary RPC would have ended with. A call the daemon cancelled is not answered.
import { create } from "@bufbuild/protobuf";
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { status } from "@grpc/grpc-js";
import { PLUGIN_METHODS, fromProtoPoint } from "../convert.js";
import { encode } from "../grpc/definition.js";
import { EncodedResponse } from "../grpc/server.js";
import type { Requests } from "../grpc/requests.js";
import type { ServerCallInfo, ServerStreamCall } from "../grpc/server.js";
import { StatusError, invalidArgument, toStatusError } from "../grpc/status.js";
import { LazyAbort } from "../lazy-abort.js";
import * as pb from "../proto.js";
import type { PointName } from "../types.js";
import type { PointRequestHandler } from "./handlers.js";

/** The oneof field of a point's request and response in the Attach frames: 10 + its `Point` value. */
const FIELD_OFFSET = 10;
const CALL_FIELDS = new Map(pb.AttachCallSchema.fields.filter((field) => field.number > FIELD_OFFSET).map((field) => [field.localName, field.number]));

type AttachMethod = (typeof pb.HookPlugin.method)["attach"];

/** The Attach handler over `handlers` (the points the plugin handles; others answer UNIMPLEMENTED). */
export function attachHandler(handlers: ReadonlyMap<PointName, PointRequestHandler>) {
  return async (requests: Requests<pb.AttachRequest>, stream: ServerStreamCall<AttachMethod>): Promise<void> => {
    const running = new Map<bigint, { readonly abort: LazyAbort; readonly done: Promise<void> }>();
    const send = (frame: Uint8Array): void => {
      // An answer the stream can no longer carry is dropped: the daemon failed the call already.
      stream.send(new EncodedResponse(Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength)) as never).catch(() => {});
    };
    let opened = false;
    // Each frame is taken as it is decoded: a call starts with no promise or turn in between.
    const receive = (request: pb.AttachRequest): void => {
      const frame = request.frame;
      switch (frame.case) {
        case "open":
          opened = true;
          return;
        case "cancel":
          running.get(frame.value.callId)?.abort.abort(new DOMException("the daemon cancelled the call", "AbortError"));
          return;
        case "call": {
          if (!opened) throw invalidArgument("frame", "the first frame of an Attach stream must be open");
          const id = frame.value.callId;
          if (running.has(id)) {
            send(errorFrame(id, invalidArgument("call.call_id", `${id} is already in flight on this stream`)));
            return;
          }
          const abort = new LazyAbort();
          const done = run(handlers, frame.value, abort, stream, send).finally(() => running.delete(id));
          running.set(id, { abort, done });
          return;
        }
        case undefined:
          return; // a frame of a kind this plugin does not know (a newer daemon's) is ignored
        default: {
          const unknownFrame: never = frame;
          throw new StatusError(status.INTERNAL, `unknown frame ${String(unknownFrame)}`);
        }
      }
    };
    try {
      await requests.listen(receive);
      // The daemon half-closed: answer what is still running, then end the stream.
      await Promise.all([...running.values()].map((entry) => entry.done));
    } finally {
      for (const entry of running.values()) entry.abort.abort(new DOMException("the Attach stream ended", "AbortError"));
    }
  };
}

async function run(
  handlers: ReadonlyMap<PointName, PointRequestHandler>,
  call: pb.AttachCall,
  abort: LazyAbort,
  stream: ServerStreamCall<AttachMethod>,
  send: (frame: Uint8Array) => void,
): Promise<void> {
  const id = call.callId;
  const request = call.request;
  if (request.case === undefined) {
    send(errorFrame(id, invalidArgument("call.request", "missing")));
    return;
  }
  const field = CALL_FIELDS.get(request.case) ?? 0;
  const point = fromProtoPoint(field - FIELD_OFFSET);
  const handler = point.ok ? handlers.get(point.value) : undefined;
  if (!point.ok || handler === undefined) {
    const name = point.ok ? point.value : request.case;
    send(errorFrame(id, new StatusError(status.UNIMPLEMENTED, `the plugin does not handle ${name}`)));
    return;
  }
  const deadlineMs = call.deadlineMs;
  const timer = deadlineMs > 0 ? setTimeout(() => abort.abort(new DOMException("the call's deadline passed", "TimeoutError")), deadlineMs) : undefined;
  const info: ServerCallInfo = {
    get signal() {
      return abort.signal;
    },
    cancellation: abort,
    deadline: deadlineMs > 0 ? new Date(Date.now() + deadlineMs) : undefined,
    metadata: stream.metadata,
    peer: stream.peer,
  };
  let frame: Uint8Array;
  try {
    // Proto3's empty string: the daemon's tracing is off.
    const answer = await handler(request.value, info, call.traceparent === "" ? undefined : call.traceparent);
    frame = responseFrame(id, point.value, field, answer);
  } catch (error) {
    frame = errorFrame(id, toStatusError(error));
  } finally {
    clearTimeout(timer);
  }
  if (abort.aborted && abort.reason instanceof DOMException && abort.reason.name === "AbortError") return; // cancelled: not answered
  send(frame);
}

function responseFrame(id: bigint, point: PointName, field: number, answer: unknown): Uint8Array {
  const output: DescMessage = pb.HookPlugin.method[PLUGIN_METHODS[point]].output;
  const bytes = answer instanceof EncodedResponse ? answer.bytes : encode(output, create(output, answer as MessageInitShape<DescMessage>));
  return new BinaryWriter().tag(1, WireType.Varint).uint64(id).tag(field, WireType.LengthDelimited).bytes(bytes).finish();
}

function errorFrame(id: bigint, error: StatusError): Uint8Array {
  const response = create(pb.AttachResponseSchema, { callId: id, reply: { case: "error", value: { code: error.code, message: error.details } } });
  return encode(pb.AttachResponseSchema, response);
}
