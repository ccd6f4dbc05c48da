// What agents tell about their sessions (engine/session-facts.ts): merged per session keyed by
// agent identity + session id, a subagent falls back to its parent's, bounded, forgotten.
import { describe, expect, it } from "vitest";
import { SessionFacts } from "../src/engine/session-facts.js";

const s = (agentId: string, sessionId: string, parentSessionId?: string) => ({ agentId, sessionId, ...(parentSessionId === undefined ? {} : { parentSessionId }) });

describe("SessionFacts", () => {
  it("merges what each payload tells: a field not sent keeps its earlier value", () => {
    const facts = new SessionFacts();
    facts.remember(s("cc", "1"), { transcriptPath: "/t/1.jsonl", permissionMode: "default", model: "claude-x" });
    facts.remember(s("cc", "1"), { permissionMode: "plan" });
    expect(facts.of(s("cc", "1"))).toEqual({ transcriptPath: "/t/1.jsonl", permissionMode: "plan", model: "claude-x" });
  });

  it("is keyed by agent identity and session id: another agent's session of the same id is another session", () => {
    const facts = new SessionFacts();
    facts.remember(s("cc", "1"), { transcriptPath: "/cc" });
    facts.remember(s("codex", "1"), { transcriptPath: "/codex" });
    expect([facts.of(s("cc", "1")).transcriptPath, facts.of(s("codex", "1")).transcriptPath, facts.of(s("cc", "2"))]).toEqual(["/cc", "/codex", {}]);
  });

  it("a subagent's session without facts of its own has its parent's", () => {
    const facts = new SessionFacts();
    facts.remember(s("cc", "parent"), { transcriptPath: "/p.jsonl", permissionMode: "acceptEdits" });
    expect(facts.of(s("cc", "agent-7", "parent"))).toEqual({ transcriptPath: "/p.jsonl", permissionMode: "acceptEdits" });
    facts.remember(s("cc", "agent-7"), { permissionMode: "plan" });
    expect(facts.of(s("cc", "agent-7", "parent"))).toEqual({ permissionMode: "plan" });
  });

  it("forgets a session at its end, and the least recently told first beyond its bound", () => {
    const facts = new SessionFacts(2);
    facts.remember(s("a", "1"), { model: "m1" });
    facts.remember(s("a", "2"), { model: "m2" });
    facts.remember(s("a", "1"), { permissionMode: "plan" }); // told again: now the most recent
    facts.remember(s("a", "3"), { model: "m3" });
    expect([facts.size, facts.of(s("a", "2")), facts.of(s("a", "1")).model]).toEqual([2, {}, "m1"]);
    facts.forget(s("a", "1"));
    expect([facts.size, facts.of(s("a", "1"))]).toEqual([1, {}]);
    // Nothing told, nothing kept.
    facts.remember(s("a", "4"), {});
    expect(facts.size).toBe(1);
  });

  it("a payload repeating what is known keeps the entry, yet counts as told for the bound", () => {
    const facts = new SessionFacts(2);
    facts.remember(s("a", "1"), { model: "m1", permissionMode: "default" });
    const first = facts.of(s("a", "1"));
    facts.remember(s("a", "2"), { model: "m2" });
    facts.remember(s("a", "1"), { model: "m1" }); // nothing new: the same entry, now the most recent
    expect(facts.of(s("a", "1"))).toBe(first);
    facts.remember(s("a", "3"), { model: "m3" });
    expect([facts.of(s("a", "1")).model, facts.of(s("a", "2"))]).toEqual(["m1", {}]);
    facts.remember(s("a", "1"), { model: "m4" });
    expect(facts.of(s("a", "1"))).toEqual({ model: "m4", permissionMode: "default" });
  });
});
