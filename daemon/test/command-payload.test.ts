// The stdin payload per dialect: the fields the agents send, Claude Code's trailing newline and
// Codex's lack of one, and lossless tool arguments.
import { describe, expect, it } from "vitest";
import { assistantMessage, deepFreeze, parseJson, pluginMessage, snapshotJsonText, userMessage } from "@hookd/sdk";
import type { SessionInfo, ToolCall } from "@hookd/sdk";
import { promptOf } from "../src/agents/prompt.js";
import { buildPayload } from "./fixtures/agent-calls.js";

const session: SessionInfo = { sessionId: "s-1", agentId: "a", cwd: "/repo" };
const args = snapshotJsonText('{"command":"echo hi","n":12345678901234567890,"x":0.1000000000000000055511151231257827}');
const call: ToolCall = deepFreeze({ callId: "toolu_1", rootCallId: "toolu_1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s-1", turn: 3, step: 2 });

describe("buildPayload", () => {
  it("Claude Code: the common fields, the event's fields, and a trailing newline", () => {
    const text = buildPayload("claude-code", { event: "PreToolUse", data: { session, call } });
    expect(text.endsWith("}\n")).toBe(true);
    expect(JSON.parse(text)).toEqual({
      session_id: "s-1",
      transcript_path: "",
      cwd: "/repo",
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo hi", n: 12345678901234567000, x: 0.1 },
      tool_use_id: "toolu_1",
    });
    // Digit for digit: a double would have rounded both numbers.
    expect(text).toContain('"n":12345678901234567890');
    expect(text).toContain('"x":0.1000000000000000055511151231257827');
  });

  it("Codex: turn_id and model, transcript_path null, and NO trailing newline", () => {
    const text = buildPayload("codex", { event: "PreToolUse", data: { session, call } }, { model: "gpt-5" });
    expect(text.endsWith("}")).toBe(true);
    expect(text).not.toMatch(/\n$/);
    expect(JSON.parse(text)).toMatchObject({ session_id: "s-1", turn_id: "3", transcript_path: null, model: "gpt-5", hook_event_name: "PreToolUse", tool_use_id: "toolu_1" });
  });

  it("PostToolUse carries tool_response (the canonical value)", () => {
    const value = parseJson('{"stdout":"ok","code":0}');
    const data = { session, call, result: { isError: false as const, value, content: [], contexts: [] } };
    expect(JSON.parse(buildPayload("claude-code", { event: "PostToolUse", data }))).toMatchObject({ hook_event_name: "PostToolUse", tool_response: { stdout: "ok", code: 0 }, tool_input: { command: "echo hi" } });
  });

  it("UserPromptSubmit carries the prompt; SessionStart the source; Stop stop_hook_active", () => {
    const preStep = { session, turn: 1, step: 1, messages: [userMessage("fix the bug")] };
    expect(JSON.parse(buildPayload("claude-code", { event: "UserPromptSubmit", data: preStep, prompt: "fix the bug" }))).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "fix the bug" });
    expect(JSON.parse(buildPayload("codex", { event: "SessionStart", data: { session, source: "resume", tools: [] } }))).toMatchObject({ hook_event_name: "SessionStart", source: "resume", turn_id: "0", model: "" });
    const stop = { session, turn: 2, step: 4, stopHookActive: true, steeredContinuations: 1 };
    expect(JSON.parse(buildPayload("claude-code", { event: "Stop", data: stop }))).toEqual({
      session_id: "s-1",
      transcript_path: "",
      cwd: "/repo",
      permission_mode: "default",
      hook_event_name: "Stop",
      stop_hook_active: true,
    });
    const withLast = { ...stop, lastAssistantMessage: assistantMessage("done") };
    expect(JSON.parse(buildPayload("codex", { event: "Stop", data: withLast }))).toMatchObject({ stop_hook_active: true, last_assistant_message: "done", turn_id: "2" });
    expect(JSON.parse(buildPayload("codex", { event: "Stop", data: stop }))).toMatchObject({ last_assistant_message: null });
  });

  it("the prompt of a batch is its user-authored text only", () => {
    expect(promptOf({ session, turn: 1, step: 1, messages: [userMessage("a"), pluginMessage("p", "context"), userMessage("b")] })).toBe("a\n\nb");
    expect(promptOf({ session, turn: 1, step: 2, messages: [] })).toBeUndefined();
  });

});
