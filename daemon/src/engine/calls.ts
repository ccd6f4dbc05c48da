// The vocabulary the loop and the tool pipeline share about one step's tool calls: a call as the
// model proposed it, and what running a batch of them gives. Types only; the pipeline owns
// sealing and the phases, the loop owns when a batch runs and how its results are recorded.
import type { AgentMessage, DecisionTrace, ToolCall, ToolResult } from "@hookd/sdk";

/**
 * A tool call as the model proposed it, before the pipeline seals it. Give the arguments as a
 * value or as JSON text, not both: sealing refuses both (the call then fails, the turn goes on).
 */
export interface ProposedCall {
  /** The agent's own id for the call (e.g. the model's tool_use id); generated when absent or empty. */
  readonly callId?: string;
  readonly toolName: string;
  /** The arguments as a value; sealed losslessly. */
  readonly arguments?: unknown;
  /** The arguments as JSON text, sealed as is. */
  readonly argumentsJson?: string;
  /**
   * The boundary has just parsed `arguments` from the request's own JSON text and nobody else
   * holds them (the HTTP endpoint's body): they are sealed in place instead of copied.
   */
  readonly argumentsParsedHere?: true;
  /**
   * Set by the boundary that received the call when it refuses the arguments (the hosted loop
   * takes only a JSON object): sealing fails the call as invalid_arguments with this reason.
   */
  readonly refusedArguments?: string;
}

export interface ToolCallOutcome {
  /** The sealed call, as plugins, the log and the tool body saw it. */
  readonly call: ToolCall;
  /** The authoritative final result, frozen. */
  readonly result: ToolResult;
  /** Who decided whether the call could run; absent when nothing decided (a seal failure, a cancellation). */
  readonly trace?: DecisionTrace;
}

export interface ToolBatchOutcome {
  /** One per proposed call, in model order. */
  readonly calls: readonly ToolCallOutcome[];
  /**
   * The batch's contexts (post-call contexts, deferred nested contexts) in FIFO order. This list
   * is authoritative: the loop does not read `ToolResult.contexts` again.
   */
  readonly contexts: readonly AgentMessage[];
}
