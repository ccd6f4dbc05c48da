// Every hosted session, keyed by (agent identity, session id): an agent can only ever find its own
// sessions. Owns opening and resuming, the global and per-agent session limits, and the window
// in which a disconnected session can still be resumed.
import { status } from "@grpc/grpc-js";
import type { SessionInfo, SessionSource, ToolDefinitionInfo } from "@hookd/sdk";
import { StatusError } from "@hookd/sdk/internal";
import { HostedSession } from "./hosted-session.js";
import type { HostedSessionDeps } from "./hosted-session.js";

export interface SessionStoreLimits {
  readonly maxSessions: number;
  readonly maxSessionsPerAgent: number;
  readonly resumeWindowMs: number;
}

export interface OpenRequest {
  readonly info: SessionInfo;
  readonly source: SessionSource;
  readonly tools: readonly ToolDefinitionInfo[];
}

interface Entry {
  readonly session: HostedSession;
  expiry: NodeJS.Timeout | undefined;
}

export class SessionStore {
  readonly #entries = new Map<string, Entry>();
  readonly #perAgent = new Map<string, number>();
  #limits: SessionStoreLimits;
  #deps: HostedSessionDeps;

  constructor(limits: SessionStoreLimits, deps: HostedSessionDeps) {
    this.#limits = limits;
    this.#deps = deps;
  }

  /** Applies a reloaded config's limits and dependencies to sessions opened from now on. */
  reconfigure(limits: SessionStoreLimits, deps: HostedSessionDeps): void {
    this.#limits = limits;
    this.#deps = deps;
  }

  get size(): number {
    return this.#entries.size;
  }

  get agents(): number {
    return this.#perAgent.size;
  }

  /**
   * Opens a new session (startup) or continues one (resume). A resume of a session the daemon
   * does not know starts it afresh with source "resume" (a persisted session reloaded by the
   * agent); a startup of an existing id, or any open of a session attached to another stream,
   * is refused.
   */
  open(request: OpenRequest): { readonly session: HostedSession; readonly resumed: boolean } {
    const key = keyOf(request.info.agentId, request.info.sessionId);
    const existing = this.#entries.get(key);
    if (existing !== undefined) {
      if (request.source !== "resume") {
        throw new StatusError(status.FAILED_PRECONDITION, `open.session_id: session "${request.info.sessionId}" exists; open it with source RESUME`);
      }
      if (existing.session.attached) {
        throw new StatusError(status.FAILED_PRECONDITION, `open.session_id: session "${request.info.sessionId}" is attached to another stream`);
      }
      clearTimeout(existing.expiry);
      existing.expiry = undefined;
      return { session: existing.session, resumed: true };
    }
    if (this.#entries.size >= this.#limits.maxSessions) {
      throw new StatusError(status.RESOURCE_EXHAUSTED, `the daemon has its maximum of ${this.#limits.maxSessions} open sessions (limits.maxSessions)`);
    }
    const count = this.#perAgent.get(request.info.agentId) ?? 0;
    if (count >= this.#limits.maxSessionsPerAgent) {
      throw new StatusError(status.RESOURCE_EXHAUSTED, `agent "${request.info.agentId}" has its maximum of ${this.#limits.maxSessionsPerAgent} open sessions (limits.maxSessionsPerAgent)`);
    }
    const session = new HostedSession(request.info, request.source, request.tools, this.#deps);
    this.#entries.set(key, { session, expiry: undefined });
    this.#perAgent.set(request.info.agentId, count + 1);
    return { session, resumed: false };
  }

  get(agentId: string, sessionId: string): HostedSession | undefined {
    return this.#entries.get(keyOf(agentId, sessionId))?.session;
  }

  /** The stream went away: abort the turn, keep the session resumable for the resume window. */
  detach(session: HostedSession, reason: string): void {
    session.detach(reason);
    const entry = this.#entries.get(keyOf(session.info.agentId, session.info.sessionId));
    if (entry === undefined || entry.session !== session) return;
    clearTimeout(entry.expiry);
    entry.expiry = setTimeout(() => void this.close(session, "resume window expired"), this.#limits.resumeWindowMs);
    entry.expiry.unref();
  }

  async close(session: HostedSession, reason: string): Promise<void> {
    const key = keyOf(session.info.agentId, session.info.sessionId);
    const entry = this.#entries.get(key);
    if (entry?.session === session) {
      clearTimeout(entry.expiry);
      this.#entries.delete(key);
      const left = (this.#perAgent.get(session.info.agentId) ?? 1) - 1;
      if (left > 0) this.#perAgent.set(session.info.agentId, left);
      else this.#perAgent.delete(session.info.agentId);
    }
    await session.close(reason);
  }

  async closeAll(reason: string): Promise<void> {
    await Promise.all([...this.#entries.values()].map((entry) => this.close(entry.session, reason)));
  }
}

function keyOf(agentId: string, sessionId: string): string {
  return `${agentId}\u0000${sessionId}`;
}
