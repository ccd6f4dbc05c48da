// The agent client's side of HookHost.Evaluate: every evaluate call over one bidi stream, opened
// on the first call, each request under its own id with its deadline (deadline_ms) and a cancel
// frame when its signal aborts. A stream that breaks fails its calls in flight with UNAVAILABLE
// (INVALID_ARGUMENT when the daemon could not read a frame) and the next call opens a new one; a daemon without the stream (UNIMPLEMENTED) is reported to
// the caller, which then goes unary. Owns the stream and its ids; knows nothing of points' codecs.
import { create } from "@bufbuild/protobuf";
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import type { BidiCall, TypedClient } from "../grpc/client.js";
import { StatusError, statusName, toStatusError } from "../grpc/status.js";
import type * as pb from "../proto.js";
import type { EvaluateStreamCase } from "./stream-cases.js";

type HostStub = TypedClient<typeof pb.HookHost>;
type Stream = BidiCall<typeof pb.HookHost.method.evaluate>;

export interface StreamCallOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeoutMs?: number | undefined;
}

interface Pending {
  readonly route: EvaluateStreamCase;
  readonly request: Readonly<Record<string, unknown>>;
  readonly options: StreamCallOptions;
  /** performance.now() when the call was made, for the time a re-sent call has left. */
  readonly started: number;
  readonly resolve: (message: Message) => void;
  readonly reject: (error: StatusError) => void;
  /** Takes back the call's timer and signal listener. */
  readonly done: () => void;
}

/** A stream with no call in flight is half-closed after this long: an open stream keeps the process alive. */
const IDLE_MS = 2000;
const MAX_DEADLINE_MS = 0xffff_ffff;

/** One open stream and the calls in flight on it. */
class OpenStream {
  readonly pending = new Map<bigint, Pending>();
  /** True once the daemon answered anything: an UNIMPLEMENTED after that is no missing method. */
  answered = false;
  idle: NodeJS.Timeout | undefined;

  constructor(readonly call: Stream) {}

  /**
   * Frames go out in order through the call's write queue, which holds one wait for the stream
   * to drain however many frames wait. A failed send means the stream is over; its reader fails
   * the calls in flight.
   */
  send(frame: Parameters<Stream["send"]>[0]): void {
    this.call.send(frame).catch(() => {});
  }
}

export class EvaluateStreamClient {
  readonly #stub: HostStub;
  readonly #metadata: Readonly<Record<string, string>>;
  readonly #unimplemented: (calls: readonly StreamedCall[], error: StatusError) => void;
  #open: OpenStream | undefined;
  #nextId = 1n;

  /** `unimplemented` gets the calls in flight when the daemon has no Evaluate stream; it settles each. */
  constructor(stub: HostStub, metadata: Readonly<Record<string, string>>, unimplemented: (calls: readonly StreamedCall[], error: StatusError) => void) {
    this.#stub = stub;
    this.#metadata = metadata;
    this.#unimplemented = unimplemented;
  }

  /** Sends `request` (the point's EvaluateXRequest fields) and resolves with the point's response message. */
  call(route: EvaluateStreamCase, request: Readonly<Record<string, unknown>>, options: StreamCallOptions): Promise<Message> {
    return new Promise<Message>((resolve, reject) => {
      const { signal, timeoutMs } = options;
      if (signal?.aborted === true) {
        reject(new StatusError(status.CANCELLED, "the call was cancelled before it started", { cause: signal.reason }));
        return;
      }
      let value: Message;
      try {
        value = create(route.requestSchema, request as Parameters<typeof create<DescMessage>>[1]);
      } catch (error) {
        reject(toStatusError(error));
        return;
      }
      const stream = this.#stream();
      const id = this.#nextId++;
      let timer: NodeJS.Timeout | undefined;
      // A deadline is the daemon's to enforce too: it aborts the plugins' signal with a TimeoutError,
      // so no cancel frame is sent for it (which would read as the agent's cancel).
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => this.#fail(stream, id, new StatusError(status.DEADLINE_EXCEEDED, `the call's deadline of ${timeoutMs} ms passed`)), Math.max(0, timeoutMs));
      }
      const onAbort = (): void => {
        if (!this.#fail(stream, id, new StatusError(status.CANCELLED, "the call was cancelled", { cause: signal?.reason }))) return;
        stream.send({ requestId: id, request: { case: "cancel", value: {} } });
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
      };
      stream.pending.set(id, { route, request, options, started: performance.now(), resolve, reject, done });
      clearTimeout(stream.idle);
      const deadlineMs = timeoutMs === undefined ? 0 : Math.min(MAX_DEADLINE_MS, Math.max(1, Math.ceil(timeoutMs)));
      stream.send({ requestId: id, deadlineMs, request: { case: route.request, value } as pb.EvaluateRequest["request"] });
    });
  }

  /** Ends the stream (calls in flight get UNAVAILABLE from the closed channel). */
  close(): void {
    const open = this.#open;
    this.#open = undefined;
    if (open === undefined) return;
    clearTimeout(open.idle);
    open.call.cancel();
  }

  #stream(): OpenStream {
    if (this.#open !== undefined) return this.#open;
    const open = new OpenStream(this.#stub.evaluate({ metadata: this.#metadata }));
    this.#open = open;
    void this.#read(open);
    return open;
  }

  async #read(open: OpenStream): Promise<void> {
    let failure: StatusError | undefined;
    try {
      for await (const response of open.call.responses) {
        open.answered = true;
        this.#answer(open, response);
      }
    } catch (error) {
      failure = toStatusError(error);
    }
    if (this.#open === open) this.#open = undefined;
    clearTimeout(open.idle);
    const calls = [...open.pending.values()];
    open.pending.clear();
    for (const call of calls) call.done();
    if (failure?.code === status.UNIMPLEMENTED && !open.answered) {
      this.#unimplemented(calls, failure);
      return;
    }
    // A frame the daemon could not read (over its size limit) ends the stream with
    // INVALID_ARGUMENT, its id unknowable: retrying the same calls would fail the same way.
    const code = failure?.code === status.INVALID_ARGUMENT ? status.INVALID_ARGUMENT : status.UNAVAILABLE;
    const broken = new StatusError(
      code,
      failure === undefined ? "the Evaluate stream ended before answering" : `the Evaluate stream broke: ${statusName(failure.code)}: ${failure.details}`,
      failure === undefined ? {} : { cause: failure },
    );
    for (const call of calls) call.reject(broken);
  }

  #answer(open: OpenStream, response: pb.EvaluateResponse): void {
    const call = open.pending.get(response.requestId);
    if (call === undefined) return; // given up here already (deadline, cancel)
    open.pending.delete(response.requestId);
    call.done();
    this.#idleAfter(open);
    const { reply } = response;
    if (reply.case === "error") call.reject(new StatusError(reply.value.code, reply.value.message));
    else if (reply.case === call.route.response) call.resolve(reply.value);
    else call.reject(new StatusError(status.INTERNAL, `Evaluate: request ${response.requestId} (${call.route.point}) was answered with ${reply.case ?? "nothing"}`));
  }

  /** Settles a call here without waiting for the daemon; false when it was settled already. */
  #fail(open: OpenStream, id: bigint, error: StatusError): boolean {
    const call = open.pending.get(id);
    if (call === undefined) return false;
    open.pending.delete(id);
    call.done();
    this.#idleAfter(open);
    call.reject(error);
    return true;
  }

  #idleAfter(open: OpenStream): void {
    if (open.pending.size > 0 || this.#open !== open) return;
    clearTimeout(open.idle);
    open.idle = setTimeout(() => {
      if (open.pending.size > 0) return;
      if (this.#open === open) this.#open = undefined;
      open.call.end();
    }, IDLE_MS);
  }
}

/** A call the stream could not carry, for the caller to send another way. */
export type StreamedCall = Pick<Pending, "route" | "request" | "options" | "started" | "resolve" | "reject">;
