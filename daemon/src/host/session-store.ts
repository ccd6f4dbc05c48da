// Every hosted session, keyed by (agent identity, session id): an agent can only ever find its own
// sessions. Owns opening and resuming, the global and per-agent session limits (a subagent's
// session counts like any other of its agent), subagent lineage (a parent is one of the same
// agent's sessions), and the window in which a disconnected session can still be resumed.
import { status } from "@grpc/grpc-js";
import type { SessionEndReason, SessionInfo, SessionSource, ToolDefinitionInfo } from "@hookd/sdk";
import { StatusError } from "@hookd/sdk/internal";
import { HostedSession } from "./hosted-session.js";
import type { HostedSessionDeps } from "./hosted-session.js";

export interface SessionStoreLimits {
  readonly maxSessions: number;
  readonly maxSessionsPerAgent: number;
  readonly resumeWindowMs: number;
  /** A session with no frame and no turn for this long ends as expired; absent: never. */
  readonly sessionIdleMs?: number;
  /** session.heartbeatMs: how often each side of an idle Session stream sends a Heartbeat; 0: never. */
  readonly heartbeatMs?: number;
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
  /** One sweep for every session (a timer per session would cost memory per idle session). */
  #sweep: NodeJS.Timeout | undefined;

  constructor(limits: SessionStoreLimits, deps: HostedSessionDeps) {
    this.#limits = limits;
    this.#deps = deps;
  }

  /** Applies a reloaded config's limits and dependencies to sessions opened from now on. */
  reconfigure(limits: SessionStoreLimits, deps: HostedSessionDeps): void {
    this.#limits = limits;
    this.#deps = deps;
    clearInterval(this.#sweep);
    this.#sweep = undefined;
    if (this.#entries.size > 0) this.#armSweep();
  }

  /** The heartbeat interval for streams attached from now on (announced in SessionOpened). */
  get heartbeatMs(): number {
    return this.#limits.heartbeatMs ?? 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  get agents(): number {
    return this.#perAgent.size;
  }

  hasAgent(agentId: string): boolean {
    return this.#perAgent.has(agentId);
  }

  /**
   * Opens a new session (startup) or continues one (resume). A resume of a session this daemon
   * does not hold is refused NOT_FOUND, never replaced by a fresh one: behind a balancer, or after
   * a restart, the agent must learn that its history is gone. A startup of an existing id, or any
   * open of a session attached to another stream, is refused too.
   */
  open(request: OpenRequest): { readonly session: HostedSession; readonly resumed: boolean } {
    const key = keyOf(request.info.agentId, request.info.sessionId);
    const existing = this.#entries.get(key);
    this.#checkLineage(request, existing?.session);
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
    if (request.source === "resume") {
      throw new StatusError(
        status.NOT_FOUND,
        `open.session_id: session "${request.info.sessionId}" of agent "${request.info.agentId}" is not known to this daemon (it ended, outlived limits.resumeWindowMs, or lives on another instance); open it with source STARTUP to start afresh`,
      );
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
    this.#armSweep();
    return { session, resumed: false };
  }

  /**
   * A subagent names its parent; the parent must be a session of the same agent that is open or
   * resumable (looked up under the caller's own identity, so lineage never crosses agents). A
   * resume keeps the lineage the session was opened with.
   */
  #checkLineage(request: OpenRequest, existing: HostedSession | undefined): void {
    const { info, source } = request;
    const parent = info.parentSessionId;
    if (source === "subagent" && parent === undefined) throw lineageError("open.parent_session_id", "required for source SUBAGENT");
    if (existing !== undefined) {
      if (parent !== undefined && parent !== existing.info.parentSessionId) {
        throw lineageError("open.parent_session_id", `session "${info.sessionId}" was opened with parent "${existing.info.parentSessionId ?? ""}", not "${parent}"`);
      }
      return;
    }
    if (parent === undefined) return;
    if (parent === info.sessionId) throw lineageError("open.parent_session_id", "a session cannot be its own parent");
    if (!this.#entries.has(keyOf(info.agentId, parent))) {
      throw lineageError("open.parent_session_id", `agent "${info.agentId}" has no open or resumable session "${parent}"; a parent must be one of the same agent's sessions`);
    }
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
    const detail = `${reason}; not resumed within the resume window (limits.resumeWindowMs = ${this.#limits.resumeWindowMs})`;
    entry.expiry = setTimeout(() => void this.close(session, detail, "disconnected"), this.#limits.resumeWindowMs);
    entry.expiry.unref();
  }

  /** Ends the session for good (session-end fires once, with `ending`). */
  async close(session: HostedSession, reason: string, ending: SessionEndReason): Promise<void> {
    const key = keyOf(session.info.agentId, session.info.sessionId);
    const entry = this.#entries.get(key);
    if (entry?.session === session) {
      clearTimeout(entry.expiry);
      this.#entries.delete(key);
      const left = (this.#perAgent.get(session.info.agentId) ?? 1) - 1;
      if (left > 0) this.#perAgent.set(session.info.agentId, left);
      else this.#perAgent.delete(session.info.agentId);
    }
    await session.close(reason, ending);
  }

  #armSweep(): void {
    const idleMs = this.#limits.sessionIdleMs;
    if (idleMs === undefined || this.#sweep !== undefined) return;
    this.#sweep = setInterval(() => this.#expireIdle(idleMs), Math.max(10, Math.min(idleMs, 60_000) / 4));
    this.#sweep.unref();
  }

  #expireIdle(idleMs: number): void {
    const now = Date.now();
    for (const { session } of this.#entries.values()) {
      const since = session.idleSince;
      if (since !== undefined && now - since >= idleMs) void this.close(session, `idle for more than ${idleMs} ms (limits.sessionIdleMs)`, "expired");
    }
    if (this.#entries.size === 0) {
      clearInterval(this.#sweep);
      this.#sweep = undefined;
    }
  }

  async closeAll(reason: string, ending: SessionEndReason): Promise<void> {
    clearInterval(this.#sweep);
    this.#sweep = undefined;
    await Promise.all([...this.#entries.values()].map((entry) => this.close(entry.session, reason, ending)));
  }
}

function lineageError(field: string, problem: string): StatusError {
  return new StatusError(status.FAILED_PRECONDITION, `${field}: ${problem}`);
}

function keyOf(agentId: string, sessionId: string): string {
  return `${agentId}\u0000${sessionId}`;
}
