// Requests the daemon sent to an agent and awaits a reply for (run a step, dispatch a call, ask
// for approval), keyed by request id. A reply for an id that is not pending is the agent's
// mistake, reported to it; detaching rejects everything still waiting.
import { HookdError } from "@hookd/sdk";

interface Waiter<T> {
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
  readonly kind: string;
}

export class PendingRequests {
  #next = 0;
  // Made on the first request: most sessions are idle most of the time (memory per session, bench/README.md).
  #waiting: Map<string, Waiter<unknown>> | undefined;

  /** Registers a request; the promise settles on its reply, on abort, or when rejectAll() runs. */
  open<T>(kind: string, signal: AbortSignal): { readonly id: string; readonly reply: Promise<T> } {
    const id = `${kind}-${++this.#next}`;
    const waiting = (this.#waiting ??= new Map<string, Waiter<unknown>>());
    const reply = new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        waiting.delete(id);
        reject(asError(signal.reason));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      const done = (): void => {
        signal.removeEventListener("abort", onAbort);
        waiting.delete(id);
      };
      waiting.set(id, {
        kind,
        resolve: (value) => {
          done();
          resolve(value as T);
        },
        reject: (error) => {
          done();
          reject(asError(error));
        },
      });
    });
    return { id, reply };
  }

  /** Settles a request with the agent's reply; false when no such request of that kind is pending. */
  settle(id: string, kind: string, value: unknown): boolean {
    const waiter = this.#waiting?.get(id);
    if (waiter === undefined || waiter.kind !== kind) return false;
    waiter.resolve(value);
    return true;
  }

  rejectAll(reason: string): void {
    for (const waiter of [...(this.#waiting?.values() ?? [])]) waiter.reject(new HookdError("cancelled", reason));
  }

  get size(): number {
    return this.#waiting?.size ?? 0;
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new HookdError("cancelled", String(reason));
}
