// Counts consecutive hook-driven stops per session (stop_hook_active true), so the daemon's
// continuation cap applies to agents that report only the flag. Bounded: the oldest sessions are
// forgotten first.
export class StopCounter {
  readonly #counts = new Map<string, number>();
  constructor(readonly maxSessions = 10_000) {}

  next(key: string, stopHookActive: boolean): number {
    const count = stopHookActive ? (this.#counts.get(key) ?? 0) + 1 : 0;
    this.#counts.delete(key);
    this.#counts.set(key, count);
    if (this.#counts.size > this.maxSessions) {
      const oldest = this.#counts.keys().next();
      if (oldest.done !== true) this.#counts.delete(oldest.value);
    }
    return count;
  }
}
