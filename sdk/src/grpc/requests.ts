// The requests of a bidi call as the server's handler sees them: iterated (`for await`), or handed
// to a listener as each one is decoded (`listen`). The listener costs no promise and no turn of
// the microtask queue per request, which on a stream that carries one decision per message is a
// share of the decision's cost; the iterator is the simpler contract for everything else. Owns
// how a malformed request, the client's half-close and its cancel read in both views.
import type { ServerDuplexStream } from "@grpc/grpc-js";
import type { Decoded } from "./definition.js";
import type { LazyAbort } from "../lazy-abort.js";
import { HookdError } from "../errors.js";
import type { StatusError } from "./status.js";
import { readMessages } from "./streams.js";

/** A bidi call's requests: iterate them or listen to them, one or the other, once. */
export interface Requests<T> extends AsyncIterable<T> {
  /**
   * Hands each request to `onRequest` as it is decoded, in order. Resolves when the client
   * half-closes or `stop` is called; rejects as the iteration would throw (a malformed request
   * with no `onInvalidRequest`, the client's cancel) and when `onRequest` throws, after which
   * nothing more is read.
   */
  listen(onRequest: (request: T) => void): Promise<void>;
  /** No request is handed over until `resume` (a listener's backpressure). */
  pause(): void;
  resume(): void;
  /** Ends `listen` now (resolved): the requests after it are not read. */
  stop(): void;
}

/** What the requests need of the call beyond its stream: its cancellation and the invalid-request hook. */
export interface RequestsContext {
  readonly cancellation: LazyAbort;
  readonly onInvalidRequest?: ((error: StatusError) => void) | undefined;
}

type Call<T> = ServerDuplexStream<Decoded<T>, Buffer>;

export class ServerRequests<T> implements Requests<T> {
  readonly #call: Call<T>;
  readonly #context: RequestsContext;
  #used: "iterated" | "listened" | undefined;
  #finish: ((error?: unknown) => void) | undefined;

  constructor(call: Call<T>, context: RequestsContext) {
    this.#call = call;
    this.#context = context;
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    this.#claim("iterated");
    return iterate(this.#call, this.#context);
  }

  listen(onRequest: (request: T) => void): Promise<void> {
    this.#claim("listened");
    const call = this.#call;
    return new Promise<void>((resolve, reject) => {
      const onData = (decoded: Decoded<T>): void => {
        if (!decoded.ok) {
          if (this.#context.onInvalidRequest === undefined) finish(decoded.error);
          else this.#context.onInvalidRequest(decoded.error);
          return;
        }
        try {
          onRequest(decoded.message);
        } catch (error) {
          finish(error);
        }
      };
      const onEnd = (): void => finish();
      // Destroyed before its end: the client cancelled (or the call failed); the cancel's reason says which.
      const onClose = (): void => finish(this.#context.cancellation.aborted ? this.#context.cancellation.reason : new Error("the stream closed before its end (premature close)"));
      const onError = (error: unknown): void => finish(this.#context.cancellation.aborted ? this.#context.cancellation.reason : error);
      const finish = (error?: unknown): void => {
        if (this.#finish === undefined) return;
        this.#finish = undefined;
        call.off("data", onData);
        call.off("end", onEnd);
        call.off("close", onClose);
        call.off("error", onError);
        call.pause();
        if (error === undefined) resolve();
        else reject(error instanceof Error ? error : new Error("the request stream failed", { cause: error }));
      };
      this.#finish = finish;
      call.on("end", onEnd);
      call.on("close", onClose);
      call.on("error", onError);
      call.on("data", onData);
      // A stream already over emits nothing more.
      if (call.readableEnded) finish();
      else if (call.destroyed) onClose();
    });
  }

  pause(): void {
    this.#call.pause();
  }

  resume(): void {
    if (this.#finish !== undefined) this.#call.resume();
  }

  stop(): void {
    this.#finish?.();
  }

  #claim(use: "iterated" | "listened"): void {
    if (this.#used !== undefined) throw new HookdError("internal", `a call's requests are read once: they were ${this.#used} already`);
    this.#used = use;
  }
}

async function* iterate<T>(call: Call<T>, context: RequestsContext): AsyncGenerator<T> {
  try {
    for await (const item of readMessages(call)) {
      const decoded = item as Decoded<T>;
      if (!decoded.ok) {
        if (context.onInvalidRequest === undefined) throw decoded.error;
        context.onInvalidRequest(decoded.error);
        continue;
      }
      yield decoded.message;
    }
  } catch (error) {
    // A cancelled call's stream is destroyed, which reads as "premature close"; say why instead.
    if (context.cancellation.aborted) throw context.cancellation.reason;
    throw error;
  }
}
