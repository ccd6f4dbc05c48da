// A hosted session over its Session streams: reads the daemon's frames in order, runs the agent's
// handlers for its requests (concurrently, each answered with its request_id), settles follow-ups
// as their turns end and reports events. How a handler's outcome becomes a reply lives in
// handlers.ts, follow-up and turn bookkeeping in turns.ts, frame conversion in frames.ts, the
// stream itself (heartbeats, reconnect-and-resume) in session-link.ts.
import { status } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import { StatusError } from "../grpc/status.js";
import type * as pb from "../proto.js";
import type { RequestFrame } from "./frames.js";
import { closeFrame, promptFrame, readContext, readOpened, readToolResultNotice, readTurnEnded } from "./frames.js";
import { answerApproval, answerDispatch, answerFinalize, answerStep, untilDeadline } from "./handlers.js";
import type { Finalizers } from "./handlers.js";
import { messageOf } from "./results.js";
import type { SessionLink } from "./session-link.js";
import { TurnLedger } from "./turns.js";
import type { AgentHandlers, CloseReason, HostedSession, PromptContent, SessionEvent, SessionOpenedInfo, SessionProblem, TurnEnd } from "./types.js";

type State = "open" | "closing" | "detached" | "over";

export class Session implements HostedSession {
  readonly sessionId: string;
  readonly opened: Promise<SessionOpenedInfo>;
  readonly ended: Promise<StatusError | undefined>;
  readonly #link: SessionLink;
  readonly #handlers: AgentHandlers;
  readonly #finalizers: Finalizers;
  readonly #ledger = new TurnLedger();
  readonly #tasks = new Set<Promise<void>>();
  readonly #problems: SessionProblem[] = [];
  #state: State = "open";
  /** Counts the streams: a handler's reply to a request of a broken stream is dropped. */
  #generation = 0;
  #open!: { resolve: (info: SessionOpenedInfo) => void; reject: (error: Error) => void; done: boolean };

  /** `link` has sent the open frame on a fresh Session stream. */
  constructor(link: SessionLink, sessionId: string, handlers: AgentHandlers, finalizers: Finalizers = new Map()) {
    this.sessionId = sessionId;
    this.#link = link;
    this.#handlers = handlers;
    this.#finalizers = finalizers;
    this.opened = new Promise<SessionOpenedInfo>((resolve, reject) => (this.#open = { resolve, reject, done: false }));
    this.opened.catch(() => {}); // read through `ended` or a follow-up when nobody awaits it
    this.ended = this.#read();
  }

  get problems(): readonly SessionProblem[] {
    return [...this.#problems];
  }

  followUp(content: PromptContent): Promise<TurnEnd> {
    return new Promise<TurnEnd>((resolve, reject) => {
      const frame = promptFrame("followUp", content);
      this.#assertOpen("followUp");
      this.#ledger.queue({ resolve, reject });
      this.#sendQuietly(frame); // a failed send means the stream is over; #read settles the follow-up
    });
  }

  async steer(content: PromptContent): Promise<void> {
    const frame = promptFrame("steer", content);
    this.#assertOpen("steer");
    await this.#link.send(frame);
  }

  async inject(content: PromptContent): Promise<void> {
    const frame = promptFrame("inject", content);
    this.#assertOpen("inject");
    await this.#link.send(frame);
  }

  async cancel(reason = "cancelled by the agent"): Promise<void> {
    this.#assertOpen("cancel");
    await this.#link.send({ frame: { case: "cancel", value: { reason } } });
  }

  async close(reason: CloseReason = "closed"): Promise<void> {
    if (this.#state === "open") {
      this.#state = "closing";
      try {
        await this.#link.send(closeFrame(reason));
      } catch {
        // the stream is already over; #read reports how
      }
      this.#link.end();
    }
    await this.ended;
  }

  async detach(): Promise<void> {
    if (this.#state === "open" || this.#state === "closing") {
      this.#state = "detached";
      this.#link.cancel();
    }
    await this.ended;
  }

  #assertOpen(what: string): void {
    if (this.#state !== "open") {
      throw new StatusError(status.FAILED_PRECONDITION, `${what}: session ${this.sessionId} is ${this.#state}`);
    }
  }

  #sendQuietly(frame: RequestFrame): void {
    this.#link.send(frame).catch(() => {});
  }

  // ---- reading -----------------------------------------------------------------------------

  async #read(): Promise<StatusError | undefined> {
    const events = this.#link.events();
    let failure: StatusError | undefined;
    for (let next = await events.next(); ; next = await events.next()) {
      if (next.done === true) {
        failure = next.value;
        break;
      }
      const event = next.value;
      if (event.kind === "frame") this.#onFrame(event.frame);
      else if (event.kind === "broken") this.#broken(event.error);
      else this.#emit({ type: "reconnected", opened: readOpened(event.opened), attempts: event.attempts });
    }
    const how = this.#state;
    this.#state = "over";
    if (how === "detached") failure = undefined; // our own cancel
    const pending = this.#ledger.finish(new HookdError("cancelled", "the session stream ended"));
    const why = how === "open" ? `the daemon ended session ${this.sessionId}'s stream` : `the agent ${how === "detached" ? "detached from" : "closed"} session ${this.sessionId}`;
    const lost = failure ?? new StatusError(how === "open" ? status.UNAVAILABLE : status.CANCELLED, why);
    this.#settleOpen(undefined, lost);
    for (const followUp of pending) {
      if (failure === undefined && how !== "open") {
        // The agent ended it: the turn is aborted, as the daemon does when an agent leaves.
        followUp.resolve(Object.freeze({ turn: followUp.turn ?? 0, reason: "cancelled", detail: `${why} before this turn ended`, steps: 0 }));
      } else {
        followUp.reject(lost);
      }
    }
    while (this.#tasks.size > 0) await Promise.allSettled([...this.#tasks]);
    return failure;
  }

  /** The stream broke and the link resumes on a new one: what was in flight on it is lost. */
  #broken(error: StatusError): void {
    this.#generation += 1;
    for (const followUp of this.#ledger.finish(error)) followUp.reject(error);
    this.#emit({ type: "disconnected", error });
  }

  #onFrame(message: pb.SessionResponse): void {
    const frame = message.frame;
    switch (frame.case) {
      case "opened":
        this.#settleOpen(readOpened(frame.value));
        return;
      case "turnStarted":
        if (!this.#ledger.started(frame.value.turn)) this.#problem(`turn ${frame.value.turn} started with no follow-up waiting`);
        this.#emit({ type: "turn-started", turn: frame.value.turn });
        return;
      case "stepRequest": {
        const request = frame.value;
        this.#run(request.turn, request.requestId, async (signal) => ({
          frame: { case: "stepReply", value: await answerStep(this.#handlers, request, signal, this.#report) },
        }));
        return;
      }
      case "dispatchRequest": {
        const request = frame.value;
        this.#run(request.call?.turn ?? 0, request.requestId, async (signal) => ({
          frame: { case: "dispatchReply", value: await answerDispatch(this.#handlers, request, signal, this.#report) },
        }));
        return;
      }
      case "approvalRequest": {
        const request = frame.value;
        this.#deadlined(request.call?.turn ?? 0, request.requestId, request.deadlineMs, "approval", async (signal) => ({
          frame: { case: "approvalReply", value: await answerApproval(this.#handlers, request, signal, this.#report) },
        }));
        return;
      }
      case "finalizeRequest": {
        const request = frame.value;
        this.#deadlined(request.call?.turn ?? 0, request.requestId, request.deadlineMs, "finalize", async (signal) => ({
          frame: { case: "finalizeReply", value: await answerFinalize(this.#finalizers, request, signal, this.#report) },
        }));
        return;
      }
      case "toolResult": {
        const read = readToolResultNotice(frame.value);
        if (read.ok) this.#emit({ type: "tool-result", ...read.value });
        else this.#problem(read.error.message);
        return;
      }
      case "context": {
        const read = readContext(frame.value);
        if (read.ok) this.#emit({ type: "context", messages: read.value });
        else this.#problem(read.error.message);
        return;
      }
      case "turnEnded": {
        const { end, problem } = readTurnEnded(frame.value);
        if (problem !== undefined) this.#problem(problem);
        const followUp = this.#ledger.ended(end);
        if (followUp === undefined) this.#problem(`turn ${end.turn} ended with no follow-up waiting`);
        this.#emit({ type: "turn-ended", end });
        followUp?.resolve(end);
        return;
      }
      case "problem": {
        const { code, message: text, requestId } = frame.value;
        this.#record({ origin: "daemon", code, message: text, ...(requestId === "" ? {} : { requestId }) });
        return;
      }
      case undefined:
        this.#problem("a frame with nothing set");
        return;
      default:
        this.#problem(`an unknown frame ${JSON.stringify((frame as { case: unknown }).case)}`);
    }
  }

  /** Resolves `opened` with `info`, or rejects it with `error` (the stream ended first). */
  #settleOpen(info: SessionOpenedInfo | undefined, error?: Error): void {
    if (this.#open.done) {
      if (info !== undefined) this.#problem("a second opened frame");
      return;
    }
    this.#open.done = true;
    if (info === undefined) {
      this.#open.reject(error ?? new StatusError(status.INTERNAL, "the session stream ended"));
      return;
    }
    this.#emit({ type: "opened", opened: info });
    this.#open.resolve(info);
  }

  // ---- requests ----------------------------------------------------------------------------

  /** Runs one handler under its turn's signal and sends its reply unless the turn or stream is over. */
  #run(
    turn: number,
    requestId: string,
    answer: (signal: AbortSignal, controller: AbortController) => Promise<RequestFrame>,
    stillWanted: () => boolean = () => true,
  ): void {
    const work = this.#ledger.begin(turn);
    const generation = this.#generation;
    const task = (async () => {
      try {
        const reply = await answer(work.signal, work.controller);
        if (this.#state === "over" || generation !== this.#generation || this.#ledger.isOver(turn) || !stillWanted()) return;
        this.#sendQuietly(reply);
      } catch (error) {
        this.#problem(`answering ${requestId}: ${messageOf(error)}`, requestId, "INTERNAL"); // a bug here: the answers are total
      } finally {
        work.done();
      }
    })();
    this.#tasks.add(task);
    void task.finally(() => this.#tasks.delete(task));
  }

  /** A request that also ends at its local deadline (approval, finalize): see untilDeadline. */
  #deadlined(turn: number, requestId: string, deadlineMs: number, what: string, answer: (signal: AbortSignal) => Promise<RequestFrame>): void {
    const { run, expired } = untilDeadline(deadlineMs, what, answer);
    this.#run(turn, requestId, run, () => !expired());
  }

  // ---- events and problems -----------------------------------------------------------------

  readonly #report = (message: string, requestId: string): void => this.#problem(message, requestId);

  /** Something this client could not use (INVALID_ARGUMENT), or its own bug (INTERNAL). */
  #problem(message: string, requestId?: string, code = "INVALID_ARGUMENT"): void {
    this.#record({ origin: "agent", code, message, ...(requestId === undefined || requestId === "" ? {} : { requestId }) });
  }

  #record(problem: SessionProblem): void {
    const frozen = Object.freeze(problem);
    this.#problems.push(frozen);
    this.#emit({ type: "problem", problem: frozen });
  }

  #emit(event: SessionEvent): void {
    try {
      this.#handlers.onEvent?.(event);
    } catch (error) {
      // Recorded without emitting again, so a throwing onEvent cannot loop.
      this.#problems.push(Object.freeze({ origin: "agent", code: "INTERNAL", message: `onEvent threw on ${event.type}: ${messageOf(error)}` }));
    }
  }
}
