// The wire under one hosted session: its current Session stream, the heartbeats the agent owes
// an idle stream, and the reconnect-and-resume when the stream breaks. Behind a proxy a broken
// stream arrives with any status (INTERNAL from an RST_STREAM, UNAVAILABLE, CANCELLED, even OK),
// so every status is retried with backoff except the ones a new stream cannot change: the
// session is gone (NOT_FOUND) or the caller is refused. The session (session.ts) reads frames and
// breaks from `events()` and never sees heartbeats.
import { status } from "@grpc/grpc-js";
import type { BidiCall } from "../grpc/client.js";
import type { MethodsOf } from "../grpc/definition.js";
import { StatusError, toStatusError } from "../grpc/status.js";
import type * as pb from "../proto.js";
import type { RequestFrame } from "./frames.js";
import type { ReconnectOptions } from "./types.js";

export type SessionCall = BidiCall<MethodsOf<typeof pb.HookHost>["session"]>;
type Responses = AsyncIterator<pb.SessionResponse>;

export type LinkEvent =
  | { readonly kind: "frame"; readonly frame: pb.SessionResponse }
  /** The stream broke; a new one is being opened (its requests in flight are lost). */
  | { readonly kind: "broken"; readonly error: StatusError }
  /** A new stream resumed the session: `opened` is its SessionOpened. */
  | { readonly kind: "resumed"; readonly opened: pb.SessionOpened; readonly attempts: number };

export const DEFAULT_RECONNECT: Required<ReconnectOptions> = Object.freeze({ maxAttempts: 5, initialBackoffMs: 100, maxBackoffMs: 5_000 });

/** Statuses a new stream cannot change. FAILED_PRECONDITION is retried: the daemon may not yet have seen the old stream go. */
const FINAL: ReadonlySet<number> = new Set([status.NOT_FOUND, status.UNAUTHENTICATED, status.PERMISSION_DENIED, status.INVALID_ARGUMENT, status.UNIMPLEMENTED]);

interface Held {
  readonly frame: RequestFrame;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

export class SessionLink {
  readonly #connect: () => SessionCall;
  readonly #resume: RequestFrame;
  readonly #policy: Required<ReconnectOptions>;
  readonly #sessionId: string;
  #call: SessionCall;
  /** Set once a SessionOpened arrived: only an opened session is resumed. */
  #opened = false;
  /** close() or detach(): no reconnect from here on. */
  #stopping = false;
  #reconnecting = false;
  #held: Held[] = [];
  #wakeBackoff: (() => void) | undefined;
  #lastSent = performance.now();
  #heartbeat: NodeJS.Timeout | undefined;
  #sequence = 0n;

  /** `connect` opens a fresh Session stream; `open` is sent on the first, `resume` on every later one. */
  constructor(connect: () => SessionCall, sessionId: string, open: RequestFrame, resume: RequestFrame, policy: Required<ReconnectOptions>) {
    this.#connect = connect;
    this.#sessionId = sessionId;
    this.#resume = resume;
    this.#policy = policy;
    this.#call = connect();
    this.#send(open).catch(() => {}); // a failed send means the stream is over; events() reports how
  }

  /** Sends on the current stream; while reconnecting, the frame waits for the resumed stream. */
  send(frame: RequestFrame): Promise<void> {
    if (!this.#reconnecting) return this.#send(frame);
    return new Promise<void>((resolve, reject) => this.#held.push({ frame, resolve, reject }));
  }

  /** Half-closes the current stream; the session will not be resumed. */
  end(): void {
    this.#stop(new StatusError(status.CANCELLED, `session ${this.#sessionId} was closed while reconnecting`));
    this.#call.end();
  }

  /** Cancels the current stream; the session will not be resumed. */
  cancel(): void {
    this.#stop(new StatusError(status.CANCELLED, `session ${this.#sessionId} was detached while reconnecting`));
    this.#call.cancel();
  }

  /** Frames of every stream in order, a `broken` between streams; returns the final status (undefined: a clean end). */
  async *events(): AsyncGenerator<LinkEvent, StatusError | undefined> {
    let responses: Responses = this.#call.responses[Symbol.asyncIterator]();
    for (;;) {
      const failure = yield* this.#drain(responses);
      const final = this.#stopping || !this.#opened || this.#policy.maxAttempts === 0 || (failure !== undefined && FINAL.has(failure.code));
      if (final) return this.#final(failure);
      this.#reconnecting = true;
      clearTimeout(this.#heartbeat);
      const lost = failure ?? new StatusError(status.UNAVAILABLE, `the daemon ended session ${this.#sessionId}'s stream`);
      yield { kind: "broken", error: lost };
      const resumed = await this.#reconnect(lost);
      if (resumed instanceof StatusError) return this.#final(resumed);
      responses = resumed.responses;
      yield { kind: "resumed", opened: resumed.opened, attempts: resumed.attempts };
    }
  }

  async *#drain(responses: Responses): AsyncGenerator<LinkEvent, StatusError | undefined> {
    try {
      for (;;) {
        const next = await responses.next();
        if (next.done === true) return undefined;
        const frame = next.value.frame;
        if (frame.case === "heartbeat") continue; // the daemon's keepalive: nothing to read
        if (frame.case === "opened") this.#onOpened(frame.value);
        yield { kind: "frame", frame: next.value };
      }
    } catch (error) {
      return toStatusError(error);
    }
  }

  /** Opens streams with backoff until one resumes the session, a final status, or the attempts run out. */
  async #reconnect(lost: StatusError): Promise<{ responses: Responses; opened: pb.SessionOpened; attempts: number } | StatusError> {
    let last = lost;
    for (let attempt = 1; attempt <= this.#policy.maxAttempts; attempt++) {
      await this.#backoff(attempt);
      if (this.#stopping) return last;
      try {
        this.#call = this.#connect();
      } catch (error) {
        return toStatusError(error); // the client was closed
      }
      this.#send(this.#resume).catch(() => {});
      const responses = this.#call.responses[Symbol.asyncIterator]();
      try {
        let next = await responses.next();
        while (next.done !== true && next.value.frame.case === "heartbeat") next = await responses.next();
        if (next.done === true) {
          last = new StatusError(status.UNAVAILABLE, `the stream resuming session ${this.#sessionId} ended before SessionOpened`);
          continue;
        }
        const frame = next.value.frame;
        if (frame.case !== "opened" || !frame.value.resumed) {
          this.#call.cancel();
          // An older daemon opens an unknown session afresh: that is no resume of this one.
          return new StatusError(status.NOT_FOUND, `session ${this.#sessionId} was not resumed: the daemon answered the resume with ${frame.case === "opened" ? "a fresh session" : `a ${frame.case ?? "empty"} frame`}`);
        }
        this.#onOpened(frame.value);
        this.#reconnecting = false;
        for (const held of this.#held.splice(0)) this.#send(held.frame).then(held.resolve, held.reject);
        return { responses, opened: frame.value, attempts: attempt };
      } catch (error) {
        last = toStatusError(error);
        if (FINAL.has(last.code)) return last;
      }
    }
    return new StatusError(last.code, `session ${this.#sessionId} could not be resumed in ${this.#policy.maxAttempts} attempts: ${last.message}`, { cause: last });
  }

  /** Exponential, with full jitter so that the agents of one failed instance do not return in step. */
  #backoff(attempt: number): Promise<void> {
    const ceiling = Math.min(this.#policy.maxBackoffMs, this.#policy.initialBackoffMs * 2 ** (attempt - 1));
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, delay);
      this.#wakeBackoff = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  #onOpened(opened: pb.SessionOpened): void {
    this.#opened = true;
    this.#startHeartbeats(opened.heartbeatIntervalMs);
  }

  /** The daemon announced how often an idle stream needs a frame: send a Heartbeat when nothing else went. */
  #startHeartbeats(intervalMs: number): void {
    clearTimeout(this.#heartbeat);
    if (intervalMs <= 0) return;
    const beat = (): void => {
      const idle = performance.now() - this.#lastSent;
      if (idle >= intervalMs) {
        this.#sequence += 1n;
        this.#send({ frame: { case: "heartbeat", value: { sequence: this.#sequence } } }).catch(() => {});
      }
      this.#heartbeat = setTimeout(beat, idle >= intervalMs ? intervalMs : intervalMs - idle);
      this.#heartbeat.unref(); // heartbeats alone do not keep the agent's process alive
    };
    this.#heartbeat = setTimeout(beat, intervalMs);
    this.#heartbeat.unref();
  }

  #send(frame: RequestFrame): Promise<void> {
    this.#lastSent = performance.now();
    return this.#call.send(frame);
  }

  #stop(error: StatusError): void {
    this.#stopping = true;
    this.#wakeBackoff?.();
    for (const held of this.#held.splice(0)) held.reject(error);
  }

  #final(error: StatusError | undefined): StatusError | undefined {
    this.#stopping = true;
    this.#reconnecting = false;
    clearTimeout(this.#heartbeat);
    for (const held of this.#held.splice(0)) held.reject(error ?? new StatusError(status.UNAVAILABLE, `session ${this.#sessionId}'s stream is over`));
    return error;
  }
}
