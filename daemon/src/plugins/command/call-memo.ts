// What a PreToolUse run hands on from one point of a call to the next (its verdict to pre-tool,
// its contexts to post-tool), keyed by session and call, bounded so that a call that never
// reaches its next point cannot leak.
/** The key of one call in one session, for what a PreToolUse run hands on to later points. */
export function callKey(data: { readonly session: { readonly sessionId: string }; readonly call: { readonly callId: string } }): string {
  return `${data.session.sessionId}\u0000${data.call.callId}`;
}

/** A bounded map: the oldest entry goes first, so a call that never reaches its next point cannot leak. */
export class CallMemo<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly max = 4096) {}

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) {
      const [oldest] = this.#entries.keys();
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  /** The entry, removed. */
  take(key: string): V | undefined {
    const value = this.#entries.get(key);
    this.#entries.delete(key);
    return value;
  }
}
