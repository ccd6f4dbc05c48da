// What an agent last told hookd about one of its sessions beyond SessionInfo: its transcript
// file, its permission mode and its model, as Claude Code, Codex and Gemini CLI send them in
// every hook payload. The HTTP endpoint remembers them; the command kind hands them to the hooks
// it runs, as the agent itself would. Keyed like the session store (agent identity + session
// id), bounded (the least recently told is forgotten first) and forgotten at session end.
import type { SessionInfo } from "@hookd/sdk";

export interface SessionFactsValue {
  readonly transcriptPath?: string;
  readonly permissionMode?: string;
  readonly model?: string;
}

const key = (agentId: string, sessionId: string): string => `${agentId}\u0000${sessionId}`;

export class SessionFacts {
  readonly #facts = new Map<string, SessionFactsValue>();

  constructor(readonly maxSessions = 10_000) {}

  get size(): number {
    return this.#facts.size;
  }

  /** Merges what the agent just said: a field it did not send keeps the value it sent before. */
  remember(session: Pick<SessionInfo, "agentId" | "sessionId">, told: SessionFactsValue): void {
    const at = key(session.agentId, session.sessionId);
    const before = this.#facts.get(at);
    if (before === undefined && told.transcriptPath === undefined && told.permissionMode === undefined && told.model === undefined) return;
    // Every hook repeats the same facts: the entry is kept (only moved to the young end) when
    // nothing changed, so a request allocates nothing here.
    const after = before !== undefined && unchanged(before, told) ? before : Object.freeze({ ...before, ...defined(told) });
    this.#facts.delete(at);
    this.#facts.set(at, after);
    if (this.#facts.size > this.maxSessions) {
      const [oldest] = this.#facts.keys();
      if (oldest !== undefined) this.#facts.delete(oldest);
    }
  }

  /** The session's facts; a subagent's session without its own falls back to its parent's. */
  of(session: Pick<SessionInfo, "agentId" | "sessionId" | "parentSessionId">): SessionFactsValue {
    const own = this.#facts.get(key(session.agentId, session.sessionId));
    if (own !== undefined || session.parentSessionId === undefined) return own ?? {};
    return this.#facts.get(key(session.agentId, session.parentSessionId)) ?? {};
  }

  forget(session: Pick<SessionInfo, "agentId" | "sessionId">): void {
    this.#facts.delete(key(session.agentId, session.sessionId));
  }
}

function unchanged(before: SessionFactsValue, told: SessionFactsValue): boolean {
  return (
    (told.transcriptPath === undefined || told.transcriptPath === before.transcriptPath) &&
    (told.permissionMode === undefined || told.permissionMode === before.permissionMode) &&
    (told.model === undefined || told.model === before.model)
  );
}

function defined(told: SessionFactsValue): SessionFactsValue {
  return {
    ...(told.transcriptPath === undefined ? {} : { transcriptPath: told.transcriptPath }),
    ...(told.permissionMode === undefined ? {} : { permissionMode: told.permissionMode }),
    ...(told.model === undefined ? {} : { model: told.model }),
  };
}
