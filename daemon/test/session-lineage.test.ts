// The session store's side of subagents and session ends, with real hosted sessions and an
// in-process plugin: a parent must be one of the same agent's sessions (refusals name the
// field), subagents count against their agent's session limit, and each way a session ends
// reaches session-end with its reason (disconnected after the resume window, expired when idle,
// daemon stopping, cleared), once.
import { definePlugin, pass } from "@hookd/sdk";
import type { SessionEndEvent, SessionEndReason, SessionInfo } from "@hookd/sdk";
import { StatusError } from "@hookd/sdk/internal";
import { describe, expect, test } from "vitest";
import { EventBus } from "../src/engine/events.js";
import { PluginRegistry } from "../src/engine/registry.js";
import type { AgentStream } from "../src/host/hosted-session.js";
import { SessionStore } from "../src/host/session-store.js";
import type { SessionStoreLimits } from "../src/host/session-store.js";
import { silentLogger } from "../src/log.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";

function storeWith(limits: Partial<SessionStoreLimits> = {}) {
  const ends: SessionEndEvent[] = [];
  const waiters: ((event: SessionEndEvent) => void)[] = [];
  const plugin = definePlugin({
    name: "ends",
    points: {
      "session-end": (event) => {
        ends.push(event);
        for (const wake of waiters.splice(0)) wake(event);
      },
      "session-start": () => pass(),
    },
  });
  const registry = new PluginRegistry(inProcessListeners(plugin));
  const store = new SessionStore(
    { maxSessions: 100, maxSessionsPerAgent: 100, resumeWindowMs: 60_000, ...limits },
    {
      registry: () => registry,
      bus: new EventBus(),
      log: silentLogger,
      limits: { maxSteeredContinuations: 2, maxStepsPerTurn: 8, pointBudgetMs: 1_000, sessionEndBudgetMs: 1_000, toolConcurrency: 2, approvalTimeoutMs: 1_000, finalizeTimeoutMs: 1_000 },
    },
  );
  const open = (info: Omit<SessionInfo, "cwd">, source: "startup" | "subagent" | "resume" = "startup") => store.open({ info: { cwd: "/", ...info }, source, tools: [] }).session;
  const nextEnd = () => new Promise<SessionEndEvent>((resolve) => waiters.push(resolve));
  return { store, ends, open, nextEnd };
}

function refusal(run: () => unknown): StatusError {
  try {
    run();
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

const stream: AgentStream = { send: () => {} };

describe("subagent lineage", () => {
  test("a child names a parent of its own agent; the child's info carries the lineage", () => {
    const { store, open } = storeWith();
    open({ sessionId: "main", agentId: "alice" });
    const child = open({ sessionId: "sub-1", agentId: "alice", parentSessionId: "main", agentType: "explorer" }, "subagent");
    expect(child.info).toEqual({ sessionId: "sub-1", agentId: "alice", cwd: "/", parentSessionId: "main", agentType: "explorer" });
    // A grandchild may name a subagent.
    open({ sessionId: "sub-2", agentId: "alice", parentSessionId: "sub-1" }, "subagent");
    expect(store.size).toBe(3);
  });

  test("a parent of another agent, an unknown parent, itself, or none for SUBAGENT is refused naming the field", () => {
    const { store, open } = storeWith();
    open({ sessionId: "main", agentId: "alice" });
    const crossing = refusal(() => open({ sessionId: "sub", agentId: "bob", parentSessionId: "main" }, "subagent"));
    expect(crossing.message).toContain('open.parent_session_id: agent "bob" has no open or resumable session "main"');
    expect(refusal(() => open({ sessionId: "sub", agentId: "alice", parentSessionId: "nope" }, "subagent")).message).toContain("open.parent_session_id");
    expect(refusal(() => open({ sessionId: "sub", agentId: "alice", parentSessionId: "sub" }, "subagent")).message).toContain("open.parent_session_id: a session cannot be its own parent");
    expect(refusal(() => open({ sessionId: "sub", agentId: "alice" }, "subagent")).message).toContain("open.parent_session_id: required for source SUBAGENT");
    // Nothing refused was opened or counted.
    expect(store.size).toBe(1);
    expect(store.agents).toBe(1);
  });

  test("a resume keeps the lineage it was opened with and refuses another parent", async () => {
    const { store, open } = storeWith();
    open({ sessionId: "main", agentId: "alice" });
    open({ sessionId: "other", agentId: "alice" });
    const child = open({ sessionId: "sub", agentId: "alice", parentSessionId: "main" }, "subagent");
    child.attach(stream);
    store.detach(child, "agent disconnected");
    expect(refusal(() => open({ sessionId: "sub", agentId: "alice", parentSessionId: "other" }, "resume")).message).toContain('was opened with parent "main", not "other"');
    expect(open({ sessionId: "sub", agentId: "alice" }, "resume").info.parentSessionId).toBe("main");
    await store.closeAll("test over", "closed");
  });

  test("subagent sessions count against their own agent's session limit, not another's", () => {
    const { store, open } = storeWith({ maxSessionsPerAgent: 2 });
    open({ sessionId: "main", agentId: "alice" });
    open({ sessionId: "sub-1", agentId: "alice", parentSessionId: "main" }, "subagent");
    const full = refusal(() => open({ sessionId: "sub-2", agentId: "alice", parentSessionId: "main" }, "subagent"));
    expect(full.message).toContain('agent "alice" has its maximum of 2 open sessions (limits.maxSessionsPerAgent)');
    open({ sessionId: "main", agentId: "bob" });
    expect(store.size).toBe(3);
  });
});

describe("every way a hosted session ends reaches session-end once, with its reason", () => {
  test("the resume window lapsing after a disconnect is DISCONNECTED", async () => {
    const { store, open, nextEnd } = storeWith({ resumeWindowMs: 20 });
    const session = open({ sessionId: "s", agentId: "alice" });
    session.attach(stream);
    const ended = nextEnd();
    store.detach(session, "agent disconnected");
    expect(await ended).toMatchObject({ reason: "disconnected", turns: 0 });
    expect((await ended).detail).toContain("limits.resumeWindowMs = 20");
    expect(store.size).toBe(0);
  });

  test("an idle session expires (limits.sessionIdleMs) as EXPIRED", async () => {
    const { store, open, nextEnd } = storeWith({ sessionIdleMs: 20 });
    const ended = nextEnd();
    open({ sessionId: "idle", agentId: "alice" });
    expect(await ended).toMatchObject({ reason: "expired", session: { sessionId: "idle" } });
    expect((await ended).detail).toContain("limits.sessionIdleMs");
    expect(store.size).toBe(0);
  });

  test("closeAll at a daemon stop is DAEMON_STOPPING for each session; a later close fires nothing", async () => {
    const { store, open, ends } = storeWith();
    const a = open({ sessionId: "a", agentId: "alice" });
    open({ sessionId: "b", agentId: "bob" });
    await store.closeAll("hookd is stopping", "daemon_stopping");
    await store.close(a, "again", "closed");
    const reasons = ends.map((e): [string, SessionEndReason] => [e.session.sessionId, e.reason]).sort();
    expect(reasons).toEqual([
      ["a", "daemon_stopping"],
      ["b", "daemon_stopping"],
    ]);
  });

  test("a close with CLEARED is CLEARED", async () => {
    const { store, open, ends } = storeWith();
    const session = open({ sessionId: "s", agentId: "alice" });
    await store.close(session, "cleared by the agent", "cleared");
    expect(ends.map((e) => [e.reason, e.detail])).toEqual([["cleared", "cleared by the agent"]]);
  });
});
