// The session inbox: where a sourced message waits until the loop claims it. Follow-ups each wait
// for their own turn (one send, one turn); steering and injections wait for the next step's
// batch; an injection made while a tool batch runs joins that batch's context FIFO instead.
// Owns the queues and the claim order; knows nothing of plugins, steps or history.
import type { AgentMessage } from "@hookd/sdk";
import type { TurnOutcome } from "./types.js";

export interface FollowUp {
  readonly message: AgentMessage;
  /** Settles the promise the caller of followUp() holds. */
  readonly settle: (outcome: TurnOutcome) => void;
}

type Pending = { readonly kind: "steer" | "inject"; readonly message: AgentMessage };

export class Inbox {
  readonly #followUps: FollowUp[] = [];
  /** Steering and injections for the next step, in arrival order. */
  #nextStep: Pending[] = [];
  /**
   * Open while a tool batch runs: injections and each committed call's contexts, in arrival
   * order (the seed's one FIFO); `handedOver` counts the contexts the runner already gave.
   */
  #batch: { readonly fifo: AgentMessage[]; handedOver: number } | undefined;

  followUp(entry: FollowUp): void {
    this.#followUps.push(entry);
  }

  steer(message: AgentMessage): void {
    this.#nextStep.push({ kind: "steer", message });
  }

  inject(message: AgentMessage): void {
    if (this.#batch !== undefined) this.#batch.fifo.push(message);
    else this.#nextStep.push({ kind: "inject", message });
  }

  hasFollowUp(): boolean {
    return this.#followUps.length > 0;
  }

  /** Steering waiting for the next step: at a natural stop, any of it continues the turn. */
  steeringPending(): number {
    return this.#nextStep.filter((entry) => entry.kind === "steer").length;
  }

  get pending(): { readonly followUps: number; readonly steering: number; readonly injections: number } {
    const steering = this.steeringPending();
    return { followUps: this.#followUps.length, steering, injections: this.#nextStep.length - steering };
  }

  /**
   * Claims a turn's first batch: one follow-up, the sole direct prompt of its turn, after the
   * steering and injections already waiting (context first, the request last). Everything
   * claimed is removed; nothing is ever re-queued.
   */
  claimTurn(): { readonly followUp: FollowUp; readonly messages: readonly AgentMessage[] } | undefined {
    const followUp = this.#followUps.shift();
    if (followUp === undefined) return undefined;
    return { followUp, messages: [...this.drainStep(), followUp.message] };
  }

  /** Claims the next step's batch: all waiting steering and injections, in arrival order. */
  drainStep(): AgentMessage[] {
    const drained = this.#nextStep.map((entry) => entry.message);
    this.#nextStep = [];
    return drained;
  }

  /** A tool batch starts: injections go to its FIFO until it settles. */
  openBatch(): void {
    this.#batch = { fifo: [], handedOver: 0 };
  }

  /**
   * A call of the running batch committed: its contexts join the FIFO now, after whatever
   * arrived before (an injection made while it executed comes first).
   */
  commitContexts(contexts: readonly AgentMessage[]): void {
    if (this.#batch === undefined) return;
    this.#batch.fifo.push(...contexts);
    this.#batch.handedOver += contexts.length;
  }

  /**
   * The batch settled: its FIFO in arrival order. `pipelineContexts` is the batch's whole ordered
   * list; the part not already handed over through commitContexts (a runner that does not report
   * commits) arrives now, last.
   */
  settleBatch(pipelineContexts: readonly AgentMessage[]): AgentMessage[] {
    const batch = this.#batch ?? { fifo: [], handedOver: 0 };
    this.#batch = undefined;
    return [...batch.fifo, ...pipelineContexts.slice(batch.handedOver)];
  }

  /** Removes every waiting follow-up (the session is closing). */
  dropFollowUps(): FollowUp[] {
    return this.#followUps.splice(0);
  }
}
