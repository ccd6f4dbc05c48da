// The three kinds of client method createClient builds (unary, server streaming, bidi), and
// the translation of grpc-js's callbacks, events and statuses into promises, iterables and
// StatusErrors. Owns no client lifecycle (client.ts does).
import { create } from "@bufbuild/protobuf";
import type { DescMessage, DescMethod, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import { Metadata, status } from "@grpc/grpc-js";
import type { CallOptions as GrpcCallOptions, Client, ClientDuplexStream, ClientReadableStream, ServiceError, StatusObject } from "@grpc/grpc-js";
import type { HookdMethodDefinition } from "./definition.js";
import type { BidiCall, CallOptions } from "./client.js";
import { StatusError, toStatusError } from "./status.js";
import { startUnaryCall } from "./unary.js";
import { readMessages } from "./streams.js";
import { WriteQueue } from "./write-queue.js";

type AnyMessage = MessageShape<DescMessage>;

/** Unary calls go through the channel's own call (unary.ts), with the Client's statuses for a missing or undecodable response. */
export function unary(client: Client, definition: HookdMethodDefinition) {
  const channel = client.getChannel();
  return (request: unknown, options: CallOptions = {}): Promise<AnyMessage> =>
    new Promise((resolve, reject) => {
      const { signal } = options;
      if (signal?.aborted) {
        reject(cancelledBefore(signal));
        return;
      }
      let bytes: Buffer;
      try {
        bytes = definition.requestSerialize(createInput(definition.method, request));
      } catch (error) {
        reject(toStatusError(error));
        return;
      }
      const deadline = callOptions(options).deadline ?? Infinity;
      startUnaryCall(channel, definition.path, bytes, { deadline, metadata: requestMetadata(options), ...(signal === undefined ? {} : { cancellation: signal }) }, (final, response) => {
        if (final.code !== status.OK) reject(statusError(final, signal));
        else if (response === undefined) reject(new StatusError(status.UNIMPLEMENTED, "No message received", { metadata: final.metadata }));
        else {
          try {
            resolve(definition.responseDeserialize(response));
          } catch (error) {
            reject(new StatusError(status.INTERNAL, `Response message parsing error: ${error instanceof Error ? error.message : String(error)}`, { cause: error }));
          }
        }
      });
    });
}

export function serverStreaming(client: Client, definition: HookdMethodDefinition) {
  return async function* (request: unknown, options: CallOptions = {}): AsyncGenerator<AnyMessage, void, undefined> {
    const { signal } = options;
    if (signal?.aborted) throw cancelledBefore(signal);
    let message: AnyMessage;
    try {
      message = createInput(definition.method, request);
    } catch (error) {
      throw toStatusError(error);
    }
    const call = client.makeServerStreamRequest(
      definition.path,
      definition.requestSerialize,
      definition.responseDeserialize,
      message,
      requestMetadata(options),
      callOptions(options),
    );
    yield* responses(call, watch(call, signal), signal);
  };
}

export function bidiStreaming(client: Client, definition: HookdMethodDefinition) {
  return (options: CallOptions = {}): BidiCall<DescMethod> => {
    const { signal } = options;
    const call = client.makeBidiStreamRequest(
      definition.path,
      definition.requestSerialize,
      definition.responseDeserialize,
      requestMetadata(options),
      callOptions(options),
    );
    const watched = watch(call, signal);
    if (signal?.aborted) call.cancel();
    // Concurrent sends share one queue; the half-close follows the messages still waiting in it.
    const writes = new WriteQueue(call, watched.over);
    let halfClosed = false;
    return {
      async send(message) {
        if (halfClosed) throw new StatusError(status.FAILED_PRECONDITION, "send() after end()");
        let input: AnyMessage;
        try {
          input = createInput(definition.method, message);
        } catch (error) {
          throw toStatusError(error);
        }
        await writes.write(input);
      },
      end() {
        if (halfClosed) return;
        halfClosed = true;
        writes.end();
      },
      responses: responses(call, watched, signal),
      cancel() {
        call.cancel();
      },
    };
  };
}

interface Watched {
  /** The final status; grpc-js always reports one, OK included. */
  readonly status: Promise<StatusObject>;
  /** True once the status arrived. */
  readonly ended: () => boolean;
  /** Aborted when the call is over, with the error a late send() should throw. */
  readonly over: AbortSignal;
}

/** Follows a streaming call from the start, whether or not anyone reads its responses. */
function watch(call: ClientReadableStream<AnyMessage> | ClientDuplexStream<AnyMessage, AnyMessage>, signal: AbortSignal | undefined): Watched {
  const over = new AbortController();
  let ended = false;
  const onAbort = (): void => call.cancel();
  signal?.addEventListener("abort", onAbort, { once: true });
  // grpc-js emits "error" for every non-OK status, and an "error" nobody listens to crashes the
  // process; the status event below carries the same information to whoever reads.
  call.on("error", () => {});
  const settled = new Promise<StatusObject>((resolve) => {
    call.once("status", (final: StatusObject) => {
      ended = true;
      signal?.removeEventListener("abort", onAbort);
      over.abort(final.code === status.OK ? new StatusError(status.FAILED_PRECONDITION, "the call has ended") : statusError(final, signal));
      resolve(final);
    });
  });
  return { status: settled, ended: () => ended, over: over.signal };
}

async function* responses(
  call: ClientReadableStream<AnyMessage> | ClientDuplexStream<AnyMessage, AnyMessage>,
  watched: Watched,
  signal: AbortSignal | undefined,
): AsyncGenerator<AnyMessage, void, undefined> {
  try {
    for await (const message of readMessages(call)) yield message as AnyMessage;
  } catch (error) {
    throw callError(error, signal);
  } finally {
    if (!watched.ended()) call.cancel(); // the loop broke early, or threw
  }
  // The stream ends before the status arrives; a failed call must not read as a complete one.
  const final = await watched.status;
  if (final.code !== status.OK) throw statusError(final, signal);
}

function createInput(method: DescMethod, request: unknown): AnyMessage {
  return create(method.input, request as MessageInitShape<DescMessage>);
}

function requestMetadata(options: CallOptions): Metadata {
  let metadata: Metadata;
  if (options.metadata instanceof Metadata) {
    metadata = options.metadata.clone();
  } else {
    metadata = new Metadata();
    for (const [key, value] of Object.entries(options.metadata ?? {})) {
      for (const item of typeof value === "string" ? [value] : value) metadata.add(key, item);
    }
  }
  // grpc-js reads waitForReady from the metadata's options, not from the call options.
  if (options.waitForReady !== undefined) metadata.setOptions({ ...metadata.getOptions(), waitForReady: options.waitForReady });
  return metadata;
}

function callOptions(options: CallOptions): GrpcCallOptions {
  const deadlines: number[] = [];
  if (options.deadline !== undefined) deadlines.push(options.deadline instanceof Date ? options.deadline.getTime() : options.deadline);
  if (options.timeoutMs !== undefined) deadlines.push(Date.now() + options.timeoutMs);
  return deadlines.length > 0 ? { deadline: Math.min(...deadlines) } : {};
}

function cancelledBefore(signal: AbortSignal): StatusError {
  return new StatusError(status.CANCELLED, "the call was cancelled before it started", { cause: signal.reason });
}

function statusError(final: StatusObject, signal: AbortSignal | undefined): StatusError {
  const cancelledHere = final.code === status.CANCELLED && signal?.aborted === true;
  return new StatusError(final.code, final.details, {
    metadata: final.metadata,
    ...(cancelledHere ? { cause: signal.reason } : {}),
  });
}

function callError(error: unknown, signal: AbortSignal | undefined): StatusError {
  if (error instanceof StatusError) return error;
  if (isServiceError(error)) {
    const cancelledHere = error.code === status.CANCELLED && signal?.aborted === true;
    return new StatusError(error.code, error.details, { metadata: error.metadata, cause: cancelledHere ? signal.reason : error });
  }
  return toStatusError(error);
}

function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === "number" && typeof (error as Partial<ServiceError>).details === "string";
}
