// The HTTP hook endpoint's pure parts: request bodies to typed, sealed hookd events (400s name the
// field), and evaluation results to the agents' JSON answers per dialect.
import { describe, expect, it } from "vitest";
import { accept, ask, block, deny, enter, pluginMessage, reject, steer, userMessage } from "@hookd/sdk";
import type { ToolCall } from "@hookd/sdk";
import { preStepAnswer, sessionStartAnswer, stopAnswer } from "../src/agents/claude-code/answer.js";
import { isFieldError } from "@hookd/sdk/internal";
import type { RequestContext } from "../src/agents/contract.js";
import { StopCounter } from "../src/http/stop-counter.js";
import { postToolAnswer, preToolAnswer, readRequest as readHookRequest } from "./fixtures/agent-calls.js";

const context: RequestContext & { dialect?: string } = { agentId: "claude-code", steeredContinuations: () => 0 };
const body = (value: Record<string, unknown>): string => JSON.stringify({ session_id: "s1", cwd: "/repo", ...value });

function badField(text: string, ctx: RequestContext & { dialect?: string } = context): string {
  try {
    readHookRequest(text, ctx);
  } catch (error) {
    if (isFieldError(error)) return error.message;
    throw error;
  }
  throw new Error("expected a field error");
}

describe("readHookRequest", () => {
  it("seals a PreToolUse call: callId from tool_use_id, lossless frozen arguments, turn/step 0", () => {
    const request = readHookRequest('{"session_id":"s1","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_use_id":"toolu_9","tool_input":{"command":"ls","n":98765432109876543210}}', context);
    expect(request.event).toBe("PreToolUse");
    if (request.point !== "pre-tool") throw new Error(`expected pre-tool, got ${request.point}`);
    const call: ToolCall = request.data.call;
    expect(call).toMatchObject({ callId: "toolu_9", rootCallId: "toolu_9", toolName: "Bash", sessionId: "s1", turn: 0, step: 0 });
    expect(call.argumentsJson).toBe('{"command":"ls","n":98765432109876543210}');
    expect(Object.isFrozen(call.arguments)).toBe(true);
    expect(request.data.session).toEqual({ sessionId: "s1", agentId: "claude-code", cwd: "/repo" });
  });

  it("builds the other events", () => {
    expect(readHookRequest(body({ hook_event_name: "UserPromptSubmit", prompt: "hi" }), context)).toMatchObject({ event: "UserPromptSubmit", point: "pre-step", data: { turn: 0, messages: [{ role: "user", content: [{ text: "hi" }] }] } });
    expect(readHookRequest(body({ hook_event_name: "SessionStart", source: "resume" }), context)).toMatchObject({ event: "SessionStart", data: { source: "resume", tools: [] } });
    expect(readHookRequest(body({ hook_event_name: "PostToolUse", tool_name: "Read", tool_input: {}, tool_response: "file text" }), context)).toMatchObject({
      event: "PostToolUse",
      data: { result: { isError: false, value: "file text", content: [{ type: "text", text: "file text" }] } },
    });
    expect(readHookRequest(body({ hook_event_name: "Stop", stop_hook_active: true, last_assistant_message: "done" }), { ...context, steeredContinuations: (_s, active) => (active ? 3 : 0) })).toMatchObject({
      event: "Stop",
      data: { stopHookActive: true, steeredContinuations: 3, lastAssistantMessage: { role: "assistant" } },
    });
    expect(readHookRequest(body({ hook_event_name: "Notification", message: "x" }), context)).toMatchObject({
      event: "Notification",
      point: "agent-event",
      payload: { hook_event_name: "Notification", message: "x", session_id: "s1" },
    });
  });

  it("answers 400-worthy problems naming the field", () => {
    expect(badField("{nope")).toMatch(/^\(body\): not valid JSON/);
    expect(badField("[1]")).toBe("(body): expected a JSON object");
    expect(badField(JSON.stringify({ hook_event_name: "Stop" }))).toBe("session_id: required");
    expect(badField(body({ hook_event_name: 7 }))).toBe("hook_event_name: expected a string, got number");
    expect(badField(body({ hook_event_name: "PreToolUse", tool_input: {} }))).toBe("tool_name: required");
    expect(badField(body({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: [1] }))).toBe("tool_input: expected an object");
    expect(badField(body({ hook_event_name: "UserPromptSubmit" }))).toBe("prompt: required");
    expect(badField(body({ hook_event_name: "SessionStart", source: "reboot" }))).toBe("source: expected one of startup, resume, clear, compact, fork");
    expect(badField(body({ hook_event_name: "SubagentStart", agent_type: "Explore" }))).toBe("agent_id: required");
    expect(badField(body({ hook_event_name: "PermissionRequest", tool_input: {} }))).toBe("tool_name: required");
    expect(badField(body({ hook_event_name: "SessionEnd", reason: 3 }))).toBe("reason: expected a string, got number");
    expect(badField(body({ hook_event_name: "Stop", stop_hook_active: "yes" }))).toBe("stop_hook_active: expected true or false");
    expect(badField(body({ hook_event_name: "Stop" }), { ...context, expectedEvent: "PreToolUse" })).toBe('hook_event_name: is "Stop" but the request names "PreToolUse"');
  });

  it("counts consecutive hook-driven stops per session", () => {
    const counter = new StopCounter(2);
    expect([counter.next("a", false), counter.next("a", true), counter.next("a", true), counter.next("a", false)]).toEqual([0, 1, 2, 0]);
    counter.next("b", true);
    counter.next("c", true);
    // "a" was the oldest and is forgotten: it starts again from 0.
    expect(counter.next("a", true)).toBe(1);
  });

  it("a tool call since the last stop is progress: the next steered stop counts 0 again", () => {
    const counter = new StopCounter();
    expect([counter.next("s", false), counter.next("s", true), counter.next("s", true)]).toEqual([0, 1, 2]);
    counter.toolRan("s");
    counter.toolRan("s");
    expect([counter.next("s", true), counter.next("s", true)]).toEqual([0, 1]);
  });
});

describe("answers", () => {
  const call: ToolCall = { callId: "c", rootCallId: "c", toolName: "Bash", arguments: {}, argumentsJson: "{}", sessionId: "s", turn: 0, step: 0 };

  it("PreToolUse per dialect; hookd's default allow is no opinion", () => {
    const v = (decision: Parameters<typeof preToolAnswer>[0]["decision"], decidedBy: string) => ({ decision, decidedBy, bypass: false });
    expect(preToolAnswer(v(deny("no"), "guard"), "claude-code")).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no" } });
    expect(preToolAnswer(v(ask("sure?"), "p"), "claude-code")).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "sure?" } });
    expect(preToolAnswer(v(ask("sure?"), "p"), "codex")).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "approval required (Codex hooks cannot ask): sure?" } });
    expect(preToolAnswer(v({ kind: "allow" }, "default"), "claude-code")).toEqual({});
    expect(preToolAnswer({ decision: { kind: "allow" }, decidedBy: "default", bypass: true }, "claude-code")).toEqual({});
  });

  it("UserPromptSubmit, SessionStart and Stop", () => {
    expect(preStepAnswer(reject("secret in prompt"))).toEqual({ decision: "block", reason: "secret in prompt" });
    expect(preStepAnswer(enter([userMessage("hi"), pluginMessage("guard", "checked"), pluginMessage("ctx", "ticket 1")]))).toEqual({
      hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: "checked\n\nticket 1" },
    });
    expect(preStepAnswer(enter([userMessage("hi")]))).toEqual({});
    expect(sessionStartAnswer([pluginMessage("p", "branch main")], "SessionStart")).toEqual({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "branch main" } });
    expect(stopAnswer(steer([pluginMessage("p", "run the tests")]), false)).toEqual({ decision: "block", reason: "run the tests" });
    expect(stopAnswer({ kind: "pass" }, false)).toEqual({});
    expect(stopAnswer({ kind: "pass" }, true)).toMatchObject({ systemMessage: expect.stringContaining("continuation cap") as unknown });
  });

  it("PostToolUse: block, contexts, and replaced output (MCP vs built-in)", () => {
    const result = { isError: false as const, value: "[REDACTED]", content: [{ type: "text" as const, text: "[REDACTED]" }], contexts: [] };
    expect(postToolAnswer(block("leaked a key"), result, call, "redact", "claude-code")).toEqual({ decision: "block", reason: "leaked a key" });
    expect(postToolAnswer(accept({ additionalContexts: [pluginMessage("p", "fyi")] }), result, call, "p", "codex")).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "fyi" } });
    expect(postToolAnswer(accept(), result, call, "default", "claude-code")).toEqual({});
    const replaced = accept({ content: result.content });
    expect(postToolAnswer(replaced, result, { ...call, toolName: "mcp__db__query" }, "redact", "claude-code")).toEqual({
      hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "[REDACTED]", updatedMCPToolOutput: "[REDACTED]" },
    });
    expect(postToolAnswer(replaced, result, call, "redact", "claude-code")).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "[REDACTED]" } });
    const valued = { ...result, value: { rows: 0 } };
    expect(postToolAnswer(accept({ value: { rows: 0 } }), valued, call, "p", "claude-code")).toMatchObject({ hookSpecificOutput: { updatedToolOutput: { rows: 0 } } });
    const codex = postToolAnswer(replaced, result, call, "redact", "codex");
    expect(codex).toMatchObject({ systemMessage: expect.stringContaining("cannot withhold") as unknown, hookSpecificOutput: { additionalContext: expect.stringContaining("[REDACTED]") as unknown } });
  });
});
