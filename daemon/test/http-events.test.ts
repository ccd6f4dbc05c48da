// The HTTP hook endpoint's mapping of every Claude Code / Codex event to its point (lineage,
// pass-through fields), the tool answers (allow never bypasses the agent's permissions unless the
// plugin's config says so; rewrites in each agent's form) and the per-dialect output allowlist.
// The payloads are the agents' own shapes (Claude Code 2.1.3xx, Codex 0.17x hook input schemas).
import { describe, expect, it } from "vitest";
import { approve, ask, deny, pass, reject } from "@hookd/sdk";
import type { JsonObject, ToolCall } from "@hookd/sdk";
import { agentPermissionBypass } from "../src/config/bypass.js";
import { pluginSchema } from "../src/config/plugin-schema.js";
import { CLAUDE_ANSWERS, preStepAnswer, sessionStartAnswer } from "../src/agents/claude-code/answer.js";
import type { HookRequest, RequestContext } from "../src/agents/contract.js";
import { approvalAnswer, fitAnswer, forwardedOutput, preToolAnswer, readRequest as readHookRequest } from "./fixtures/agent-calls.js";

const context: RequestContext & { readonly dialect?: string } = { agentId: "claude-code", dialect: "claude-code", steeredContinuations: () => 0 };
const common = { session_id: "main-1", transcript_path: "/home/u/.claude/projects/p/main-1.jsonl", cwd: "/repo", permission_mode: "default" };
const read = (fields: Record<string, unknown>, ctx: RequestContext & { readonly dialect?: string } = context): HookRequest => readHookRequest(JSON.stringify({ ...common, ...fields }), ctx);

function call(args: JsonObject, rewrittenBy?: readonly string[], toolName = "Bash"): ToolCall {
  return { callId: "c", rootCallId: "c", toolName, arguments: args, argumentsJson: JSON.stringify(args), sessionId: "s", turn: 0, step: 0, ...(rewrittenBy === undefined ? {} : { rewrittenBy }) };
}

describe("every event to its point", () => {
  it("SubagentStart opens the subagent's own session with lineage; its tool calls and stop belong to it", () => {
    const start = read({ hook_event_name: "SubagentStart", agent_id: "a7f", agent_type: "Explore" });
    expect(start).toMatchObject({ point: "session-start", data: { source: "subagent", session: { sessionId: "a7f", parentSessionId: "main-1", agentType: "Explore", agentId: "claude-code" } } });
    const tool = read({ hook_event_name: "PreToolUse", agent_id: "a7f", agent_type: "Explore", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_s" });
    expect(tool).toMatchObject({ point: "pre-tool", data: { session: { sessionId: "a7f", parentSessionId: "main-1" }, call: { sessionId: "a7f", callId: "toolu_s" } } });
    const seen: string[] = [];
    const stop = read(
      { hook_event_name: "SubagentStop", agent_id: "a7f", agent_type: "Explore", agent_transcript_path: "/t/a7f.jsonl", stop_hook_active: false, last_assistant_message: "found it" },
      { ...context, steeredContinuations: (sessionId) => (seen.push(sessionId), 0) },
    );
    expect(stop).toMatchObject({ point: "turn-stopping", data: { session: { sessionId: "a7f", parentSessionId: "main-1" }, lastAssistantMessage: { role: "assistant" } } });
    // The continuation cap counts the subagent's stops apart from its parent's.
    expect(seen).toEqual(["a7f"]);
    // A top-level event names no parent.
    expect(read({ hook_event_name: "Stop", stop_hook_active: false }).session).toEqual({ sessionId: "main-1", agentId: "claude-code", cwd: "/repo" });
  });

  it("PermissionRequest -> approval; PostToolUseFailure -> post-tool with the failure; SessionEnd and StopFailure", () => {
    expect(read({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "git push" }, permission_suggestions: [] })).toMatchObject({
      point: "approval",
      data: { askedBy: "claude-code", reason: "claude-code asks permission to run Bash", call: { toolName: "Bash", argumentsJson: '{"command":"git push"}' } },
    });
    expect(read({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: { command: "false" }, tool_use_id: "t", error: "Exit code 1" })).toMatchObject({
      point: "post-tool",
      data: { result: { isError: true, code: "tool_error", message: "Exit code 1" } },
    });
    expect(read({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: {}, tool_use_id: "t", error: "stopped", is_interrupt: true })).toMatchObject({ data: { result: { code: "interrupted" } } });
    expect(read({ hook_event_name: "SessionEnd", reason: "clear" })).toMatchObject({ point: "session-end", data: { reason: "cleared", detail: "the agent ended the session (clear)" } });
    expect(read({ hook_event_name: "SessionEnd", reason: "prompt_input_exit" })).toMatchObject({ data: { reason: "closed", detail: expect.stringContaining("prompt_input_exit") as unknown } });
    expect(read({ hook_event_name: "SessionEnd", reason: "other" }, { ...context, agentId: "codex", dialect: "codex" })).toMatchObject({ data: { reason: "closed" } });
    expect(read({ hook_event_name: "StopFailure", error: "rate_limit", error_details: "429 from the API" })).toMatchObject({ point: "turn-end", data: { outcome: "error", detail: "rate_limit: 429 from the API" } });
    // As the real Claude Code sends an API error: no error_details, the error text as the last assistant message.
    expect(read({ hook_event_name: "StopFailure", error: "unknown", last_assistant_message: "API Error: 400 refused" })).toMatchObject({ data: { outcome: "error", detail: "unknown: API Error: 400 refused" } });
    expect(read({ hook_event_name: "StopFailure", error: "unknown", error_details: "", last_assistant_message: "" })).toMatchObject({ data: { detail: "unknown" } });
    expect(read({ hook_event_name: "SessionStart", source: "fork" })).toMatchObject({ point: "session-start", data: { source: "resume" } });
  });

  it("Codex: Interrupt ends the turn cancelled; a PermissionRequest without tool_use_id is an approval; PreCompact / PostCompact are generic", () => {
    const codex: RequestContext & { readonly dialect?: string } = { ...context, agentId: "codex", dialect: "codex" };
    const base = { transcript_path: null, permission_mode: "default", turn_id: "t1", model: "gpt-fake" };
    expect(read({ ...base, hook_event_name: "Interrupt" }, codex)).toMatchObject({ point: "turn-end", data: { outcome: "cancelled", session: { sessionId: "main-1", agentId: "codex" } } });
    expect(read({ ...base, hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "touch /etc/x", description: "needs it" } }, codex)).toMatchObject({
      point: "approval",
      data: { askedBy: "codex", call: { toolName: "Bash", callId: expect.any(String) as unknown, argumentsJson: '{"command":"touch /etc/x","description":"needs it"}' } },
    });
    for (const event of ["PreCompact", "PostCompact"]) expect(read({ ...base, hook_event_name: event, trigger: "auto" }, codex)).toMatchObject({ point: "agent-event", event, payload: { trigger: "auto" } });
  });

  it("passes transcript_path and permission_mode through; a generic event keeps its whole payload", () => {
    const event = read({ hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" });
    expect(event.passThrough).toEqual({ transcriptPath: common.transcript_path, permissionMode: "default" });
    expect(event).toMatchObject({ point: "agent-event", event: "PreCompact", payload: { trigger: "auto", transcript_path: common.transcript_path, permission_mode: "default" } });
    // Codex sends transcript_path null when it has none.
    expect(read({ hook_event_name: "Stop", transcript_path: null, permission_mode: "bypassPermissions", turn_id: "t1", model: "gpt-5" }).passThrough).toEqual({ permissionMode: "bypassPermissions", model: "gpt-5" });
  });
});

describe("PreToolUse answers: allow does not bypass; rewrites in each agent's form", () => {
  const allow = { kind: "allow" as const };
  it("an allow answers no opinion unless the deciding plugin may bypass", () => {
    expect(preToolAnswer({ decision: allow, decidedBy: "policy", bypass: false }, "claude-code")).toEqual({});
    expect(preToolAnswer({ decision: allow, decidedBy: "policy", bypass: true }, "claude-code")).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "allowed by policy" },
    });
    // Codex refuses an allow without updatedInput: no opinion, whatever the config.
    expect(preToolAnswer({ decision: allow, decidedBy: "policy", bypass: true }, "codex")).toEqual({});
  });

  it("Claude Code: the whole new input, with no permission decision unless bypassing; ask keeps the rewrite", () => {
    const rewritten = call({ command: "ls -la" }, ["confine"]);
    expect(preToolAnswer({ decision: allow, decidedBy: "default", rewritten, bypass: false }, "claude-code")).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "ls -la" } } });
    expect(preToolAnswer({ decision: allow, decidedBy: "trusted", rewritten, bypass: true }, "claude-code")).toMatchObject({ hookSpecificOutput: { permissionDecision: "allow", updatedInput: { command: "ls -la" } } });
    expect(preToolAnswer({ decision: ask("push?"), decidedBy: "p", rewritten, bypass: false }, "claude-code")).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "push?", updatedInput: { command: "ls -la" } },
    });
    expect(preToolAnswer({ decision: deny("no"), decidedBy: "p", rewritten, bypass: false }, "claude-code")).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } });
  });

  it("Codex: allow + updatedInput, a string command for its shell, else a deny", () => {
    expect(preToolAnswer({ decision: allow, decidedBy: "default", rewritten: call({ command: "ls -la" }, ["confine"]), bypass: false }, "codex")).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "rewritten by confine", updatedInput: { command: "ls -la" } },
    });
    expect(preToolAnswer({ decision: allow, decidedBy: "default", rewritten: call({ command: ["ls", "-la"] }, ["argv"]), bypass: false }, "codex")).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: 'the rewrite of Bash cannot reach Codex: its shell takes only a string "command"' },
    });
    expect(preToolAnswer({ decision: allow, decidedBy: "default", rewritten: call({ path: "b" }, ["r"], "apply_patch"), bypass: false }, "codex")).toMatchObject({ hookSpecificOutput: { updatedInput: { path: "b" } } });
  });

  it("PermissionRequest: approve allows, reject denies with the reason, pass leaves the agent's prompt", () => {
    expect(approvalAnswer(approve())).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } });
    expect(approvalAnswer(reject("not on Fridays"))).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "not on Fridays" } } });
    expect(approvalAnswer(pass())).toEqual({});
  });

  it("a rejected prompt is a block with its reason and nothing more (no continue:false unless a plugin asked to stop); SubagentStart context", () => {
    expect(preStepAnswer(reject("no secrets"))).toEqual({ decision: "block", reason: "no secrets" });
    expect(CLAUDE_ANSWERS.notice(preStepAnswer(reject("no secrets")), { stopAgent: { reason: "stopped" }, userMessage: "see the policy" })).toEqual({
      decision: "block",
      reason: "no secrets",
      continue: false,
      stopReason: "stopped",
      systemMessage: "see the policy",
    });
    expect(forwardedOutput(preStepAnswer(reject("no secrets")), "codex")).toEqual({ exitCode: 2, text: "no secrets\n" });
    expect(sessionStartAnswer([{ id: "", role: "user", source: { kind: "plugin", name: "p" }, content: [{ type: "text", text: "be brief" }] }], "SubagentStart")).toEqual({
      hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "be brief" },
    });
  });
});

describe("the per-dialect output allowlist", () => {
  it("Codex: fields it does not support at an event are dropped and named", () => {
    expect(fitAnswer({ continue: false, stopReason: "x", systemMessage: "m", hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "r" } }, "PreToolUse", "codex")).toEqual({
      answer: { systemMessage: "m", hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "r" } },
      dropped: ["continue", "stopReason"],
    });
    expect(fitAnswer({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "r" } }, "PreToolUse", "codex")).toEqual({
      answer: {},
      dropped: ["hookSpecificOutput.permissionDecision", "hookSpecificOutput.permissionDecisionReason"],
    });
    expect(fitAnswer({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "x", additionalContext: "c" } }, "PostToolUse", "codex")).toEqual({
      answer: { hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "c" } },
      dropped: ["hookSpecificOutput.updatedToolOutput"],
    });
    expect(fitAnswer({ systemMessage: "m" }, "SessionEnd", "codex")).toEqual({ answer: {}, dropped: ["systemMessage"] });
    expect(fitAnswer({ decision: "block", reason: "r", continue: false, stopReason: "r" }, "UserPromptSubmit", "codex").dropped).toEqual([]);
    expect(fitAnswer({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "m" } } }, "PermissionRequest", "codex").dropped).toEqual([]);
  });

  it("Claude Code: hookSpecificOutput only where the event has one", () => {
    expect(fitAnswer({ systemMessage: "m", hookSpecificOutput: { hookEventName: "Stop", additionalContext: "x" } }, "Stop", "claude-code")).toEqual({ answer: { systemMessage: "m" }, dropped: ["hookSpecificOutput"] });
    const post = { hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "x", updatedMCPToolOutput: "x", additionalContext: "c" } };
    expect(fitAnswer(post, "PostToolUse", "claude-code")).toEqual({ answer: post, dropped: [] });
    expect(fitAnswer({ continue: false, stopReason: "r", hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", updatedInput: {} } }, "PreToolUse", "claude-code").dropped).toEqual([]);
  });
});

describe("bypassAgentPermissions (config)", () => {
  it("is false unless a plugin's entry says true; any other value is an error naming the key", () => {
    const plugins = [pluginSchema.parse({ name: "a", kind: "in-process", module: "./a.js", bypassAgentPermissions: true }), pluginSchema.parse({ name: "b", kind: "in-process", module: "./b.js" })];
    const config = { plugins };
    const bypass = agentPermissionBypass(() => config);
    expect([bypass("a"), bypass("b"), bypass("default"), bypass("nobody")]).toEqual([true, false, false, false]);
    const bad = pluginSchema.safeParse({ name: "a", kind: "in-process", module: "./a.js", bypassAgentPermissions: "yes" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["bypassAgentPermissions"]);
  });

  it("a command plugin's hooks keep the agent's meaning of an allow unless its entry says false", () => {
    const plugins = [
      pluginSchema.parse({ name: "own", kind: "command", hooks: "./settings.json", dialect: "claude-code" }),
      pluginSchema.parse({ name: "strict", kind: "command", hooks: "./settings.json", dialect: "claude-code", bypassAgentPermissions: false }),
      pluginSchema.parse({ name: "typed", kind: "in-process", module: "./t.js" }),
    ];
    const bypass = agentPermissionBypass(() => ({ plugins }));
    expect([bypass("own"), bypass("strict"), bypass("typed")]).toEqual([true, false, false]);
  });
});
