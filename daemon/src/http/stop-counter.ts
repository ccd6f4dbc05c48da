// Counts a session's consecutive hook-driven stops (stop_hook_active true) with no tool call in
// between, so the daemon's continuation cap applies to agents that report only the flag, and
// counts as Claude Code's own stop guard does: a continuation that ran a tool is progress, not a
// loop, and starts the count again. Bounded: the oldest sessions are forgotten first.

/** A tool ran since the session's last stop: its next steered stop counts 0 again. */
const PROGRESSED = -1;

export class StopCounter {
  readonly #counts = new Map<string, number>();
  constructor(readonly maxSessions = 10_000) {}

  /** The steered continuations this stop follows with no tool call in between. */
  next(key: string, stopHookActive: boolean): number {
    return this.#set(key, stopHookActive ? (this.#counts.get(key) ?? 0) + 1 : 0);
  }

  /** The session proposed or ran a tool (a pre-tool, approval or post-tool event). */
  toolRan(key: string): void {
    if (this.#counts.get(key) !== PROGRESSED) this.#set(key, PROGRESSED);
  }

  #set(key: string, count: number): number {
    this.#counts.delete(key);
    this.#counts.set(key, count);
    if (this.#counts.size > this.maxSessions) {
      const oldest = this.#counts.keys().next();
      if (oldest.done !== true) this.#counts.delete(oldest.value);
    }
    return count;
  }
}
