// One turn, step by step, under the seed's three loop decisions: pre-step runs before every
// proposed step (also an empty tool continuation) after the turn is open and the batch claimed;
// a settled tool batch appends its results, then its context FIFO; the turn continues after a
// natural stop only through steering. Owns step order, end reasons and the step cap; the queues,
// history and the merge at the natural stop live in their own modules.
import { HookdError, text, unreachable } from "@hookd/sdk";
import type { AgentMessage, ContentBlock, SessionInfo, TurnEndOutcome } from "@hookd/sdk";
import type { EventBus, EventScope } from "../events.js";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import type { History } from "./history.js";
import type { FollowUp, Inbox } from "./inbox.js";
import { copyMessage } from "./messages.js";
import type { MessageIds } from "./messages.js";
import { decideTurnStop } from "./stop.js";
import type { LoopLimits, ModelStep, ProposedCall, StepReply, ToolBatchOutcome, ToolBatchRunner, TurnOutcome } from "./types.js";

/** What a turn needs from its session. */
export interface TurnDeps {
  readonly info: SessionInfo;
  readonly ids: MessageIds;
  readonly inbox: Inbox;
  readonly history: History;
  readonly bus: EventBus;
  readonly limits: LoopLimits;
  readonly runStep: ModelStep;
  readonly runTools: ToolBatchRunner;
  /** A point environment for this scope; reads the current plugin registry on every call. */
  readonly env: (turn: number, step: number, signal: AbortSignal) => PointEnv;
}

/** What a failed model step or tool runner gives instead of a result: the turn ends with reason "error" and this detail. */
type StepFailure = string;

/** A finished turn, and the follow-up it claimed (the session settles it once the turn is cleared). */
export interface TurnRecord {
  readonly outcome: TurnOutcome;
  readonly followUp: FollowUp | undefined;
}

/**
 * Runs one turn to its end. Never rejects: every failure becomes an end reason. `signal` is the
 * turn's: cancel() and the session's end abort it.
 */
export async function runTurn(deps: TurnDeps, turn: number, signal: AbortSignal): Promise<TurnRecord> {
  const run = new TurnRun(deps, turn, signal);
  return run.run();
}

class TurnRun {
  #step = 0;
  #steered = 0;
  #lastAssistant: AgentMessage | undefined;

  constructor(
    private readonly deps: TurnDeps,
    private readonly turn: number,
    private readonly signal: AbortSignal,
  ) {}

  async run(): Promise<TurnRecord> {
    const { bus, inbox } = this.deps;
    // The turn is open before anything is claimed, so a rejection closes a recorded turn.
    bus.emit({ type: "turn-started", scope: this.#scope(0) });
    const claim = inbox.claimTurn();
    let outcome: TurnOutcome;
    try {
      if (claim === undefined) throw new HookdError("internal", "a turn started with no follow-up to claim");
      outcome = await this.#steps(claim.messages);
    } catch (error) {
      outcome = this.#failed(error);
    }
    bus.emit({ type: "turn-ended", scope: this.#scope(this.#step), reason: outcome.reason, detail: outcome.detail, steps: outcome.steps });
    return { outcome, followUp: claim?.followUp };
  }

  async #steps(firstBatch: readonly AgentMessage[]): Promise<TurnOutcome> {
    const { inbox, history, bus, limits, info } = this.deps;
    let claimed: readonly AgentMessage[] | undefined = firstBatch;
    for (;;) {
      this.signal.throwIfAborted();
      // Checked before draining, so what waits for the next step stays queued.
      if (this.#step >= limits.maxStepsPerTurn) {
        return this.#end("error", `step cap: turn ${this.turn} opened ${this.#step} steps, the cap (maxStepsPerTurn = ${limits.maxStepsPerTurn})`);
      }
      const proposed = this.#step + 1;
      const messages = Object.freeze([...(claimed ?? inbox.drainStep())]);
      claimed = undefined;

      const decided = await decide(this.#env(proposed), "pre-step", { session: info, turn: this.turn, step: proposed, messages });
      this.signal.throwIfAborted();
      if (decided.type === "error") return this.#end("error", decided.error.message);
      const decision = decided.decision;
      switch (decision.kind) {
        case "reject":
          // No step opens; the claimed messages stay consumed.
          return this.#end("blocked", decision.reason);
        case "enter":
          break;
        default:
          return unreachable(decision, "pre-step decision");
      }
      if (decision.messages.length === 0 && this.#step === 0) return this.#end("completed", "pre-step entered an empty batch; no step ran");

      this.#step = proposed;
      const entered = history.record(decision.messages);
      bus.emit({ type: "step-started", scope: this.#scope(this.#step), messages: entered });

      const reply = await this.#modelStep(entered);
      if (typeof reply === "string") return this.#end("error", reply);
      [this.#lastAssistant] = history.record([reply.assistant], { role: "assistant", source: { kind: "model" } });
      if (reply.toolCalls.length > 0) {
        const failed = await this.#toolBatch(reply.toolCalls);
        if (failed !== undefined) return this.#end("error", failed);
        continue; // a tool continuation: pre-step fires again, with an empty batch if nothing waits
      }

      const stop = await decideTurnStop(
        this.#env(this.#step),
        {
          session: info,
          turn: this.turn,
          step: this.#step,
          stopHookActive: this.#steered > 0,
          steeredContinuations: this.#steered,
          ...(this.#lastAssistant === undefined ? {} : { lastAssistantMessage: this.#lastAssistant }),
        },
        { maxSteeredContinuations: limits.maxSteeredContinuations, pendingSteering: inbox.steeringPending() },
      );
      this.signal.throwIfAborted();
      switch (stop.kind) {
        case "close":
          return this.#end("completed", "");
        case "error":
          return this.#end("error", stop.error.message);
        case "capped":
          return this.#end("continuation_cap", stop.detail);
        case "steer":
          // Next-step steering within the SAME turn: the next step's top-of-loop drain claims it.
          for (const message of stop.messages) inbox.steer(copyMessage(message, { id: this.deps.ids.next() }));
          this.#steered++;
          break;
        default:
          return unreachable(stop, "stop outcome");
      }
    }
  }

  /** The model's reply, or the failure's detail (a rejection after the turn's abort is rethrown). */
  async #modelStep(entered: readonly AgentMessage[]): Promise<StepReply | StepFailure> {
    const input = { turn: this.turn, step: this.#step, messages: entered, history: this.deps.history.snapshot(), signal: this.signal };
    let reply: StepReply;
    try {
      reply = await untilAborted(new Promise<StepReply>((resolve) => resolve(this.deps.runStep(input))), this.signal);
    } catch (error) {
      if (this.signal.aborted) throw error;
      return `model step ${this.#step} failed: ${HookdError.from(error).message}`;
    }
    if (typeof reply !== "object" || reply === null || typeof reply.assistant !== "object" || !Array.isArray(reply.toolCalls)) {
      return `model step ${this.#step} failed: the reply has no assistant message or toolCalls list`;
    }
    return reply;
  }

  /**
   * Runs the batch and appends, once it settles: every result in model order, then the batch's
   * context FIFO (injections and each call's contexts in the order they arrived or committed). Also when the runner failed or the turn was cancelled, so every proposed call
   * has a result and buffered contexts are appended before the turn closes. Resolves to the
   * runner's failure, if it failed.
   */
  async #toolBatch(calls: readonly ProposedCall[]): Promise<StepFailure | undefined> {
    const { inbox, history, bus, info } = this.deps;
    const ctx = {
      session: info,
      turn: this.turn,
      step: this.#step,
      signal: this.signal,
      commitContexts: (contexts: readonly AgentMessage[]) => inbox.commitContexts(contexts),
    };
    inbox.openBatch();
    let outcome: ToolBatchOutcome | undefined;
    let failure: unknown;
    try {
      outcome = await new Promise<ToolBatchOutcome>((resolve) => resolve(this.deps.runTools(Object.freeze([...calls]), ctx)));
      if (!Array.isArray(outcome.calls) || !Array.isArray(outcome.contexts)) {
        throw new HookdError("internal", "the tool runner returned no calls or contexts list");
      }
    } catch (error) {
      outcome = undefined;
      failure = error;
    }
    const contexts = inbox.settleBatch(outcome?.contexts ?? []);
    const results = outcome?.calls ?? [];
    const resultMessages = results.map(({ call, result }) => toolMessage(call.callId, result.content));
    if (results.length < calls.length) {
      const why = this.signal.aborted ? `the turn was aborted: ${reasonText(this.signal.reason)}` : `the tool runner failed: ${describe(failure)}`;
      for (const call of calls.slice(results.length)) {
        resultMessages.push(toolMessage(call.callId ?? "", [text(`Error: the tool call did not complete (${why})`)]));
      }
    }
    history.record(resultMessages);
    const appended = history.record(contexts);
    if (appended.length > 0) bus.emit({ type: "contexts-appended", scope: this.#scope(this.#step), messages: appended });
    this.signal.throwIfAborted();
    return failure === undefined ? undefined : `tool batch of step ${this.#step} failed: ${describe(failure)}`;
  }

  #failed(error: unknown): TurnOutcome {
    if (this.signal.aborted) return this.#end("cancelled", reasonText(this.signal.reason));
    return this.#end("error", `internal error in the loop: ${describe(error)}`);
  }

  #end(reason: TurnEndOutcome, detail: string): TurnOutcome {
    return Object.freeze({ turn: this.turn, reason, detail, steps: this.#step });
  }

  #env(step: number): PointEnv {
    return this.deps.env(this.turn, step, this.signal);
  }

  #scope(step: number): EventScope {
    return { sessionId: this.deps.info.sessionId, agentId: this.deps.info.agentId, turn: this.turn, step };
  }
}

function toolMessage(callId: string, content: readonly ContentBlock[]): AgentMessage {
  return { id: "", role: "user", content, source: { kind: "tool", callId } };
}

function describe(error: unknown): string {
  return HookdError.from(error, "internal").message;
}

/** The text of an abort reason: cancel(reason) aborts with a HookdError carrying it. */
export function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  if (typeof reason === "string") return reason;
  return reason === undefined ? "aborted" : HookdError.from(reason).message;
}

/** Settles with `promise`, or rejects with the signal's reason as soon as it aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort)).catch(() => {});
  });
}
