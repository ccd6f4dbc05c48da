// WriteQueue: one stream's writes in order behind one wait for "drain", on a real object stream
// whose buffer holds one message; what waits is rejected when the stream closes or fails, or the
// cancellation (either kind) aborts, and the stream is ended only after the last message.
import { Writable } from "node:stream";
import { describe, expect, test } from "vitest";
import { LazyAbort } from "../src/internal.js";
import { CountingAbort } from "./support/counting-abort.js";
import { WriteQueue } from "../src/grpc/write-queue.js";

/** An object stream whose buffer holds one message; `release` completes the write in progress. */
function slowStream(): { stream: Writable; written: unknown[]; release: () => void } {
  let pending: (() => void) | undefined;
  const written: unknown[] = [];
  const stream = new Writable({
    objectMode: true,
    highWaterMark: 1,
    write(chunk, _encoding, callback) {
      written.push(chunk);
      pending = () => callback();
    },
  });
  return {
    stream,
    written,
    release: () => {
      const complete = pending;
      pending = undefined;
      complete?.();
    },
  };
}

/** Lets settled promises run their reactions. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("WriteQueue", () => {
  test("hands messages over in the order written, each writer resolved as its message is handed, behind one drain listener", async () => {
    const { stream, written, release } = slowStream();
    const queue = new WriteQueue(stream, new LazyAbort());
    let mostDrainListeners = 0;
    stream.on("newListener", (event: string | symbol) => {
      if (event === "drain") mostDrainListeners = Math.max(mostDrainListeners, stream.listenerCount("drain") + 1);
    });
    const resolved: string[] = [];
    const messages = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];
    const writes = messages.map((message) => queue.write(message).then(() => void resolved.push(message)));
    await turn();
    // "a" filled the buffer: it is handed over, the rest wait.
    expect({ written, resolved }).toEqual({ written: ["a"], resolved: ["a"] });
    for (let handed = 2; handed <= messages.length; handed++) {
      release();
      await turn();
      expect(resolved).toEqual(messages.slice(0, handed));
    }
    await Promise.all(writes);
    expect(written).toEqual(messages);
    expect(mostDrainListeners).toBe(1);
    expect(stream.listenerCount("drain")).toBe(0);
    expect(stream.listenerCount("close")).toBe(0);
  });

  test("the stream closing while messages wait rejects them and every later write; no listener is left behind", async () => {
    const { stream, written } = slowStream();
    const queue = new WriteQueue(stream, new LazyAbort());
    const first = queue.write("a");
    const waiting = [queue.write("b"), queue.write("c")];
    const settled = queue.settled();
    stream.destroy();
    await expect(first).resolves.toBeUndefined();
    for (const write of waiting) await expect(write).rejects.toThrow("the stream closed before the message was sent");
    await settled;
    await expect(queue.write("d")).rejects.toThrow("the stream closed before the message was sent");
    expect(written).toEqual(["a"]);
    expect(["drain", "close", "error"].map((event) => stream.listenerCount(event))).toEqual([0, 0, 0]);
  });

  test("the stream failing while messages wait rejects them with its error", async () => {
    const { stream, written } = slowStream();
    const queue = new WriteQueue(stream, new LazyAbort());
    void queue.write("a");
    const waiting = [queue.write("b"), queue.write("c")];
    const failure = new Error("the connection reset");
    stream.destroy(failure);
    for (const write of waiting) await expect(write).rejects.toBe(failure);
    await expect(queue.write("d")).rejects.toBe(failure);
    expect(written).toEqual(["a"]);
  });

  test("a lazy cancellation aborting while messages wait rejects them with its reason, without making its signal", async () => {
    const { stream } = slowStream();
    const cancellation = new CountingAbort();
    const queue = new WriteQueue(stream, cancellation);
    void queue.write("a");
    const waiting = [queue.write("b"), queue.write("c")];
    const reason = new Error("the client went away");
    cancellation.abort(reason);
    for (const write of waiting) await expect(write).rejects.toBe(reason);
    expect(cancellation.reads).toBe(0);
    expect(stream.listenerCount("drain")).toBe(0);
  });

  test("refuses at once when the cancellation has aborted or the stream is gone", async () => {
    const aborted = new AbortController();
    aborted.abort(new Error("gone"));
    await expect(new WriteQueue(slowStream().stream, aborted.signal).write("x")).rejects.toThrow("gone");
    const { stream } = slowStream();
    stream.destroy();
    await expect(new WriteQueue(stream, new LazyAbort()).write("x")).rejects.toThrow("the stream closed before the message was sent");
  });

  test("end() ends the stream after the messages still waiting, and refuses writes after it", async () => {
    const { stream, written, release } = slowStream();
    const queue = new WriteQueue(stream, new LazyAbort());
    void queue.write("a");
    const last = queue.write("b");
    queue.end();
    await expect(queue.write("c")).rejects.toThrow("the stream was ended: no message can follow");
    expect(stream.writableEnded).toBe(false);
    release();
    await last;
    expect(stream.writableEnded).toBe(true);
    expect(written).toEqual(["a", "b"]);
  });
});
