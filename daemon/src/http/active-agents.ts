// The agents heard from over the HTTP hook endpoint: HTTP hooks hold no connection and no hosted
// session, so an agent counts as connected while its hooks keep arriving, for a window after its
// last one. `hookd status` and hookd_agents_connected add them to the hosted agents.
/** How long after its last hook an HTTP agent still counts as connected. */
export const HTTP_AGENT_WINDOW_MS = 5 * 60_000;

export class ActiveAgents {
  readonly #lastSeen = new Map<string, number>();
  readonly #windowMs: number;
  #last: string | undefined;

  constructor(windowMs = HTTP_AGENT_WINDOW_MS) {
    this.#windowMs = windowMs;
  }

  seen(agentId: string, now = Date.now()): void {
    // Re-inserted so the map stays in order of last sight: pruning stops at the first live one.
    // The agent seen last is already at the young end: updated in place.
    if (this.#last !== agentId) this.#lastSeen.delete(agentId);
    this.#lastSeen.set(agentId, now);
    this.#last = agentId;
  }

  /** Agents seen within the window, leaving out those `counted` already counts elsewhere. */
  count(now = Date.now(), counted: (agentId: string) => boolean = () => false): number {
    for (const [id, at] of this.#lastSeen) {
      if (now - at <= this.#windowMs) break;
      this.#lastSeen.delete(id);
    }
    let n = 0;
    for (const id of this.#lastSeen.keys()) if (!counted(id)) n++;
    return n;
  }
}
