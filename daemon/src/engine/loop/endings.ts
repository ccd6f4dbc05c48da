// The two end notifications of a hosted session: turn-end after every turn that ran (how it ended,
// its steps) and session-end once the session is over (why, how many turns). Both are contained:
// a failing observer is logged and changes nothing. Their environment is the caller's: these
// points run after the turn's or the session's own signal was aborted, so they get a fresh one.
import type { SessionEndReason, SessionInfo } from "@hookd/sdk";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import type { TurnOutcome } from "./types.js";

type Log = (message: string) => void;

/** Fires turn-end for a turn that ran (turn >= 1). Never rejects. */
export async function notifyTurnEnd(env: PointEnv, session: SessionInfo, ended: TurnOutcome, log: Log): Promise<void> {
  const event = { session, turn: ended.turn, outcome: ended.reason, detail: ended.detail, steps: ended.steps };
  await contained(log, `session ${session.sessionId}: turn-end`, () => decide(env, "turn-end", event));
}

export async function notifySessionEnd(env: PointEnv, session: SessionInfo, reason: SessionEndReason, detail: string, turns: number, log: Log): Promise<void> {
  await contained(log, `session ${session.sessionId}: session-end`, () => decide(env, "session-end", { session, reason, detail, turns }));
}

async function contained(log: Log, what: string, run: () => Promise<{ readonly errors: readonly { readonly message: string }[] }>): Promise<void> {
  try {
    const outcome = await run();
    for (const error of outcome.errors) log(`${what} listener failed (contained): ${error.message}`);
  } catch (error) {
    log(`${what} did not complete: ${error instanceof Error ? error.message : String(error)}`);
  }
}
