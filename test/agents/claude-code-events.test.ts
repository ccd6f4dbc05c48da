// What the real Claude Code sends for the events beyond the scenario's five, recorded by a hook
// endpoint that answers `{}`: every event Claude Code has is registered as an http hook, and the
// scripted model drives a subagent (the Agent tool), a failing command and the session's end.
// Also: a subagent's tool call goes through hookd's pre-tool gate (the policy denies its rm -r).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel } from "./fake-model/server.js";
import type { Script } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { runClaude } from "./support/claude.js";
import type { ClaudeRun } from "./support/claude.js";
import { startPolicyDaemon } from "./support/policy.js";
import type { PolicyDaemon, PolicyEntry } from "./support/policy.js";
import { startRecorder } from "./support/recorder.js";
import { concrete, documentedHooks } from "./support/snippets.js";
import type { HookRecorder } from "./support/recorder.js";
import { MARK, prepareCwd } from "./support/scenario.js";

const ALL_EVENTS = [
  "SessionStart", "Setup", "SessionEnd", "UserPromptSubmit", "UserPromptExpansion", "PreToolUse", "PermissionRequest", "PermissionDenied",
  "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "MessageDisplay", "SubagentStart", "SubagentStop", "TaskCreated",
  "TaskCompleted", "TeammateIdle", "Stop", "StopFailure", "InstructionsLoaded", "ConfigChange", "CwdChanged", "DirectoryAdded", "FileChanged",
  "WorktreeCreate", "WorktreeRemove", "PreCompact", "PostCompact", "Elicitation", "ElicitationResult",
];
const SUBTASK = "SUBAGENT-TASK-31a: clean the directory";

// The main conversation starts a subagent, then runs a failing command, then answers; the
// subagent (its first prompt is SUBTASK) tries rm -r, then a harmless command, then answers.
const script: Script = (c) => {
  if (c.tools.length === 0) return { kind: "text", text: "ok" };
  if (c.userTexts.some((t) => t.includes(SUBTASK))) {
    const steps = [{ kind: "shell", command: "rm -r victim" }, { kind: "shell", command: "echo sub-ran > sub.txt" }] as const;
    return steps[c.toolResults.length] ?? { kind: "text", text: "SUB-DONE" };
  }
  if (c.toolResults.length === 0) return { kind: "tool", name: "Agent", input: { description: "clean up", prompt: SUBTASK, subagent_type: "general-purpose" } };
  if (c.toolResults.length === 1) return { kind: "shell", command: "exit 3" };
  return { kind: "text", text: "DONE" };
};

describe("Claude Code's events, recorded", () => {
  let recorder: HookRecorder;
  let policy: PolicyDaemon;
  let run: ClaudeRun;
  let cwd: string;
  let entries: PolicyEntry[];

  beforeAll(async () => {
    recorder = await startRecorder();
    policy = await startPolicyDaemon();
    const model = await startFakeModel(script);
    const home = await tempDir("claude-home");
    cwd = await tempDir("claude-cwd");
    prepareCwd(cwd);
    const hooks: Record<string, unknown> = {};
    for (const event of ALL_EVENTS) {
      const handlers: unknown[] = [{ type: "http", url: `${recorder.url}/${event}`, timeout: 30 }];
      // hookd gates every tool call, the subagent's included.
      if (event === "PreToolUse") handlers.push({ type: "http", url: `${policy.hookUrl}/hooks/PreToolUse`, timeout: 30 });
      hooks[event] = [{ matcher: "*", hooks: handlers }];
    }
    try {
      run = await runClaude({ home, cwd, modelUrl: model.url, hooks, prompt: "Clean up with a helper agent.", args: ["--allowedTools", "Bash", "Agent"] });
    } finally {
      await model.close();
    }
    entries = await policy.entries();
  }, 120_000);

  afterAll(async () => {
    await recorder?.close();
    await policy?.stop();
  });

  it("sends the events the turn drives, with their payloads; never SessionStart over http", () => {
    expect(run.code, run.stderr).toBe(0);
    const events = new Set(recorder.events());
    for (const event of ["UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"]) expect(events, event).toContain(event);
    // Claude Code runs no http hook at SessionStart (it logs that it skips it): the snippets use the forwarder there.
    expect(events).not.toContain("SessionStart");
    const failure = recorder.bodies.find((b) => b.hook_event_name === "PostToolUseFailure");
    expect(failure).toMatchObject({ tool_name: "Bash", tool_input: { command: "exit 3" } });
    expect(recorder.bodies.find((b) => b.hook_event_name === "SessionEnd")).toMatchObject({ reason: expect.any(String) as unknown });
    for (const body of recorder.bodies) expect(body).toMatchObject({ session_id: expect.any(String) as unknown, cwd: expect.any(String) as unknown });
  });

  it("reports a subagent's tool calls with its lineage (agent_id, agent_type), and SubagentStart/Stop name it", () => {
    const start = recorder.bodies.find((b) => b.hook_event_name === "SubagentStart");
    expect(start).toMatchObject({ agent_id: expect.any(String) as unknown, agent_type: "general-purpose" });
    const subCall = recorder.bodies.find((b) => b.hook_event_name === "PreToolUse" && (b.tool_input as { command?: string } | undefined)?.command === "rm -r victim");
    expect(subCall).toMatchObject({ agent_id: start?.agent_id, agent_type: "general-purpose", session_id: start?.session_id });
    expect(recorder.bodies.find((b) => b.hook_event_name === "SubagentStop")).toMatchObject({ agent_id: start?.agent_id });
  });

  it("gates the subagent's tool calls through hookd: its rm -r is denied, its harmless command runs", () => {
    expect(existsSync(join(cwd, "victim"))).toBe(true);
    expect(existsSync(join(cwd, "sub.txt"))).toBe(true);
    expect(entries.filter((e) => e.point === "pre-tool").map((e) => e.command)).toEqual(expect.arrayContaining(["rm -r victim", "echo sub-ran > sub.txt"]));
    expect(MARK.denyReason).toContain("rm -r");
  });

  it("puts the subagent's tool calls in its own session, with lineage", () => {
    const start = recorder.bodies.find((b) => b.hook_event_name === "SubagentStart");
    const gated = entries.find((e) => e.point === "pre-tool" && e.command === "rm -r victim");
    expect(gated?.session).toMatchObject({ sessionId: start?.agent_id, parentSessionId: start?.session_id, agentType: "general-purpose" });
    const main = entries.find((e) => e.point === "pre-tool" && e.tool === "Agent");
    expect(main).toBeDefined();
    expect(main?.session.parentSessionId ?? "").toBe("");
  });
});

// Headless Claude Code (no --allowedTools) asks its PermissionRequest hook before a command that
// writes a file; the hook's `decision.behavior` is the answer. The shape hookd's approval point
// answers with over http.
describe.each([
  { answer: "allow", ran: true },
  { answer: "none", ran: false },
])("Claude Code's PermissionRequest answered $answer", ({ answer, ran }) => {
  it(ran ? "runs the command" : "refuses the command, and the model is told it needs approval", async () => {
    const recorder = await startRecorder((body) =>
      body.hook_event_name === "PermissionRequest" && answer === "allow" ? { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } } : {},
    );
    const model = await startFakeModel((c) => (c.tools.length === 0 ? { kind: "text", text: "ok" } : c.toolResults.length === 0 ? { kind: "shell", command: "echo approved > approved.txt" } : { kind: "text", text: "DONE" }));
    try {
      const home = await tempDir("claude-home");
      const dir = await tempDir("claude-cwd");
      const hooks = { PermissionRequest: [{ matcher: "*", hooks: [{ type: "http", url: `${recorder.url}/PermissionRequest`, timeout: 30 }] }] };
      const result = await runClaude({ home, cwd: dir, modelUrl: model.url, hooks, prompt: "write it" });
      expect(result.code, result.stderr).toBe(0);
      expect(recorder.bodies).toHaveLength(1);
      expect(recorder.bodies[0]).toMatchObject({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "echo approved > approved.txt" }, permission_mode: "default" });
      expect(existsSync(join(dir, "approved.txt"))).toBe(ran);
      const toolResult = model.conversations().at(-1)?.toolResults[0] ?? "";
      if (!ran) expect(toolResult).toMatch(/needs approval/);
    } finally {
      await model.close();
      await recorder.close();
    }
  }, 120_000);
});

// A PreToolUse answer's updatedInput replaces the whole input, and Claude Code itself runs the
// replaced command: the form hookd's rewrite point answers with.
it("Claude Code runs the command a PreToolUse updatedInput rewrote", async () => {
  const recorder = await startRecorder((body) =>
    body.hook_event_name === "PreToolUse"
      ? { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo rewritten > rewritten.txt", description: "rewritten" } } }
      : {},
  );
  const model = await startFakeModel((c) => (c.tools.length === 0 ? { kind: "text", text: "ok" } : c.toolResults.length === 0 ? { kind: "shell", command: "echo original > original.txt" } : { kind: "text", text: "DONE" }));
  try {
    const home = await tempDir("claude-home");
    const dir = await tempDir("claude-cwd");
    const hooks = { PreToolUse: [{ matcher: "*", hooks: [{ type: "http", url: `${recorder.url}/PreToolUse`, timeout: 30 }] }] };
    const result = await runClaude({ home, cwd: dir, modelUrl: model.url, hooks, prompt: "write it", args: ["--allowedTools", "Bash"] });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, "rewritten.txt"))).toBe(true);
    expect(existsSync(join(dir, "original.txt"))).toBe(false);
  } finally {
    await model.close();
    await recorder.close();
  }
}, 120_000);

// Through hookd: the README's http snippet, no --allowedTools, so Claude Code's own rules ask
// before a command that writes a file; hookd's approval plugin answers the PermissionRequest.
it("a permission request from Claude Code is answered by hookd's approval plugin", async () => {
  const policy = await startPolicyDaemon();
  const model = await startFakeModel((c) => (c.tools.length === 0 ? { kind: "text", text: "ok" } : c.toolResults.length === 0 ? { kind: "shell", command: "echo approved > approved.txt" } : { kind: "text", text: "DONE" }));
  try {
    const home = await tempDir("claude-home");
    const dir = await tempDir("claude-cwd");
    const result = await runClaude({ home, cwd: dir, modelUrl: model.url, hooks: concrete(documentedHooks("claude-code-http"), "c-forwarder", policy.hookUrl), prompt: "write it" });
    expect(result.code, result.stderr).toBe(0);
    expect(existsSync(join(dir, "approved.txt"))).toBe(true);
    expect((await policy.entries()).filter((e) => e.point === "approval")).toEqual([expect.objectContaining({ tool: "Bash", command: "echo approved > approved.txt" })]);
  } finally {
    await model.close();
    await policy.stop();
  }
}, 120_000);
