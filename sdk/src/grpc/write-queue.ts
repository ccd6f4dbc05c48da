// One stream's writes, in order, behind at most one wait for "drain": a message is handed to the
// stream at once while it has room, otherwise it queues behind those already waiting. Owns the
// waiting messages and the listeners of that one wait, and ends the stream after the last of them.
import type { Writable } from "node:stream";
import { whenAborted } from "../lazy-abort.js";
import type { Cancellation } from "../lazy-abort.js";

interface Waiting {
  readonly message: unknown;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Every write to one stream goes through one queue: writers that each waited for "drain" on
 * their own would hold a listener each (Node warns past ten). Once the stream closes or fails, or
 * the cancellation aborts, the messages still waiting and every later write are rejected; nothing
 * waits on a stream that will never drain (grpc-js destroys a cancelled call's stream).
 */
export class WriteQueue {
  readonly #stream: Writable;
  readonly #cancellation: Cancellation;
  readonly #waiting: Waiting[] = [];
  readonly #settledWaiters: (() => void)[] = [];
  #over: Error | undefined;
  #ending = false;
  #unlisten: (() => void) | undefined;

  constructor(stream: Writable, cancellation: Cancellation) {
    this.#stream = stream;
    this.#cancellation = cancellation;
  }

  /**
   * Resolves once `message` is handed to the stream: at once while the stream has room and
   * nothing waits before it, otherwise when the stream has drained the messages before it.
   */
  write(message: unknown): Promise<void> {
    const refused = this.#refusal();
    if (refused !== undefined) return Promise.reject(refused);
    if (this.#waiting.length === 0 && !this.#stream.writableNeedDrain) {
      this.#stream.write(message);
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.#waiting.push({ message, resolve, reject });
      this.#listen();
    });
  }

  /** Ends the stream once every message waiting is handed to it; later writes are refused. */
  end(): void {
    if (this.#ending) return;
    this.#ending = true;
    if (this.#waiting.length === 0 && this.#over === undefined) this.#stream.end();
  }

  /** Resolves once no message waits: each was handed to the stream, or rejected with the stream. */
  settled(): Promise<void> {
    if (this.#waiting.length === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.#settledWaiters.push(resolve));
  }

  #refusal(): Error | undefined {
    if (this.#over !== undefined) return this.#over;
    if (this.#cancellation.aborted) return this.#fail(this.#cancellation.reason);
    if (this.#stream.destroyed) return this.#fail(new Error("the stream closed before the message was sent"));
    if (this.#ending || this.#stream.writableEnded) return new Error("the stream was ended: no message can follow");
    return undefined;
  }

  /** Hands messages over while the stream has room; one wait for "drain" holds the rest. */
  #flush(): void {
    while (this.#waiting.length > 0 && !this.#stream.writableNeedDrain) {
      const next = this.#waiting.shift() as Waiting;
      this.#stream.write(next.message);
      next.resolve();
    }
    if (this.#waiting.length > 0) return;
    this.#stopListening();
    if (this.#ending) this.#stream.end();
    this.#wakeSettled();
  }

  #listen(): void {
    if (this.#unlisten !== undefined) return;
    const stream = this.#stream;
    const onDrain = (): void => this.#flush();
    const onClose = (): void => void this.#fail(this.#cancellation.aborted ? this.#cancellation.reason : new Error("the stream closed before the message was sent"));
    const onError = (error: unknown): void => void this.#fail(this.#cancellation.aborted ? this.#cancellation.reason : error);
    stream.on("drain", onDrain);
    stream.on("close", onClose);
    stream.on("error", onError);
    // A lazy cancellation is followed without making its AbortSignal.
    const unlink = whenAborted(this.#cancellation, () => void this.#fail(this.#cancellation.reason));
    this.#unlisten = () => {
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      stream.off("error", onError);
      unlink();
    };
  }

  #stopListening(): void {
    this.#unlisten?.();
    this.#unlisten = undefined;
  }

  /** The stream is over for this queue: what waits is rejected, in order, and so is every later write. */
  #fail(reason: unknown): Error {
    const error = reason instanceof Error ? reason : new Error("the write was aborted", { cause: reason });
    this.#over ??= error;
    this.#stopListening();
    const waiting = this.#waiting.splice(0);
    for (const entry of waiting) entry.reject(this.#over);
    this.#wakeSettled();
    return this.#over;
  }

  #wakeSettled(): void {
    for (const wake of this.#settledWaiters.splice(0)) wake();
  }
}
