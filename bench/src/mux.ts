// Calls multiplexed over one bidi stream by a 64-bit id, as HookHost.Evaluate and
// HookPlugin.Attach carry them: each expected id gets the one frame that answers it, in whatever
// order frames arrive. When the stream ends or fails, every call still waiting fails with the
// stream's error. A frame for an id nobody waits for is counted, never dropped silently.
import { status } from "@grpc/grpc-js";
import { StatusError } from "@hookd/sdk/internal";

interface Waiter<R> {
  resolve(frame: R): void;
  reject(error: Error): void;
}

export class Mux<R> {
  readonly #waiting = new Map<bigint, Waiter<R>>();
  #next = 0n;
  #ended: Error | undefined;
  /** Frames whose id no call waited for. */
  strays = 0;

  constructor(frames: AsyncIterable<R>, idOf: (frame: R) => bigint) {
    void (async () => {
      try {
        for await (const frame of frames) {
          const id = idOf(frame);
          const waiter = this.#waiting.get(id);
          if (waiter === undefined) {
            this.strays++;
            continue;
          }
          this.#waiting.delete(id);
          waiter.resolve(frame);
        }
        this.#end(new StatusError(status.UNAVAILABLE, "the stream ended"));
      } catch (error) {
        this.#end(error instanceof Error ? error : new Error(String(error)));
      }
    })();
  }

  /** A fresh id and the promise of its answer; fails at once when the stream is over. */
  open(): { id: bigint; answer: Promise<R> } {
    const id = ++this.#next;
    const answer = new Promise<R>((resolve, reject) => {
      if (this.#ended !== undefined) reject(this.#ended);
      else this.#waiting.set(id, { resolve, reject });
    });
    return { id, answer };
  }

  /** The call `id` will not be answered (its send failed): it fails with `error`. */
  fail(id: bigint, error: Error): void {
    const waiter = this.#waiting.get(id);
    this.#waiting.delete(id);
    waiter?.reject(error);
  }

  get ended(): Error | undefined {
    return this.#ended;
  }

  #end(error: Error): void {
    this.#ended = error;
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }
}
