// writeMessage: the write that honours backpressure, with either kind of cancellation.
import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { LazyAbort } from "../src/internal.js";
import { CountingAbort } from "./support/counting-abort.js";
import { writeMessage } from "../src/grpc/streams.js";

/** An object stream whose buffer holds one message; `release` completes the pending write. */
function slowStream(): { stream: Writable; release: () => void } {
  let pending: (() => void) | undefined;
  const stream = new Writable({
    objectMode: true,
    highWaterMark: 1,
    write(_chunk, _encoding, callback) {
      pending = () => callback();
    },
  });
  return { stream, release: () => pending?.() };
}

describe("writeMessage", () => {
  test("resolves at once while the buffer has room, and on drain when it is full", async () => {
    const { stream, release } = slowStream();
    let written = false;
    const write = writeMessage(stream, "first", new AbortController().signal).then(() => (written = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toBe(false);
    release();
    await write;
    expect(written).toBe(true);
  });

  test("a write waiting for drain rejects with the reason when a lazy cancellation aborts, without making its signal", async () => {
    const { stream } = slowStream();
    const cancellation = new CountingAbort();
    const write = writeMessage(stream, "first", cancellation);
    const reason = new Error("the client went away");
    cancellation.abort(reason);
    await expect(write).rejects.toBe(reason);
    expect(cancellation.reads).toBe(0);
    expect(stream.listenerCount("drain")).toBe(0);
  });

  test("rejects at once for an aborted cancellation, and when the stream closes before draining", async () => {
    const aborted = new LazyAbort();
    aborted.abort(new Error("gone"));
    await expect(writeMessage(slowStream().stream, "x", aborted)).rejects.toThrow("gone");
    const { stream } = slowStream();
    const write = writeMessage(stream, "first", new LazyAbort());
    stream.destroy();
    await expect(write).rejects.toThrow("the stream closed before the message was sent");
  });
});
