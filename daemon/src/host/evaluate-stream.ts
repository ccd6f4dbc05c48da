// HookHost.Evaluate: many evaluate calls of any point over one bidi stream, multiplexed by
// request id. Each request runs through its point's unary RPC (EvaluateService.rpc: the same
// conversion, identity from the stream's metadata, admission and evaluation), so it is answered
// with what that RPC would answer, or with the status it would end with as a CallError. Owns the
// ids in flight, their deadlines and cancels; a protocol mistake is answered for its id and the
// stream goes on. A request that cannot be decoded at all ends the stream (its id is unknowable).
import { create } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import { EVALUATE_STREAM_REQUESTS, LazyAbort, StatusError, invalidArgument, pb, toStatusError } from "@hookd/sdk/internal";
import type { EvaluateStreamCase, Requests, ServerStreamCall } from "@hookd/sdk/internal";
import type { EvaluateService } from "./evaluate.js";
import type { StreamTracker } from "./stream-tracker.js";

export interface EvaluateStreamDeps {
  readonly evaluate: EvaluateService;
  /** A drain ends the stream with UNAVAILABLE, abandoning its requests in flight. */
  readonly streams: StreamTracker;
}

type EvaluateCall = ServerStreamCall<typeof pb.HookHost.method.evaluate>;
type Reply = pb.EvaluateResponse["reply"];

/** Answers waiting to be handed to the stream before the next frame is read. */
const MAX_UNSENT = 64;

interface Inflight {
  readonly cancellation: LazyAbort;
  timer: NodeJS.Timeout | undefined;
}

export async function serveEvaluate(deps: EvaluateStreamDeps, requests: Requests<pb.EvaluateRequest>, call: EvaluateCall): Promise<void> {
  const stream = new EvaluateStream(deps.evaluate, call);
  // Each frame is taken as it is decoded (no promise per frame); a drain stops the reading.
  let ended: StatusError | undefined;
  const untrack = deps.streams.track((error) => {
    ended = error;
    requests.stop();
  });
  try {
    await requests.listen((frame) => {
      stream.receive(frame);
      // A client that sends without reading would have its answers pile up here: past a bound,
      // the next frame is read only once they are on their way.
      const backlog = stream.backlog();
      if (backlog !== undefined) {
        requests.pause();
        void backlog.then(() => requests.resume());
      }
    });
  } catch (error) {
    // The client went away (its cancel reads as the end of the requests), or sent bytes that are
    // no EvaluateRequest: the requests in flight are abandoned.
    stream.abandon(call.cancellation.aborted ? call.cancellation.reason : toStatusError(error));
    if (call.cancellation.aborted) return;
    throw error;
  } finally {
    untrack();
  }
  if (ended !== undefined) {
    // As a hosted-loop stream: a drain ends it at once with the retryable status, and the requests
    // in flight are abandoned (the agent retries them on its next stream). Answers written once
    // grpc-js has begun closing the connection would hold the status back until the grace ends.
    stream.abandon(ended);
    throw ended;
  }
  // Half-closed by the client: what is in flight is still answered.
  await stream.settled();
}

class EvaluateStream {
  readonly #evaluate: EvaluateService;
  readonly #call: EvaluateCall;
  readonly #inflight = new Map<bigint, Inflight>();
  /** Evaluations still running, answered or not (one abandoned by its deadline still holds its admission slot). */
  #running = 0;
  #idle: (() => void) | undefined;
  #sending: Promise<void> = Promise.resolve();
  #unsent = 0;
  readonly #unlink: () => void;

  constructor(evaluate: EvaluateService, call: EvaluateCall) {
    this.#evaluate = evaluate;
    this.#call = call;
    // The client gone: every request in flight is cancelled, as its unary call would be.
    this.#unlink = call.cancellation.onAbort(() => this.abandon(call.cancellation.reason));
  }

  receive(frame: pb.EvaluateRequest): void {
    const id = frame.requestId;
    const request = frame.request;
    if (request.case === undefined) {
      // A request of a point newer than this daemon arrives as an unknown field: as a unary call
      // to a method the daemon lacks, it is UNIMPLEMENTED.
      const unknown = frame.$unknown?.find((field) => field.no > 10);
      const error = unknown === undefined ? invalidArgument("request", "required: one evaluate request or cancel") : new StatusError(status.UNIMPLEMENTED, `request: field ${unknown.no} is no evaluate request this daemon knows`);
      this.#send(id, errorReply(error));
      return;
    }
    if (request.case === "cancel") {
      this.#cancel(id);
      return;
    }
    const route = EVALUATE_STREAM_REQUESTS.get(request.case);
    if (route === undefined) {
      this.#send(id, errorReply(new StatusError(status.UNIMPLEMENTED, `request: ${request.case} is not an evaluate request this daemon knows`)));
      return;
    }
    if (this.#inflight.has(id)) {
      this.#send(id, errorReply(invalidArgument("request_id", `${id} is already in flight on this stream`)));
      return;
    }
    this.#start(id, route, request.value, frame.deadlineMs);
  }

  /** Aborts every request in flight with `reason` and answers none of them (nobody is listening, or the stream fails). */
  abandon(reason: unknown): void {
    this.#unlink();
    const entries = [...this.#inflight.values()];
    this.#inflight.clear();
    for (const entry of entries) {
      clearTimeout(entry.timer);
      entry.cancellation.abort(reason);
    }
  }

  /** Resolves once no evaluation runs and every answer is handed to the stream. */
  async settled(): Promise<void> {
    if (this.#running > 0) await new Promise<void>((resolve) => (this.#idle = resolve));
    this.#unlink();
    await this.#sending;
  }

  #start(id: bigint, route: EvaluateStreamCase, request: { readonly event?: unknown }, deadlineMs: number): void {
    const entry: Inflight = { cancellation: new LazyAbort(), timer: undefined };
    this.#inflight.set(id, entry);
    // As a unary call's deadline: the point's signal aborts with a TimeoutError and the caller
    // hears DEADLINE_EXCEEDED; the plugins' own budgets still apply within it.
    if (deadlineMs > 0) {
      entry.timer = setTimeout(() => {
        if (!this.#settle(id, entry, errorReply(new StatusError(status.DEADLINE_EXCEEDED, `deadline_ms: the request's deadline of ${deadlineMs} ms passed`)))) return;
        entry.cancellation.abort(new DOMException("the call's deadline passed", "TimeoutError"));
      }, deadlineMs);
    }
    this.#running++;
    this.#evaluate
      .rpc(route.point)(request, { metadata: this.#call.metadata, cancellation: entry.cancellation })
      .then(
        (fields) => this.#settle(id, entry, { case: route.response, value: create(route.responseSchema, fields) } as Reply),
        (error: unknown) => this.#settle(id, entry, errorReply(toStatusError(error))),
      )
      .finally(() => {
        if (--this.#running === 0) this.#idle?.();
      })
      .catch(() => {});
  }

  /** A cancel frame: the request's signal aborts as a unary call's does when its client cancels. An id not in flight (answered already) is no mistake. */
  #cancel(id: bigint): void {
    const entry = this.#inflight.get(id);
    if (entry === undefined) return;
    this.#settle(id, entry, errorReply(new StatusError(status.CANCELLED, "the client cancelled the request")));
    entry.cancellation.abort(new DOMException("the client cancelled the call", "AbortError"));
  }

  /** Answers `id` if `entry` is still the request in flight under it; false when it was answered already. */
  #settle(id: bigint, entry: Inflight, reply: Reply): boolean {
    if (this.#inflight.get(id) !== entry) return false;
    this.#inflight.delete(id);
    clearTimeout(entry.timer);
    this.#send(id, reply);
    return true;
  }

  /** Resolves at once, or once the answers not yet handed to the stream are back under the bound. */
  backlog(): Promise<void> | undefined {
    return this.#unsent < MAX_UNSENT ? undefined : this.#sending;
  }

  /** Answers go out one after another; once the stream is over they are dropped. */
  #send(requestId: bigint, reply: Reply): void {
    this.#unsent++;
    this.#sending = this.#sending
      .then(() => this.#call.send({ requestId, reply }))
      .catch(() => {})
      .finally(() => this.#unsent--);
  }
}

function errorReply(error: StatusError): Reply {
  return { case: "error", value: create(pb.CallErrorSchema, { code: error.code, message: error.details }) };
}
