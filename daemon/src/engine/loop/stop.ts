// The turn-stopping decision, in one place for the hosted loop and the evaluate API: notify every
// listener, merge the steerers (all messages, in listener order, each re-sourced to its plugin),
// apply the continuation cap, and report it (record and trace). Knows nothing of queues: the caller acts on the result.
import type { AgentMessage, TurnStoppingEvent, UserNotice } from "@hookd/sdk";
import type { ListenerError } from "../faults.js";
import { decide } from "../decide.js";
import type { Decided, PointEnv } from "../decide.js";
import { DEFAULT_DECIDER } from "../runners/outcome.js";
import type { Traced } from "../verdict.js";
import { LISTENER_ERROR, elapsedUs, recordDecision, traced } from "../verdict.js";
import { copyMessage } from "./messages.js";

export interface TurnStopOptions {
  /** Steered continuations a turn may have (LoopLimits.maxSteeredContinuations). */
  readonly maxSteeredContinuations: number;
  /**
   * Steering already waiting for the turn (an agent's steer() during the last step). It continues
   * the turn like a plugin's steering, and counts against the same cap. 0 for evaluate calls.
   */
  readonly pendingSteering?: number;
}

export type TurnStop =
  /** Nobody steered: the turn closes as completed. `cause`: a plugin that failed was counted as passing (the first). */
  | { readonly kind: "close"; readonly cause?: string }
  /** Continue the same turn; `messages` (possibly empty when only pending steering continues it) join the steering queue. */
  | { readonly kind: "steer"; readonly messages: readonly AgentMessage[]; readonly steeredBy: readonly string[] }
  /** Steering was refused: the turn already had the maximum of steered continuations. */
  | { readonly kind: "capped"; readonly refused: readonly AgentMessage[]; readonly steeredBy: readonly string[]; readonly detail: string }
  /** A listener threw: the turn ends with reason "error". The first error in listener order. */
  | { readonly kind: "error"; readonly error: ListenerError };

/**
 * Pure merge of the listeners' answers. Messages keep their content; their source becomes the
 * plugin that steered and their id is left for the session to assign.
 */
export function settleTurnStop(outcome: Decided<"turn-stopping">, event: TurnStoppingEvent, options: TurnStopOptions): TurnStop {
  const [error] = outcome.errors;
  if (error !== undefined) return { kind: "error", error };
  const messages: AgentMessage[] = [];
  const steeredBy: string[] = [];
  for (const { plugin, decision } of outcome.answers) {
    if (decision.messages.length === 0) continue;
    steeredBy.push(plugin);
    for (const message of decision.messages) {
      messages.push(copyMessage(message, { id: "", role: "user", source: { kind: "plugin", name: plugin } }));
    }
  }
  const pending = options.pendingSteering ?? 0;
  if (messages.length === 0 && pending === 0) {
    const cause = outcome.fault?.fault;
    return cause === undefined ? { kind: "close" } : { kind: "close", cause };
  }
  if (event.steeredContinuations >= options.maxSteeredContinuations) {
    const who = [...steeredBy, ...(pending > 0 ? [`${pending} queued steering message(s)`] : [])].join(", ");
    const detail =
      `turn ${event.turn} already had ${event.steeredContinuations} steered continuation(s), the cap ` +
      `(maxSteeredContinuations = ${options.maxSteeredContinuations}); refused steering from ${who}`;
    return { kind: "capped", refused: messages, steeredBy, detail };
  }
  return { kind: "steer", messages, steeredBy };
}

/**
 * Fires turn-stopping and decides. Records the merged decision on the bus (decision "steer",
 * "pass", "capped" or "error"), and gives it with the trace that reports it. Rejects only when
 * env.signal aborts.
 */
export async function decideTurnStop(env: PointEnv, event: TurnStoppingEvent, options: TurnStopOptions): Promise<Traced<TurnStop & { readonly notice?: UserNotice }>> {
  const started = performance.now();
  const outcome = await decide(env, "turn-stopping", event);
  const stop = settleTurnStop(outcome, event, options);
  const decidedBy = stop.kind === "error" ? stop.error.details.plugin : stop.kind === "close" ? DEFAULT_DECIDER : stop.steeredBy.join(",") || "queued-steering";
  const reason = stop.kind === "error" ? stop.error.message : stop.kind === "capped" ? stop.detail : undefined;
  const cause = stop.kind === "close" ? stop.cause : undefined;
  const durationUs = elapsedUs(started);
  recordDecision(env, "turn-stopping", stop.kind === "close" ? "pass" : stop.kind, decidedBy, durationUs, reason, cause, undefined, undefined, outcome.notice);
  // What the plugins said to the user stands whatever the merge decided.
  return traced(outcome.notice === undefined ? stop : { ...stop, notice: outcome.notice }, decidedBy, stop.kind === "error" ? LISTENER_ERROR : cause, durationUs);
}
