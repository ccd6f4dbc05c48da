// The merged hook outcome to hookd decisions, per point, and the failure policy both ways.
import { describe, expect, it } from "vitest";
import { userMessage } from "@hookd/sdk";
import type { SessionInfo } from "@hookd/sdk";
import { decide, mapMerged } from "../src/plugins/command/decide.js";
import { mergeResults as mergeWith } from "../src/plugins/command/merge.js";
import type { Merged } from "../src/plugins/command/merge.js";
import type { AgentDialect, HookResult } from "../src/agents/contract.js";
import { claudeCode } from "../src/agents/claude-code/index.js";
import { codex } from "../src/agents/codex/index.js";
import { mergeRulesOf } from "../src/plugins/command/merge.js";

/** The merge by the rules of the agent's event (Claude Code unless said). */
const merge = (event: string, results: readonly HookResult[], agent: AgentDialect = claudeCode) => mergeWith(event, results, mergeRulesOf(agent, event));

const session: SessionInfo = { sessionId: "s", agentId: "a", cwd: "/" };
const preStep = { session, turn: 1, step: 1, messages: [userMessage("hello")] };
const stop = { session, turn: 1, step: 2, stopHookActive: false, steeredContinuations: 0 };
const call = { callId: "c", rootCallId: "c", toolName: "Bash", arguments: {}, argumentsJson: "{}", sessionId: "s", turn: 1, step: 1 };
const preTool = { session, call };
const postTool = { session, call, result: { isError: false as const, value: null, content: [], contexts: [] } };

function merged(event: string, ...results: Partial<HookResult>[]): Merged {
  return merge(
    event,
    results.map((r, i) => ({ hook: `h${i}`, event, status: "ok", contexts: [], notes: [], durationMs: 1, stdout: "", stderr: "", ...r })),
  );
}

describe("mapMerged", () => {
  it("pre-tool: deny (with a default reason), ask, allow, pass; continue:false denies", () => {
    expect(mapMerged("pre-tool", "P", preTool, merged("PreToolUse", { permission: "deny" }))).toEqual({ kind: "deny", reason: "Blocked by hook" });
    expect(mapMerged("pre-tool", "P", preTool, merged("PreToolUse", { block: "nope" }))).toEqual({ kind: "deny", reason: "nope" });
    expect(mapMerged("pre-tool", "P", preTool, merged("PreToolUse", { permission: "ask", permissionReason: "sure?" }))).toEqual({ kind: "ask", reason: "sure?" });
    expect(mapMerged("pre-tool", "P", preTool, merged("PreToolUse", { permission: "allow" }))).toEqual({ kind: "allow" });
    expect(mapMerged("pre-tool", "P", preTool, merged("PreToolUse", {}))).toEqual({ kind: "pass" });
    expect(mapMerged("pre-tool", "P", preTool, merged("PreToolUse", { permission: "allow" }, { stop: { reason: "halt" } }))).toEqual({ kind: "deny", reason: "halt", stopAgent: { reason: "halt" } });
  });

  it("pre-step: block rejects with the reason; contexts enter the batch plus plugin-sourced messages", () => {
    expect(mapMerged("pre-step", "P", preStep, merged("UserPromptSubmit", { block: "no secrets" }))).toEqual({ kind: "reject", reason: "no secrets" });
    const entered = mapMerged("pre-step", "P", preStep, merged("UserPromptSubmit", { contexts: ["c1"] }, { contexts: ["c2"] }));
    expect(entered).toEqual({
      kind: "enter",
      messages: [
        preStep.messages[0],
        { id: "", role: "user", content: [{ type: "text", text: "c1" }], source: { kind: "plugin", name: "P" } },
        { id: "", role: "user", content: [{ type: "text", text: "c2" }], source: { kind: "plugin", name: "P" } },
      ],
    });
    expect(mapMerged("pre-step", "P", preStep, merged("UserPromptSubmit", {}))).toEqual({ kind: "pass" });
  });

  it("post-tool: block with feedback (keeping contexts); contexts alone accept", () => {
    expect(mapMerged("post-tool", "P", postTool, merged("PostToolUse", { block: "lint failed" }))).toEqual({ kind: "block", feedback: "lint failed" });
    const accepted = mapMerged("post-tool", "P", postTool, merged("PostToolUse", { contexts: ["note"] }));
    expect(accepted).toMatchObject({ kind: "accept", additionalContexts: [{ role: "user", source: { kind: "plugin", name: "P" }, content: [{ type: "text", text: "note" }] }] });
    expect(mapMerged("post-tool", "P", postTool, merged("PostToolUse", { block: "x", contexts: ["y"] }))).toMatchObject({ kind: "block", feedback: "x", additionalContexts: [{ content: [{ text: "y" }] }] });
  });

  it("post-tool: a hook's updatedToolOutput replaces the output the model sees (the last in the file wins); a block still wins over it", () => {
    expect(mapMerged("post-tool", "P", postTool, merged("PostToolUse", { updatedOutput: "token=[REDACTED]" }))).toEqual({ kind: "accept", value: "token=[REDACTED]" });
    expect(mapMerged("post-tool", "P", postTool, merged("PostToolUse", { updatedOutput: "first" }, { updatedOutput: "second", contexts: ["note"] }))).toMatchObject({ kind: "accept", value: "second", additionalContexts: [{ content: [{ text: "note" }] }] });
    expect(mapMerged("post-tool", "P", postTool, merged("PostToolUse", { updatedOutput: "x" }, { block: "leak" }))).toEqual({ kind: "block", feedback: "leak" });
  });

  it("turn-stopping: block steers with the reason as a user-role message sourced to the plugin; continue:false closes", () => {
    expect(mapMerged("turn-stopping", "P", stop, merged("Stop", { block: "run the tests" }))).toEqual({
      kind: "steer",
      messages: [{ id: "", role: "user", content: [{ type: "text", text: "run the tests" }], source: { kind: "plugin", name: "P" } }],
    });
    expect(mapMerged("turn-stopping", "P", stop, merged("Stop", { block: "go on" }, { stop: {} }))).toEqual({ kind: "pass", stopAgent: { reason: "Blocked by hook" } });
  });

  it("rewrite: the file's updatedInput folds in FILE order (the last hook in the file wins, not the last to finish)", () => {
    const results = merged("PreToolUse", { updatedInput: { command: "first" }, durationMs: 900 }, { updatedInput: { command: "second" }, durationMs: 1 });
    expect(results.updatedInput).toEqual({ input: { command: "second" }, by: "h1" });
    expect(mapMerged("rewrite", "P", preTool, results)).toEqual({ kind: "replace", arguments: { command: "second" } });
    // A hook that denies does not rewrite; a non-object is no set of arguments.
    expect(mapMerged("rewrite", "P", preTool, merged("PreToolUse", { updatedInput: { command: "a" } }, { updatedInput: { command: "b" }, permission: "deny" }))).toEqual({ kind: "replace", arguments: { command: "a" } });
    expect(mapMerged("rewrite", "P", preTool, merged("PreToolUse", { updatedInput: [1] }))).toEqual({ kind: "pass" });
    expect(mapMerged("rewrite", "P", preTool, merged("PreToolUse", { permission: "deny" }))).toEqual({ kind: "pass" });
  });

  it("rewrite, Codex: updatedInput counts only beside permissionDecision allow", () => {
    const results = merge("PreToolUse", [
      { hook: "a", event: "PreToolUse", status: "ok", contexts: [], notes: [], durationMs: 1, stdout: "", stderr: "", updatedInput: { command: "x" } },
      { hook: "b", event: "PreToolUse", status: "ok", contexts: [], notes: [], durationMs: 1, stdout: "", stderr: "", updatedInput: { command: "y" }, permission: "allow" },
    ], codex);
    expect(results.updatedInput).toEqual({ input: { command: "y" }, by: "b" });
    expect(results.notes).toEqual(['a: hookSpecificOutput.updatedInput ignored: Codex applies it only beside permissionDecision "allow"']);
  });

  it("approval: any deny wins (behavior deny, exit 2 or continue:false) and rejects; allow approves; nothing passes", () => {
    const ask = { session, call, reason: "sure?", askedBy: "gate" };
    expect(mapMerged("approval", "P", ask, merged("PermissionRequest", { approval: { behavior: "allow" } }, { approval: { behavior: "deny", message: "not prod" } }))).toEqual({ kind: "reject", reason: "not prod" });
    expect(mapMerged("approval", "P", ask, merged("PermissionRequest", { approval: { behavior: "allow" } }, { block: "exit two" }))).toEqual({ kind: "reject", reason: "exit two" });
    expect(mapMerged("approval", "P", ask, merged("PermissionRequest", { approval: { behavior: "deny" } }))).toEqual({ kind: "reject", reason: "Blocked by hook" });
    expect(mapMerged("approval", "P", ask, merged("PermissionRequest", { approval: { behavior: "allow" } }))).toEqual({ kind: "approve" });
    expect(mapMerged("approval", "P", ask, merged("PermissionRequest", { stop: { reason: "halt" } }))).toEqual({ kind: "reject", reason: "halt", stopAgent: { reason: "halt" } });
    expect(mapMerged("approval", "P", ask, merged("PermissionRequest", {}))).toEqual({ kind: "pass" });
  });

  it("a refusal without a reason reads as the agent's own wording: hookd's hook and plugin names stay out of what the model sees", () => {
    for (const agent of [claudeCode, codex]) {
      const wording = agent.commandHooks.blockedWithoutReason;
      const reasons = [
        decide("pre-tool", "P", preTool, merged("PreToolUse", { permission: "deny" }), "fail-open", undefined, wording),
        decide("pre-tool", "P", preTool, merged("PreToolUse", { permission: "allow" }, { stop: {} }), "fail-open", undefined, wording),
        decide("approval", "P", { session, call, reason: "sure?", askedBy: "gate" }, merged("PermissionRequest", { approval: { behavior: "deny" } }), "fail-open", undefined, wording),
        decide("pre-step", "P", preStep, merged("UserPromptSubmit", { stop: {} }), "fail-open", undefined, wording),
      ].map((decided) => (decided.type === "answer" && "reason" in decided.answer ? decided.answer.reason : decided));
      expect(reasons).toEqual([wording, wording, wording, wording]);
    }
    expect(claudeCode.commandHooks.blockedWithoutReason).toBe("Blocked by hook");
  });

  it("the hooks' systemMessages are the answer's message for the user, joined in file order, at every point that answers, a pass included", () => {
    const said = merged("PreToolUse", { systemMessage: "first says hi" }, { systemMessage: "second warns", permission: "deny", permissionReason: "no" });
    expect(mapMerged("pre-tool", "P", preTool, said)).toEqual({ kind: "deny", reason: "no", userMessage: "first says hi\n\nsecond warns" });
    expect(mapMerged("pre-step", "P", preStep, merged("UserPromptSubmit", { systemMessage: "warn only" }))).toEqual({ kind: "pass", userMessage: "warn only" });
    expect(mapMerged("turn-stopping", "P", stop, merged("Stop", { systemMessage: "Stop says hello" }))).toEqual({ kind: "pass", userMessage: "Stop says hello" });
    // A hook's continue:false with its stopReason is the stop request, as written.
    expect(mapMerged("pre-step", "P", preStep, merged("UserPromptSubmit", { stop: { reason: "enough" } }))).toEqual({ kind: "reject", reason: "enough", stopAgent: { reason: "enough" } });
    // Observers answer nothing.
    expect(mapMerged("session-end", "P", { session, reason: "closed" as const, detail: "", turns: 1 }, merged("SessionEnd", { systemMessage: "bye" }))).toEqual({ kind: "pass" });
  });

  it("session-end and turn-end observe: whatever the hooks say, they pass", () => {
    const end = { session, reason: "closed" as const, detail: "", turns: 1 };
    expect(mapMerged("session-end", "P", end, merged("SessionEnd", { block: "no", contexts: ["c"] }))).toEqual({ kind: "pass" });
    const turnEnd = { session, turn: 1, outcome: "error" as const, detail: "boom", steps: 1 };
    expect(mapMerged("turn-end", "P", turnEnd, merged("StopFailure", { block: "no" }))).toEqual({ kind: "pass" });
  });

  it("session-start: contexts inject", () => {
    expect(mapMerged("session-start", "P", { session, source: "startup", tools: [] }, merged("SessionStart", { contexts: ["branch main"] }))).toMatchObject({ kind: "inject", messages: [{ content: [{ text: "branch main" }] }] });
  });
});

describe("decide: failure policy", () => {
  const failing = { status: "error" as const, error: { kind: "timeout" as const, message: "no answer within 1 s" } };

  it("fail-open: a failed hook is a fault with its cause (the engine passes over it), the others still decide", () => {
    expect(decide("pre-tool", "P", preTool, merged("PreToolUse", failing), "fail-open")).toEqual({ type: "fault", cause: "deadline_exceeded", detail: "h0: no answer within 1 s" });
    expect(decide("pre-tool", "P", preTool, merged("PreToolUse", failing, { permission: "ask" }), "fail-open")).toMatchObject({ type: "answer", answer: { kind: "ask" } });
  });

  it("fail-closed: a failed hook is a fault (the point refuses), unless another hook already refused", () => {
    expect(decide("pre-tool", "P", preTool, merged("PreToolUse", failing, { permission: "allow" }), "fail-closed")).toEqual({ type: "fault", cause: "deadline_exceeded", detail: "h0: no answer within 1 s" });
    expect(decide("pre-step", "P", preStep, merged("UserPromptSubmit", { status: "error", error: { kind: "garbage", message: "bad json" } }), "fail-closed")).toMatchObject({ type: "fault", cause: "invalid_answer" });
    expect(decide("pre-tool", "P", preTool, merged("PreToolUse", failing, { permission: "deny", permissionReason: "real reason" }), "fail-closed")).toEqual({
      type: "answer",
      answer: { kind: "deny", reason: "real reason" },
    });
    expect(decide("pre-tool", "P", preTool, merged("PreToolUse", { permission: "allow" }), "fail-closed")).toEqual({ type: "answer", answer: { kind: "allow" } });
  });
});
