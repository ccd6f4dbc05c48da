// Qwen Code's hooks file and payloads as hookd reads and writes them (docs/agents/qwen-code.md):
// matchers that answer to a tool's aliases and to "a|b" lists, timeouts in seconds (1000 and
// more read as milliseconds), sequential groups, its own events, and the stdin a hook gets.
import { describe, expect, it } from "vitest";
import { deepFreeze, snapshotJsonText } from "@hookd/sdk";
import type { ToolCall } from "@hookd/sdk";
import { qwenCode } from "../src/agents/qwen-code/index.js";

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });
const parse = (value: unknown) => qwenCode.commandHooks.parse(value, "settings.json");

describe("a Qwen Code hooks file", () => {
  it("matchers: all, a tool's aliases, a list, an unanchored regex; an invalid regex rejects the file", () => {
    const model = parse({ PreToolUse: [{ matcher: ".*", hooks: [cmd("all")] }, { matcher: "Bash", hooks: [cmd("alias")] }, { matcher: "read_file|write_file", hooks: [cmd("list")] }, { matcher: "^web_", hooks: [cmd("regex")] }] });
    const matching = (tool: string) => (model.groups.PreToolUse ?? []).filter((group) => group.matches(tool)).map((group) => group.hooks[0]?.command);
    expect(matching("run_shell_command")).toEqual(["all", "alias"]);
    expect(matching("write_file")).toEqual(["all", "list"]);
    expect(matching("web_fetch")).toEqual(["all", "regex"]);
    expect(matching("Bash")).toEqual(["all", "alias"]);
    expect(() => parse({ PreToolUse: [{ matcher: "(", hooks: [cmd("x")] }] })).toThrow(/settings\.json: PreToolUse\[0\]\.matcher: invalid regular expression/);
  });

  it("timeouts are seconds, 1000 and more milliseconds, 60 s by default; groups may be sequential; its own events load, Codex's Interrupt does not", () => {
    const model = parse({ Stop: [{ sequential: true, hooks: [cmd("a", { timeout: 5 }), cmd("b", { timeout: 1500 }), cmd("c")] }], TodoCreated: [{ hooks: [cmd("t")] }] });
    expect(model.groups.Stop?.[0]?.hooks.map((hook) => hook.timeoutMs)).toEqual([5_000, 1_500, 60_000]);
    expect(model.groups.Stop?.[0]?.sequential).toBe(true);
    expect(model.groups.TodoCreated?.[0]?.hooks.map((hook) => hook.command)).toEqual(["t"]);
    expect(() => parse({ Interrupt: [] })).toThrow(/settings\.json: Interrupt: unknown hook event/);
  });

  it("the stdin a hook gets: Claude Code's fields, a timestamp, a tool response as {llmContent, returnDisplay}, and three project-dir variables", () => {
    const args = snapshotJsonText('{"command":"ls"}');
    const call: ToolCall = deepFreeze({ callId: "toolu_1", rootCallId: "toolu_1", toolName: "run_shell_command", arguments: args.value, argumentsJson: args.text, sessionId: "s", turn: 0, step: 0 });
    const session = { sessionId: "s", agentId: "qwen-code", cwd: "/repo" };
    const result = { isError: false as const, value: "a.txt", content: [{ type: "text" as const, text: "a.txt" }], contexts: [] };
    const payload = JSON.parse(qwenCode.commandHooks.payload({ event: "PostToolUse", data: { session, call, result }, matchValue: "run_shell_command" }, { transcriptPath: "/t.jsonl" })) as Record<string, unknown>;
    expect(payload).toMatchObject({ session_id: "s", transcript_path: "/t.jsonl", cwd: "/repo", hook_event_name: "PostToolUse", tool_name: "run_shell_command", tool_use_id: "toolu_1", tool_response: { llmContent: "a.txt", returnDisplay: "a.txt" } });
    expect(Number.isNaN(Date.parse(String(payload.timestamp)))).toBe(false);
    expect(qwenCode.commandHooks.env("/repo", session)).toEqual({ QWEN_PROJECT_DIR: "/repo", CLAUDE_PROJECT_DIR: "/repo", GEMINI_PROJECT_DIR: "/repo" });
  });
});
