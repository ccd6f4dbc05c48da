// The loop's contracts with the outside: the model callback, the narrow interface it needs from
// tool execution (the pipeline in engine/pipeline implements it; the integrator wires it in), the
// limits, and what a finished turn reports. Types and defaults only; no behaviour.
import { HookdError } from "@hookd/sdk";
import type { AgentMessage, SessionInfo, TurnEndOutcome } from "@hookd/sdk";
import type { ProposedCall, ToolBatchOutcome } from "../calls.js";

export type { ProposedCall, ToolBatchOutcome };


export interface StepInput {
  readonly turn: number;
  readonly step: number;
  /** The entered batch of this step (after the step's plugins), already recorded in `history`. */
  readonly messages: readonly AgentMessage[];
  /** The whole session history so far, frozen, ending with `messages`. */
  readonly history: readonly AgentMessage[];
  /** Aborted when the turn is cancelled; the loop stops waiting for the step at that moment. */
  readonly signal: AbortSignal;
}

export interface StepReply {
  /** The model's message; recorded with role assistant and source model. */
  readonly assistant: AgentMessage;
  /** Proposed calls in model order; none means the model reached its natural stop. */
  readonly toolCalls: readonly ProposedCall[];
}

/** One model step. A rejection ends the turn with reason "error" and the error's message. */
export type ModelStep = (input: StepInput) => Promise<StepReply>;

export interface ToolBatchContext {
  readonly session: SessionInfo;
  readonly turn: number;
  readonly step: number;
  /** The turn's signal. The runner must settle promptly once it aborts. */
  readonly signal: AbortSignal;
  /**
   * Hands over one call's contexts as that call commits, in model order: they join the batch's
   * FIFO then, after the injections that arrived earlier. The outcome's `contexts` still lists
   * every context of the batch in order; what was not handed over is appended after the rest.
   */
  readonly commitContexts: (contexts: readonly AgentMessage[]) => void;
}


/**
 * What the loop needs from tool execution: run a whole batch, settle it, report every result.
 * On cancellation it should still resolve with a (cancelled) result per sealed call; if it
 * rejects instead, the loop records a failure result for every call it did not report.
 */
export type ToolBatchRunner = (calls: readonly ProposedCall[], ctx: ToolBatchContext) => Promise<ToolBatchOutcome>;

export interface LoopLimits {
  /**
   * Steered continuations one turn may have. At a stop where steering would continue the turn
   * this many times already, the turn ends with reason "continuation_cap" instead.
   */
  readonly maxSteeredContinuations: number;
  /**
   * Steps one turn may open. A turn that would open one more (typically a model that keeps
   * calling tools) ends with reason "error" and a detail naming the cap, so a tool loop cannot
   * run forever. Whatever is still queued stays queued.
   */
  readonly maxStepsPerTurn: number;
  /** Total milliseconds all sequential plugins of one point may take; absent: unbudgeted. */
  readonly pointBudgetMs?: number;
  /**
   * Total milliseconds session-end may take when the session ends (also the bound of the turn-end
   * of a turn the end cut short), so a hanging observer cannot hold a close or a daemon stop.
   * Absent: the point budget.
   */
  readonly sessionEndBudgetMs?: number;
}

export const DEFAULT_LIMITS: LoopLimits = Object.freeze({ maxSteeredContinuations: 8, maxStepsPerTurn: 64 });

/** Fills in defaults and checks the values; throws HookdError("invalid_argument") naming the field. */
export function resolveLimits(limits: Partial<LoopLimits> = {}): LoopLimits {
  const resolved = { ...DEFAULT_LIMITS, ...limits };
  const check = (field: keyof LoopLimits, value: number | undefined, min: number): void => {
    if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
      throw new HookdError("invalid_argument", `limits.${field}: expected an integer >= ${min}, got ${String(value)}`);
    }
  };
  check("maxSteeredContinuations", resolved.maxSteeredContinuations, 0);
  check("maxStepsPerTurn", resolved.maxStepsPerTurn, 1);
  check("pointBudgetMs", resolved.pointBudgetMs, 1);
  check("sessionEndBudgetMs", resolved.sessionEndBudgetMs, 1);
  return Object.freeze(resolved);
}

/** How a turn ended: also the turn-ended event's payload. */
export interface TurnOutcome {
  /** The turn's number; 0 for a follow-up that never ran (the session closed first). */
  readonly turn: number;
  readonly reason: TurnEndOutcome;
  /**
   * The reject reason, the error text, the cancel reason or the cap. "" when completed normally
   * (a note when the step's plugins entered an empty first batch and no step ran).
   */
  readonly detail: string;
  /** Steps the turn opened. */
  readonly steps: number;
}
