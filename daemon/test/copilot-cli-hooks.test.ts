// GitHub Copilot CLI's hooks file, payloads and output contract as hookd reads and writes them
// (docs/agents/copilot-cli.md): `{version: 1, hooks}` with flat or one-level grouped hooks,
// timeoutSec (30 s by default), exec + args, the camelCase stdin a hook gets, and how a run's exit
// code and JSON are read (any failing exit denies at preToolUse).
import { describe, expect, it } from "vitest";
import { deepFreeze, snapshotJsonText } from "@hookd/sdk";
import type { ToolCall } from "@hookd/sdk";
import { copilotCli } from "../src/agents/copilot-cli/index.js";
import { readHookRequest } from "../src/agents/read-request.js";
import type { RunResult } from "../src/processes/hook-run.js";

const parse = (value: unknown) => copilotCli.commandHooks.parse(value, "hooks.json");
const exited = (code: number, stdout: string, stderr = ""): RunResult => ({ end: "exited", code, stdout, stderr, durationMs: 1 }) as RunResult;
const context = { agentId: "copilot-cli", steeredContinuations: () => 0 };

describe("a Copilot CLI hooks file", () => {
  it("reads flat hooks and one-level groups, exec with its args, and timeoutSec (30 s by default)", () => {
    const model = parse({
      version: 1,
      hooks: {
        preToolUse: [{ type: "command", bash: "guard.sh", matcher: "bash" }, { matcher: "view|edit", hooks: [{ type: "command", exec: "/bin/check", args: ["a b"], timeoutSec: 5 }] }],
        agentStop: [{ type: "command", command: "stop.sh", cwd: "/repo", env: { A: "1" } }],
      },
    });
    const pre = model.groups.preToolUse ?? [];
    expect(pre.map((g) => g.hooks.map((h) => [h.command, h.timeoutMs]))).toEqual([[["guard.sh", 30_000]], [["/bin/check 'a b'", 5_000]]]);
    expect(pre.filter((g) => g.matches("bash")).length).toBe(1);
    expect(pre.filter((g) => g.matches("edit")).length).toBe(1);
    expect(model.groups.agentStop?.[0]?.hooks[0]).toMatchObject({ command: "cd /repo && stop.sh", env: { A: "1" } });
  });

  it("refuses a file without version 1, an unknown event, an empty matcher and nesting deeper than one level, naming the entry", () => {
    expect(() => parse({ hooks: {} })).toThrow(/hooks\.json: \(file\)\.version: expected 1/);
    expect(() => parse({ version: 1, hooks: { preToolUsed: [] } })).toThrow(/hooks\.json: hooks\.preToolUsed: unknown GitHub Copilot CLI hook event/);
    expect(() => parse({ version: 1, hooks: { preToolUse: [{ type: "command", bash: "x", matcher: "" }] } })).toThrow(/hooks\.preToolUse\[0\]\.matcher: matcher cannot be empty/);
    expect(() => parse({ version: 1, hooks: { preToolUse: [{ type: "command", hooks: [{ type: "command", hooks: [] }] }] } })).toThrow(/nested hooks deeper than one level/);
  });

  it("accepts http hooks, PascalCase events and the SDK-callback postResult, and says in the notes that hookd does not run them", () => {
    const model = parse({ version: 1, hooks: { PreToolUse: [{ type: "command", bash: "x" }], sessionStart: [{ type: "http", url: "https://example.test/hook" }], postResult: [{ type: "command", bash: "y" }] } });
    expect(model.groups.PreToolUse).toBeUndefined();
    expect(model.groups.postResult).toBeUndefined();
    expect(model.notes).toEqual([
      expect.stringMatching(/^hooks\.PreToolUse: events named in PascalCase/),
      expect.stringMatching(/^hooks\.sessionStart\[0\]: hooks of type "http" are accepted but not run/),
      expect.stringMatching(/^hooks\.postResult: accepted but not run/),
    ]);
  });
});

describe("a Copilot CLI hook's stdin and output", () => {
  it("writes camelCase payloads: toolName and toolArgs, a toolResult, epoch-millisecond timestamps, no event name", () => {
    const args = snapshotJsonText('{"command":"ls"}');
    const call: ToolCall = deepFreeze({ callId: "c1", rootCallId: "c1", toolName: "bash", arguments: args.value, argumentsJson: args.text, sessionId: "s", turn: 0, step: 0 });
    const session = { sessionId: "s", agentId: "copilot-cli", cwd: "/repo" };
    const result = { isError: false as const, value: "a.txt", content: [{ type: "text" as const, text: "a.txt" }], contexts: [] };
    const payload = JSON.parse(copilotCli.commandHooks.payload({ event: "postToolUse", data: { session, call, result }, matchValue: "bash" }, {})) as Record<string, unknown>;
    expect(payload).toEqual({ sessionId: "s", timestamp: expect.any(Number) as unknown, cwd: "/repo", toolName: "bash", toolArgs: { command: "ls" }, toolResult: { resultType: "success", textResultForLlm: "a.txt" } });
  });

  it("reads a preToolUse run: JSON deny and modifiedArgs at exit 0, any failing exit a deny with stderr as the reason", () => {
    const hook = { id: "preToolUse[0]", event: "preToolUse" };
    expect(copilotCli.commandHooks.interpret(exited(0, '{"permissionDecision":"deny","permissionDecisionReason":"no"}'), hook)).toMatchObject({ status: "ok", permission: "deny", permissionReason: "no" });
    expect(copilotCli.commandHooks.interpret(exited(0, '{"modifiedArgs":{"command":"ls -a"}}'), hook)).toMatchObject({ status: "ok", updatedInput: { command: "ls -a" } });
    expect(copilotCli.commandHooks.interpret(exited(1, "", "boom"), hook)).toMatchObject({ status: "ok", permission: "deny", permissionReason: "boom" });
    expect(copilotCli.commandHooks.interpret(exited(1, "", "boom"), { id: "postToolUse[0]", event: "postToolUse" })).toMatchObject({ status: "error", error: { kind: "exit" } });
    expect(copilotCli.commandHooks.interpret(exited(0, '{"decision":"block","reason":"again"}'), { id: "agentStop[0]", event: "agentStop" })).toMatchObject({ status: "ok", block: "again" });
  });
});

describe("a Copilot CLI hook request", () => {
  it("reads toolArgs as an object or a JSON string, and names a bad field", () => {
    const asString = readHookRequest(copilotCli, JSON.stringify({ sessionId: "s", cwd: "/r", toolName: "bash", toolArgs: '{"command":"ls"}' }), { ...context, expectedEvent: "preToolUse" });
    expect(asString).toMatchObject({ point: "pre-tool", data: { call: { toolName: "bash", arguments: { command: "ls" } } } });
    expect(() => readHookRequest(copilotCli, JSON.stringify({ sessionId: "s", toolName: "bash", toolArgs: 3 }), { ...context, expectedEvent: "preToolUse" })).toThrow(/toolArgs/);
    expect(() => readHookRequest(copilotCli, JSON.stringify({ toolName: "bash" }), { ...context, expectedEvent: "preToolUse" })).toThrow(/sessionId/);
    expect(() => readHookRequest(copilotCli, JSON.stringify({ sessionId: "s" }), { ...context, expectedEvent: "preToolUsed" })).toThrow(/expected a GitHub Copilot CLI hook event/);
  });

  it("takes the event the URL names over a payload's own name: notification's payload says Notification", () => {
    const body = { sessionId: "s", cwd: "/r", message: "Path permission needed", title: "Permission needed", hook_event_name: "Notification", notification_type: "permission_prompt" };
    expect(readHookRequest(copilotCli, JSON.stringify(body), { ...context, expectedEvent: "notification" })).toMatchObject({ event: "notification", point: "agent-event", payload: { notification_type: "permission_prompt" } });
  });

  it("reads an event named in PascalCase as Claude Code's payload", () => {
    const request = readHookRequest(copilotCli, JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", cwd: "/r", tool_name: "Bash", tool_input: { command: "ls" } }), context);
    expect(request).toMatchObject({ event: "PreToolUse", point: "pre-tool", session: { sessionId: "s" }, data: { call: { toolName: "Bash" } } });
  });
});
