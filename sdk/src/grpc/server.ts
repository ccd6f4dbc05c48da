// addService: serves a protobuf-es GenService on a grpc-js Server with promise-returning handlers.
// Owns the handler types, the per-call context (signal, deadline, metadata, peer) and how a
// handler's outcome becomes a status; knows nothing of binding, shutdown or hookd's services.
import { create } from "@bufbuild/protobuf";
import type { DescMessage, DescMethod, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import type {
  Deadline,
  Metadata,
  Server,
  ServerDuplexStream,
  ServerUnaryCall,
  ServerWritableStream,
  UntypedHandleCall,
  sendUnaryData,
} from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import { encode, serviceDefinition } from "./definition.js";
import type { AnyService, Decoded, InputOf, MethodsOf, OutputInitOf, RequestLimits } from "./definition.js";
import { LazyAbort } from "../lazy-abort.js";
import { toStatusError } from "./status.js";
import type { StatusError } from "./status.js";
import { ServerRequests } from "./requests.js";
import type { Requests } from "./requests.js";
import { WriteQueue } from "./write-queue.js";

export interface ServerCallInfo {
  /**
   * Aborted when the client cancels (reason: an AbortError) or the deadline passes (reason: a
   * TimeoutError). grpc-js does not interrupt a handler, so long work must watch this signal.
   * It is left alone once the handler has answered.
   */
  readonly signal: AbortSignal;
  /** The same cancellation, readable (aborted, reason) without making the signal. */
  readonly cancellation: LazyAbort;
  /** The caller's deadline, when it set one. */
  readonly deadline: Date | undefined;
  /** The request headers. */
  readonly metadata: Metadata;
  /** e.g. "127.0.0.1:50412"; grpc-js says "unknown" for a client on a Unix socket. */
  readonly peer: string;
}

export interface ServerStreamCall<D extends Pick<DescMethod, "output">> extends ServerCallInfo {
  /**
   * Resolves once the message is handed to the stream: at once while it has room, later while the
   * client is slow (messages sent meanwhile wait behind it, in order); rejects once the call is over.
   */
  send(message: OutputInitOf<D>): Promise<void>;
  /**
   * Bidi calls: when set, a request that cannot be used (malformed, over the size limit) is
   * handed here and skipped, and the stream goes on; when unset, it ends the call.
   */
  onInvalidRequest?: (error: StatusError) => void;
}

type MethodShape = Pick<DescMethod, "input" | "output" | "methodKind">;

export type UnaryHandler<D extends MethodShape> = (request: InputOf<D>, call: ServerCallInfo) => Promise<OutputInitOf<D>>;
/** Resolving ends the call with OK; rejecting ends it with the error's status. */
export type ServerStreamingHandler<D extends MethodShape> = (request: InputOf<D>, call: ServerStreamCall<D>) => Promise<void>;
/**
 * `requests` (iterated, or listened to: see Requests) ends when the client half-closes; it throws
 * INVALID_ARGUMENT for a malformed message.
 * A client's cancel can first read as the end of `requests`: Node's http2 client half-closes
 * before it resets the stream (grpc/grpc-node#205). The signal aborts when the reset arrives, so
 * a handler still running then learns of it; one that already answered never does.
 */
export type BidiStreamingHandler<D extends MethodShape> = (
  requests: Requests<InputOf<D>>,
  call: ServerStreamCall<D>,
) => Promise<void>;

/** Client-streaming methods are not supported (hookd has none): their handler type is `never`. */
export type MethodHandler<D extends MethodShape> = D["methodKind"] extends "unary"
  ? UnaryHandler<D>
  : D["methodKind"] extends "server_streaming"
    ? ServerStreamingHandler<D>
    : D["methodKind"] extends "bidi_streaming"
      ? BidiStreamingHandler<D>
      : never;

/** Every method of a service, keyed by local name; annotate with it to have the compiler check completeness. */
export type ServiceImpl<S extends AnyService> = { readonly [K in keyof MethodsOf<S>]: MethodHandler<MethodsOf<S>[K]> };

/**
 * Registers `impl` for `service` on `server`. Methods left out answer UNIMPLEMENTED (grpc-js's
 * default), so a plugin implements only what it handles; a key that names no method of the
 * service, or a handler that is not a function, is refused here rather than served wrongly.
 */
export function addService<S extends AnyService>(server: Server, service: S, impl: Partial<ServiceImpl<S>>, limits: RequestLimits = {}): void {
  const handlers: Record<string, UntypedHandleCall> = {};
  const known = new Set(service.methods.map((method) => method.localName));
  for (const key of Object.keys(impl)) {
    if (!known.has(key)) throw new HookdError("invalid_argument", `${service.typeName} has no method "${key}"`);
  }
  for (const method of service.methods) {
    const handler: unknown = (impl as Readonly<Record<string, unknown>>)[method.localName];
    if (handler === undefined) continue;
    if (typeof handler !== "function") {
      throw new HookdError("invalid_argument", `the handler for ${service.typeName}.${method.name} is not a function`);
    }
    handlers[method.localName] = wrap(method, handler.bind(impl) as LooseHandler);
  }
  server.addService(serviceDefinition(service, limits), handlers);
}

// What openCall needs of grpc-js's server call objects (grpc-js does not export its own name).
interface ServerSurfaceCall {
  readonly cancelled: boolean;
  readonly metadata: Metadata;
  getPeer(): string;
  getDeadline(): Deadline;
  on(event: "cancelled", listener: () => void): unknown;
  off(event: "cancelled", listener: () => void): unknown;
}

// Past the typed surface, handlers are checked only by method kind.
type AnyMessage = MessageShape<DescMessage>;
type LooseHandler = (first: unknown, call: ServerCallInfo) => Promise<unknown>;

function wrap(method: DescMethod, handler: LooseHandler): UntypedHandleCall {
  switch (method.methodKind) {
    case "unary":
      return unary(method, handler);
    case "server_streaming":
      return (call: ServerWritableStream<Decoded<AnyMessage>, Buffer>) => {
        stream(method, call, () => unwrap(call.request), handler);
      };
    case "bidi_streaming":
      return (call: ServerDuplexStream<Decoded<AnyMessage>, Buffer>) => {
        stream(method, call, (streamCall) => new ServerRequests(call, streamCall), handler);
      };
    case "client_streaming":
      throw new HookdError("internal", `${method.parent.typeName}.${method.name}: client-streaming methods are not supported`);
    default: {
      const unknownKind: never = method.methodKind;
      throw new HookdError("internal", `unknown method kind ${String(unknownKind)}`);
    }
  }
}

function unary(method: DescMethod, handler: LooseHandler): UntypedHandleCall {
  return (call: ServerUnaryCall<Decoded<AnyMessage>, Buffer>, callback: sendUnaryData<Buffer>) => {
    const context = openCall(call);
    void (async () => {
      let response: Buffer;
      try {
        const answer = await handler(unwrap(call.request), context.info);
        response = encodeOutput(method, answer);
      } catch (error) {
        context.answered();
        callback(toStatusError(error).toStatus());
        return;
      }
      context.answered();
      callback(null, response);
    })();
  };
}

function stream(
  method: DescMethod,
  call: ServerWritableStream<Decoded<AnyMessage>, Buffer> | ServerDuplexStream<Decoded<AnyMessage>, Buffer>,
  input: (streamCall: StreamCall) => unknown,
  handler: LooseHandler,
): void {
  const context = openCall(call);
  const cancellation = context.info.cancellation;
  // Concurrent sends (Attach answers calls as they finish) share the call's one queue.
  const writes = new WriteQueue(call, cancellation);
  const send = async (message: unknown): Promise<void> => writes.write(encodeOutput(method, message));
  const streamCall = new StreamCall(context.info, send);
  void (async () => {
    let failure: StatusError | undefined;
    try {
      await handler(input(streamCall), streamCall);
    } catch (error) {
      failure = toStatusError(error);
    }
    context.answered();
    // The status follows every message sent before it, including those still queued.
    await writes.settled();
    if (call.cancelled) return; // the client is gone; there is no one to tell
    // grpc-js's own listener turns an "error" event into the call's status, after pending writes.
    if (failure) call.emit("error", failure.toStatus());
    else call.end();
  })();
}

/**
 * A call's context. Its signal is made when the handler first reads it (LazyAbort): an idle
 * stream, or a handler that never looks, costs no AbortSignal (about half a KiB each).
 */
class CallInfo implements ServerCallInfo {
  readonly #cancellation: LazyAbort;

  constructor(
    cancellation: LazyAbort,
    readonly deadline: Date | undefined,
    readonly metadata: Metadata,
    readonly peer: string,
  ) {
    this.#cancellation = cancellation;
  }

  get signal(): AbortSignal {
    return this.#cancellation.signal;
  }

  get cancellation(): LazyAbort {
    return this.#cancellation;
  }
}

class StreamCall extends CallInfo implements ServerStreamCall<DescMethod> {
  onInvalidRequest?: (error: StatusError) => void;

  constructor(
    info: CallInfo,
    readonly send: (message: unknown) => Promise<void>,
  ) {
    super(info.cancellation, info.deadline, info.metadata, info.peer);
  }
}

/** Serves the deadline and cancellation as an AbortSignal. */
function openCall(call: ServerSurfaceCall): { info: CallInfo; answered(): void } {
  const cancellation = new LazyAbort();
  const deadline = deadlineOf(call);
  let answered = false;
  // grpc-js emits "cancelled" for a client cancel, for its own deadline timer, and also after
  // every status it sends, even OK; only the first two concern a handler that has not answered.
  const onCancelled = (): void => {
    if (answered || cancellation.aborted) return;
    // The wire does not say why a client cancelled; a cancel this close to the deadline is the
    // deadline (the client's and the server's timers race, and timers fire late under load).
    const expired = deadline !== undefined && Date.now() >= deadline.getTime() - DEADLINE_SLACK_MS;
    cancellation.abort(
      expired
        ? new DOMException("the call's deadline passed", "TimeoutError")
        : new DOMException("the client cancelled the call", "AbortError"),
    );
  };
  call.on("cancelled", onCancelled);
  if (call.cancelled) onCancelled();
  return {
    info: new CallInfo(cancellation, deadline, call.metadata, call.getPeer()),
    answered: () => {
      answered = true;
      call.off("cancelled", onCancelled);
    },
  };
}

const DEADLINE_SLACK_MS = 20;

function deadlineOf(call: ServerSurfaceCall): Date | undefined {
  const deadline = call.getDeadline(); // Infinity when the client set none
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

function unwrap<T>(decoded: Decoded<T>): T {
  if (decoded.ok) return decoded.message;
  throw decoded.error;
}

/**
 * A response encoded ahead of time, for a handler whose commonest answers are constant: the
 * adapter sends these bytes as they are instead of building and encoding the message each call.
 */
export class EncodedResponse {
  constructor(readonly bytes: Buffer) {}
}

function encodeOutput(method: DescMethod, message: unknown): Buffer {
  if (message instanceof EncodedResponse) return message.bytes;
  return encode(method.output, create(method.output, message as MessageInitShape<DescMessage>));
}
