// One HookPlugin.Attach stream: every call to the plugin multiplexed over it by call id, at most
// `window` in flight, answered in any order. The daemon's own timer enforces each call's deadline
// (the plugin is sent what is left and a cancel frame once the daemon stops waiting). Calls beyond
// the window wait in order for a free slot; their deadline runs while they wait, so a plugin that
// keeps its window full fails the waiting calls as deadline_exceeded under their failure policy.
// An answer for an id never sent, or one answered before, is refused, counted and logged; the
// stream stays open. A stream that ends fails its in-flight calls as "unavailable"; calls not yet
// sent, and every call when the plugin has no Attach at all (UNIMPLEMENTED before any answer), go
// to the unary RPC instead (`fallback`), since the plugin never saw them.
import { Metadata, status } from "@grpc/grpc-js";
import type { Channel, StatusObject } from "@grpc/grpc-js";
import { fromProtoPoint, statusName, whenAborted } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import type { PointName } from "@hookd/sdk";
import type { EventOf } from "../../engine/listener.js";
import type { Logger } from "../../log.js";
import { RPCS, answerOf, cancelled, encodeRequest, isRpcFailure, rpcFailure, statusFailure } from "./answers.js";
import type { RpcFailure } from "./answers.js";
import { ATTACH_FIELD_OFFSET, callFrame, cancelFrame, openFrame, readAnswer } from "./attach-wire.js";
import type { AnswerFrame } from "./attach-wire.js";

const ATTACH_PATH = "/hookd.v1.HookPlugin/Attach";

/** The same call over unary, with the time it has left. */
export type UnaryFallback = (deadlineMs: number) => Promise<unknown>;

export interface AttachStreamOptions {
  readonly channel: Channel;
  readonly target: string;
  readonly daemonVersion: string;
  readonly pluginName: string;
  readonly window: number;
  readonly log: Logger;
  /** An answer was refused (unknown id, answered twice, undecodable frame). */
  readonly refused: (detail: string) => void;
  /** The stream is over: `unimplemented` when the plugin has no Attach. Called once. */
  readonly ended: (end: { readonly unimplemented: boolean; readonly detail: string; readonly answered: boolean }) => void;
}

interface Pending {
  readonly id: number;
  readonly point: PointName;
  readonly started: number;
  readonly deadlineMs: number;
  readonly signal: Cancellation;
  readonly request: Buffer;
  /** The call's W3C traceparent when tracing is on (AttachCall.traceparent). */
  readonly traceparent: string | undefined;
  readonly fallback: UnaryFallback;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (failure: RpcFailure) => void;
  timer: NodeJS.Timeout | undefined;
  unlink: (() => void) | undefined;
  sent: boolean;
}

/** Ids the daemon gave up on; the plugin may still answer them once, which is no mistake of its. */
const CANCELLED_REMEMBERED = 4096;

export class AttachStream {
  readonly #options: AttachStreamOptions;
  readonly #call: ReturnType<Channel["createCall"]>;
  readonly #pending = new Map<number, Pending>();
  readonly #queue: Pending[] = [];
  readonly #cancelled = new Set<number>();
  readonly #writes: Buffer[] = [];
  #writing = false;
  #inFlight = 0;
  #lastId = 0;
  #answered = false;
  #over = false;

  constructor(options: AttachStreamOptions) {
    this.#options = options;
    this.#call = options.channel.createCall(ATTACH_PATH, Infinity, null, null, null);
    this.#call.start(new Metadata(), {
      onReceiveMetadata: () => {},
      onReceiveMessage: (message: Buffer) => {
        this.#call.startRead();
        this.#received(message);
      },
      onReceiveStatus: (final: StatusObject) => this.#end(final),
    });
    this.#call.startRead();
    this.#write(openFrame({ daemonVersion: options.daemonVersion, pluginName: options.pluginName, window: options.window }));
  }

  /** Over: calls must go elsewhere. */
  get over(): boolean {
    return this.#over;
  }

  /** Resolves with the typed answer (not yet validated); rejects with an RpcFailure only. */
  call<P extends PointName>(point: P, event: EventOf<P>, deadlineMs: number, signal: Cancellation, fallback: UnaryFallback, traceparent?: string): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(cancelled(signal, 0, deadlineMs));
        return;
      }
      let request: Buffer;
      try {
        request = encodeRequest(point, RPCS[point], event);
      } catch (error) {
        reject(rpcFailure("error_status", `the event could not be encoded: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
      const id = ++this.#lastId;
      const entry: Pending = {
        id,
        point,
        started: performance.now(),
        deadlineMs,
        signal,
        request,
        traceparent,
        fallback,
        resolve,
        reject,
        timer: undefined,
        unlink: undefined,
        sent: false,
      };
      entry.timer = setTimeout(() => this.#expire(entry), deadlineMs);
      entry.unlink = whenAborted(signal, () => this.#settle(entry, cancelled(signal, performance.now() - entry.started, deadlineMs), true));
      this.#pending.set(id, entry);
      if (this.#inFlight < this.#options.window) this.#send(entry);
      else this.#queue.push(entry);
    });
  }

  /** Ends the stream; calls on it fail as its end says (the channel closing fails them as unavailable). */
  close(detail: string): void {
    if (!this.#over) this.#call.cancelWithStatus(status.CANCELLED, detail);
  }

  /** The frame carries what is left of the deadline: a call that waited for a slot has less. */
  #send(entry: Pending): void {
    entry.sent = true;
    this.#inFlight++;
    const left = entry.deadlineMs - (performance.now() - entry.started);
    this.#write(callFrame(entry.id, Math.max(1, left), RPCS[entry.point].field, entry.request, entry.traceparent));
  }

  #expire(entry: Pending): void {
    const waited = entry.sent ? "" : ` (it waited for one of the stream's ${this.#options.window} call slots)`;
    this.#settle(entry, rpcFailure("deadline_exceeded", `no answer within ${entry.deadlineMs} ms on the Attach stream${waited}`), true);
  }

  /** Takes the call off the stream; `cancel` tells the plugin it need not answer. */
  #take(entry: Pending, cancel: boolean): boolean {
    if (this.#pending.get(entry.id) !== entry) return false;
    this.#pending.delete(entry.id);
    clearTimeout(entry.timer);
    entry.unlink?.();
    if (!entry.sent) {
      const at = this.#queue.indexOf(entry);
      if (at >= 0) this.#queue.splice(at, 1);
      return true;
    }
    this.#inFlight--;
    if (cancel && !this.#over) {
      this.#remember(entry.id);
      this.#write(cancelFrame(entry.id));
    }
    this.#pump();
    return true;
  }

  #settle(entry: Pending, outcome: RpcFailure | { readonly answer: unknown }, cancel = false): void {
    if (!this.#take(entry, cancel)) return;
    if (isRpcFailure(outcome)) entry.reject(outcome);
    else entry.resolve(outcome.answer);
  }

  #pump(): void {
    while (this.#inFlight < this.#options.window && !this.#over) {
      const next = this.#queue.shift();
      if (next === undefined) return;
      this.#send(next);
    }
  }

  #remember(id: number): void {
    this.#cancelled.add(id);
    if (this.#cancelled.size > CANCELLED_REMEMBERED) {
      const oldest = this.#cancelled.values().next();
      if (oldest.done !== true) this.#cancelled.delete(oldest.value);
    }
  }

  #received(message: Buffer): void {
    this.#answered = true;
    let frame: AnswerFrame;
    try {
      frame = readAnswer(message);
    } catch (error) {
      this.#refuse(`an answer frame that does not decode (${message.length} bytes): ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    const entry = this.#pending.get(frame.callId);
    if (entry === undefined || !entry.sent) {
      if (this.#cancelled.delete(frame.callId)) return; // a late answer to a call the daemon cancelled
      const why = frame.callId > this.#lastId || frame.callId === 0 || entry !== undefined ? "an id never sent" : "an id already answered";
      this.#refuse(`an answer for call ${frame.callId}: ${why}`);
      return;
    }
    this.#settle(entry, outcomeOf(entry.point, frame.reply, this.#options.target, performance.now() - entry.started, entry.deadlineMs));
  }

  #refuse(detail: string): void {
    this.#options.log.warn("Attach answer refused", { detail });
    this.#options.refused(detail);
  }

  #write(frame: Buffer): void {
    if (this.#writing) {
      this.#writes.push(frame);
      return;
    }
    // grpc-js keeps one message per call in flight below its stream API: the next waits for this one.
    this.#writing = true;
    this.#call.sendMessageWithContext(
      {
        callback: () => {
          this.#writing = false;
          const next = this.#writes.shift();
          if (next !== undefined && !this.#over) this.#write(next);
        },
      },
      frame,
    );
  }

  #end(final: StatusObject): void {
    if (this.#over) return;
    this.#over = true;
    this.#writes.length = 0;
    const unimplemented = final.code === status.UNIMPLEMENTED && !this.#answered;
    const detail = `${statusName(final.code)}: ${final.details}`;
    const entries = [...this.#pending.values()];
    this.#pending.clear();
    this.#queue.length = 0;
    this.#inFlight = 0;
    for (const entry of entries) {
      clearTimeout(entry.timer);
      entry.unlink?.();
      if (unimplemented || !entry.sent) this.#reroute(entry);
      else entry.reject(rpcFailure("unavailable", `cannot reach ${this.#options.target} (the Attach stream ended with the call in flight: ${detail})`));
    }
    this.#options.ended({ unimplemented, detail, answered: this.#answered });
  }

  /** The plugin never saw the call: the unary RPC gets it, with the time it has left. */
  #reroute(entry: Pending): void {
    const left = entry.deadlineMs - (performance.now() - entry.started);
    if (left <= 0) {
      entry.reject(rpcFailure("deadline_exceeded", `no answer within ${entry.deadlineMs} ms`));
      return;
    }
    entry.fallback(left).then(entry.resolve, (error: unknown) => entry.reject(isRpcFailure(error) ? error : rpcFailure("error_status", String(error))));
  }
}

/** An answer frame's reply as the unary RPC's outcome would be for the same call. */
function outcomeOf(point: PointName, reply: AnswerFrame["reply"], target: string, elapsedMs: number, deadlineMs: number): RpcFailure | { readonly answer: unknown } {
  const rpc = RPCS[point];
  switch (reply.kind) {
    case "error":
      if (reply.code === Number(status.OK)) return rpcFailure("invalid_answer", "the plugin answered a CallError with code OK");
      return statusFailure({ code: reply.code, details: reply.message, metadata: new Metadata() }, deadlineMs, target, elapsedMs);
    case "none":
      return rpcFailure("invalid_answer", "the answer frame carries no reply");
    case "response": {
      const expected = ATTACH_FIELD_OFFSET + rpc.field;
      if (reply.field !== expected) {
        const other = fromProtoPoint(reply.field - ATTACH_FIELD_OFFSET);
        if (!other.ok) return rpcFailure("invalid_answer", `the answer frame's reply is field ${reply.field}, which is no point's response`);
        return rpcFailure("wrong_point", `the ${point} call was answered with the response of ${other.value} (field ${reply.field}, expected ${expected})`);
      }
      try {
        return { answer: answerOf(point, rpc, Buffer.from(reply.bytes.buffer, reply.bytes.byteOffset, reply.bytes.byteLength)) };
      } catch (failure) {
        return isRpcFailure(failure) ? failure : rpcFailure("invalid_answer", String(failure));
      }
    }
    default: {
      const unknownReply: never = reply;
      return rpcFailure("invalid_answer", `unknown reply ${String(unknownReply)}`);
    }
  }
}
