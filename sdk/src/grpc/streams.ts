// An async-iterator view of grpc-js's object streams, shared by the server and client sides: a
// reader that leaves the stream alone when the loop breaks. Writing goes through a WriteQueue
// (write-queue.ts). Owns no call state; callers decide what ending a call means.
import type { Readable } from "node:stream";

/**
 * Iterates a stream's messages. Unlike `for await (… of stream)`, breaking out of the loop does
 * not destroy the stream: grpc-js streams are ended by cancelling or ending the call, which the
 * caller does in its own `finally`.
 */
export function readMessages(stream: Readable): AsyncIterable<unknown> {
  return { [Symbol.asyncIterator]: () => stream.iterator({ destroyOnReturn: false }) as AsyncIterator<unknown> };
}
