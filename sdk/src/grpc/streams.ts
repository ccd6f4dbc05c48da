// Promise and async-iterator views of grpc-js's object streams, shared by the server and client
// sides: a write that honours backpressure and a cancellation, and a reader that leaves the stream
// alone when the loop breaks. Owns no call state; callers decide what ending a call means.
import type { Readable, Writable } from "node:stream";
import { whenAborted } from "../lazy-abort.js";
import type { Cancellation } from "../lazy-abort.js";

/**
 * Writes one message; resolves at once, or when the stream drains if its buffer is full.
 * Rejects with the cancellation's reason once it aborts, and when the stream closes or fails
 * first, because grpc-js destroys a cancelled call's stream and "drain" would never come.
 */
export async function writeMessage(stream: Writable, message: unknown, cancellation: Cancellation): Promise<void> {
  cancellation.throwIfAborted();
  if (stream.write(message)) return;
  await new Promise<void>((resolve, reject) => {
    let unlink = (): void => {};
    const settle = (error?: unknown): void => {
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      stream.off("error", onError);
      unlink();
      if (error === undefined) resolve();
      else reject(error instanceof Error ? error : new Error("the write was aborted", { cause: error }));
    };
    const onDrain = (): void => settle();
    const onClose = (): void => settle(cancellation.aborted ? cancellation.reason : new Error("the stream closed before the message was sent"));
    const onError = (error: unknown): void => settle(cancellation.aborted ? cancellation.reason : error);
    stream.on("drain", onDrain);
    stream.on("close", onClose);
    stream.on("error", onError);
    // A lazy cancellation is followed without making its AbortSignal.
    unlink = whenAborted(cancellation, () => settle(cancellation.reason));
  });
}

/**
 * Iterates a stream's messages. Unlike `for await (… of stream)`, breaking out of the loop does
 * not destroy the stream: grpc-js streams are ended by cancelling or ending the call, which the
 * caller does in its own `finally`.
 */
export function readMessages(stream: Readable): AsyncIterable<unknown> {
  return { [Symbol.asyncIterator]: () => stream.iterator({ destroyOnReturn: false }) as AsyncIterator<unknown> };
}
