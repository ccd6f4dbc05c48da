// The streams a server holds open, so that a graceful stop can end each of them with a retryable
// status. Owns only the set of enders; what ending means is each stream's own business.
import { status } from "@grpc/grpc-js";
import { StatusError } from "@hookd/sdk/internal";

/** Open streams; a graceful stop ends each with UNAVAILABLE so clients reconnect. */
export class StreamTracker {
  readonly #ends = new Set<(error: StatusError) => void>();

  track(end: (error: StatusError) => void): () => void {
    this.#ends.add(end);
    return () => this.#ends.delete(end);
  }

  get size(): number {
    return this.#ends.size;
  }

  endAll(message: string): void {
    for (const end of [...this.#ends]) end(new StatusError(status.UNAVAILABLE, message));
  }
}
