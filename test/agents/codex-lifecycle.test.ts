// Codex's events beyond the scenario's, driven headless with the real binary and hookd as the
// hook backend (every Codex event through the C forwarder): a subagent (Codex's multi-agent
// tools, spawn_agent / wait_agent, called by the fake model) whose tool calls hookd gates in its
// own session with lineage, and whose stop hookd steers once; permission requests answered by
// hookd's approval plugins (`codex exec --approve-for-me` routes approvals to review instead of
// refusing them, and a command asking `sandbox_permissions: "require_escalated"` needs one);
// compaction (a tiny `model_auto_compact_token_limit`: Codex asks the model for a summary
// mid-turn) and an interrupt (SIGINT to `codex exec`, as Ctrl-C).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel } from "./fake-model/server.js";
import type { Conversation, FakeModel, Reply, Script } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { CODEX_ALL_EVENTS, codexHooks, runCodex } from "./support/codex.js";
import { OBSERVER_MARK, OBSERVER_PLUGIN, observed } from "./support/observer.js";
import type { ObservedEntry } from "./support/observer.js";
import { startPolicyDaemon } from "./support/policy.js";
import type { PolicyDaemon } from "./support/policy.js";
import { MARK, prepareCwd } from "./support/scenario.js";

const SUBTASK = "SUBAGENT-TASK-8e1: clean the directory";
const COMPACT_PROMPT = "CONTEXT CHECKPOINT COMPACTION";
const SUMMARY = "COMPACT-SUMMARY-6b1";

/** exec_command asking to run outside the sandbox: Codex asks for approval (PermissionRequest). */
const escalated = (cmd: string): Reply => ({ kind: "tool", name: "exec_command", input: { cmd, sandbox_permissions: "require_escalated", justification: "hookd lane: this needs approval" } });
const agentIdIn = (text: string | undefined): string => /"agent_id"\s*:\s*"([^"]+)"/.exec(text ?? "")?.[1] ?? "no-agent-id";
const isSubagent = (c: Conversation): boolean => c.userTexts.some((t) => t.includes(SUBTASK));

// Main: spawn a subagent, wait for it, then two escalated commands (one approved, one refused),
// then answer. Subagent: rm -r (hookd denies it), a harmless command, an escalated one, then answer.
const subagentScript: Script = (c) => {
  if (c.tools.length === 0) return { kind: "text", text: "ok" };
  if (isSubagent(c)) {
    const steps: readonly Reply[] = [{ kind: "shell", command: "rm -r victim" }, { kind: "shell", command: "echo sub-ran > sub.txt" }, escalated("echo sub-approved > sub-approved.txt")];
    return steps[c.toolResults.length] ?? { kind: "text", text: "SUB-DONE" };
  }
  const steps: readonly Reply[] = [
    { kind: "tool", name: "multi_agent_v1.spawn_agent", input: { message: SUBTASK } },
    { kind: "tool", name: "multi_agent_v1.wait_agent", input: { targets: [agentIdIn(c.toolResults[0])], timeout_ms: 60_000 } },
    escalated("echo approved > approved.txt"),
    escalated(`echo ${OBSERVER_MARK.refuseApproval} > refused.txt`),
  ];
  return steps[c.toolResults.length] ?? { kind: "text", text: "DONE" };
};

describe("Codex through hookd: a subagent, permission requests", () => {
  let policy: PolicyDaemon;
  let model: FakeModel;
  let cwd: string;
  let run: Awaited<ReturnType<typeof runCodex>>;
  let entries: ObservedEntry[];
  let main: string;
  let sub: ObservedEntry | undefined;

  beforeAll(async () => {
    policy = await startPolicyDaemon({ plugins: [OBSERVER_PLUGIN] });
    model = await startFakeModel(subagentScript);
    const home = await tempDir("codex-home");
    cwd = await tempDir("codex-cwd");
    prepareCwd(cwd);
    run = await runCodex({ home, cwd, modelUrl: model.url, hooks: codexHooks("c-forwarder", policy.hookUrl, CODEX_ALL_EVENTS), prompt: "Clean up with a helper agent.", args: ["--approve-for-me"] });
    entries = await policy.entries();
    main = entries.find((e) => e.point === "session-start" && e.source === "startup")?.session.sessionId ?? "no main session";
    sub = entries.find((e) => e.point === "session-start" && e.source === "subagent");
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await policy?.stop();
  });

  it("runs the turn to its end", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.events.some((e) => e.type === "turn.completed")).toBe(true);
  });

  it("SubagentStart opens the subagent's session in hookd, with lineage", () => {
    expect(sub?.session).toMatchObject({ agentId: "codex", parentSessionId: main, agentType: "default" });
    expect(sub?.session.sessionId).not.toBe(main);
    // The subagent's own prompt is a pre-step of its session.
    expect(entries.some((e) => e.point === "pre-step" && e.session.sessionId === sub?.session.sessionId)).toBe(true);
  });

  it("Codex gives the subagent's model the context hookd answered at SubagentStart and at its prompt", () => {
    const subagent = model.conversations().find(isSubagent);
    expect(subagent?.userTexts.some((t) => t.includes(MARK.sessionContext))).toBe(true);
    expect(subagent?.userTexts.some((t) => t.includes(MARK.promptContext))).toBe(true);
  });

  it("gates the subagent's tool calls in its session: its rm -r is denied and the subagent's model gets the reason, its harmless command runs", () => {
    const gated = entries.filter((e) => e.point === "pre-tool" && e.session.sessionId === sub?.session.sessionId).map((e) => e.command);
    expect(gated).toEqual(["rm -r victim", "echo sub-ran > sub.txt", "echo sub-approved > sub-approved.txt"]);
    expect(entries.find((e) => e.point === "pre-tool" && e.command === "rm -r victim")?.session).toMatchObject({ parentSessionId: main, agentType: "default" });
    expect(existsSync(join(cwd, "victim"))).toBe(true);
    expect(existsSync(join(cwd, "sub.txt"))).toBe(true);
    expect(model.conversations().some((c) => isSubagent(c) && c.toolResults.some((t) => t.includes(MARK.denyReason)))).toBe(true);
  });

  it("SubagentStop is turn-stopping of the subagent's session: hookd's steer continues the subagent once", () => {
    const stops = entries.filter((e) => e.point === "turn-stopping" && e.session.sessionId === sub?.session.sessionId);
    expect(stops.map((e) => e.stopHookActive)).toEqual([false, true]);
    expect(model.conversations().some((c) => isSubagent(c) && c.userTexts.some((t) => t.includes(MARK.steer)))).toBe(true);
    expect(entries.filter((e) => e.point === "turn-end" && e.session.sessionId === sub?.session.sessionId).map((e) => e.outcome)).toEqual(["completed"]);
    // The main session's own stop is steered apart from its subagent's.
    expect(entries.filter((e) => e.point === "turn-stopping" && e.session.sessionId === main).map((e) => e.stopHookActive)).toEqual([false, true]);
  });

  it("answers Codex's permission requests with hookd's approval plugins, and Codex honours both answers", () => {
    expect(entries.filter((e) => e.point === "approval")).toEqual([
      // The subagent's permission request is asked in its own session, with lineage.
      expect.objectContaining({ tool: "Bash", command: "echo sub-approved > sub-approved.txt", session: expect.objectContaining({ sessionId: sub?.session.sessionId, parentSessionId: main }) as unknown }),
      expect.objectContaining({ tool: "Bash", command: "echo approved > approved.txt", session: expect.objectContaining({ sessionId: main }) as unknown }),
    ]);
    expect(existsSync(join(cwd, "sub-approved.txt"))).toBe(true);
    expect(entries.filter((e) => e.point === "approval-refused").map((e) => e.command)).toEqual([`echo ${OBSERVER_MARK.refuseApproval} > refused.txt`]);
    expect(existsSync(join(cwd, "approved.txt"))).toBe(true);
    expect(existsSync(join(cwd, "refused.txt"))).toBe(false);
    expect(model.conversations().some((c) => c.toolResults.some((t) => t.includes(OBSERVER_MARK.refuseReason)))).toBe(true);
  });
});

// Compaction, then an interrupt: after the first command the usage exceeds the tiny limit, Codex
// compacts (PreCompact, the summary request, PostCompact, SessionStart source compact) and goes
// on; the next command sleeps and the test sends SIGINT once Codex started it.
const compactScript: Script = (c) => {
  if (c.userTexts.some((t) => t.includes(COMPACT_PROMPT))) return { kind: "text", text: SUMMARY };
  if (c.tools.length === 0) return { kind: "text", text: "ok" };
  if (c.userTexts.some((t) => t.includes(SUMMARY))) return { kind: "shell", command: "sleep 30" };
  return c.toolResults.length === 0 ? { kind: "shell", command: "echo before > before.txt" } : { kind: "text", text: "DONE" };
};

describe("Codex through hookd: compaction and an interrupt", () => {
  let policy: PolicyDaemon;
  let model: FakeModel;
  let entries: ObservedEntry[];

  beforeAll(async () => {
    policy = await startPolicyDaemon({ plugins: [OBSERVER_PLUGIN] });
    model = await startFakeModel(compactScript);
    const home = await tempDir("codex-home");
    const cwd = await tempDir("codex-cwd");
    const sleeping = (stdout: string): boolean => stdout.split("\n").some((line) => line.includes('"item.started"') && line.includes("sleep 30"));
    await runCodex({ home, cwd, modelUrl: model.url, hooks: codexHooks("c-forwarder", policy.hookUrl, CODEX_ALL_EVENTS), prompt: "Work until told.", args: ["-c", "model_auto_compact_token_limit=1"], interruptWhen: sleeping });
    entries = await policy.entries();
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await policy?.stop();
  });

  it("PreCompact and PostCompact reach the agent-event plugin with Codex's payload; the model was asked for the summary", () => {
    const main = entries.find((e) => e.point === "session-start")?.session.sessionId;
    for (const event of ["PreCompact", "PostCompact"]) {
      const seen = observed(entries, event);
      expect(seen, event).toHaveLength(1);
      expect(seen[0]).toMatchObject({ dialect: "codex", session: { sessionId: main, agentId: "codex" }, payload: { hook_event_name: event, trigger: "auto", model: "gpt-fake", session_id: main } });
    }
    expect(model.requests.filter((r) => r.conversation?.userTexts.some((t) => t.includes(COMPACT_PROMPT)) === true)).toHaveLength(1);
    expect(model.conversations().some((c) => c.userTexts.some((t) => t.includes(SUMMARY)))).toBe(true);
  });

  it("the compacted session starts again in hookd: session-start source compact", () => {
    expect(entries.filter((e) => e.point === "session-start").map((e) => e.source)).toEqual(["startup", "compact"]);
  });

  it("an interrupt ends the turn: Interrupt is turn-end with outcome cancelled, and the session ends", () => {
    expect(entries.filter((e) => e.point === "pre-tool").map((e) => e.command)).toEqual(["echo before > before.txt", "sleep 30"]);
    expect(entries.filter((e) => e.point === "turn-end")).toEqual([expect.objectContaining({ outcome: "cancelled", session: expect.objectContaining({ agentId: "codex" }) as unknown })]);
    expect(entries.filter((e) => e.point === "turn-stopping")).toEqual([]);
    expect(entries.filter((e) => e.point === "session-end")).toHaveLength(1);
  });
});
