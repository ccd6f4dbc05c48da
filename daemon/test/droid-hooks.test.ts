// Factory Droid's hooks file, payloads, hook output and answers as hookd reads and writes them
// (docs/agents/droid.md): its nine events, 60 s timeouts, no tool_use_id, exit 3 aborting the
// agent, updatedInput merged over the input, and the answers Droid cannot take written so.
import { describe, expect, it } from "vitest";
import { deepFreeze, snapshotJsonText } from "@hookd/sdk";
import type { JsonObject, ToolCall } from "@hookd/sdk";
import { droid } from "../src/agents/droid/index.js";
import { REPLACED_OUTPUT_STOP } from "../src/agents/droid/answer.js";
import { agentDialect } from "../src/agents/registry.js";
import type { RunResult } from "../src/processes/hook-run.js";

const cmd = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });
const parse = (value: unknown) => droid.commandHooks.parse(value, "settings.json");
const session = { sessionId: "s", agentId: "droid", cwd: "/repo" };

function executeCall(args: JsonObject, rewrittenBy?: readonly string[]): ToolCall {
  const snapshot = snapshotJsonText(JSON.stringify(args));
  return deepFreeze({ callId: "c1", rootCallId: "c1", toolName: "Execute", arguments: snapshot.value, argumentsJson: snapshot.text, sessionId: "s", turn: 0, step: 0, ...(rewrittenBy === undefined ? {} : { rewrittenBy: [...rewrittenBy] }) });
}

const exited = (code: number, stderr = "", stdout = ""): RunResult => ({ end: "exited", code, stdout, stderr, truncated: false, durationMs: 1 });

describe("Factory Droid's dialect", () => {
  it("is served as droid, with its tool names by kind", () => {
    expect(agentDialect("droid")?.title).toBe("Factory Droid");
    expect(droid.tools.Execute).toEqual({ kind: "shell", command: ["command"] });
    expect(droid.tools.Create?.kind).toBe("write");
  });

  it("a hooks file: its nine events, 60 s by default, regex matchers; an event Droid does not have rejects the file", () => {
    const model = parse({ PreToolUse: [{ matcher: "Execute|Create", hooks: [cmd("gate"), cmd("quick", { timeout: 5 })] }], Notification: [{ hooks: [cmd("n")] }] });
    const gate = model.groups.PreToolUse?.[0];
    expect(gate?.hooks.map((hook) => hook.timeoutMs)).toEqual([60_000, 5_000]);
    expect(["Execute", "Create", "Read"].map((tool) => gate?.matches(tool))).toEqual([true, true, false]);
    expect(model.groups.Notification?.[0]?.hooks[0]?.command).toBe("n");
    expect(() => parse({ PermissionRequest: [] })).toThrow(/settings\.json: PermissionRequest: unknown hook event/);
  });

  it("a group's commandRegex, which hookd does not apply, is named in the file's notes", () => {
    const model = parse({ hooks: { PreToolUse: [{ matcher: "Execute", hooks: [cmd("plain")] }, { matcher: "Execute", commandRegex: "^rm ", hooks: [cmd("rm-only")] }] } });
    expect(model.notes).toEqual(["PreToolUse[1].commandRegex: not applied by hookd; the group's hooks run for every call its matcher matches"]);
  });

  it("the stdin a tool hook gets has no tool_use_id, and hooks get three project-dir variables", () => {
    const payload = JSON.parse(droid.commandHooks.payload({ event: "PreToolUse", data: { session, call: executeCall({ command: "ls" }) }, matchValue: "Execute" }, {})) as Record<string, unknown>;
    expect(payload).toMatchObject({ session_id: "s", cwd: "/repo", hook_event_name: "PreToolUse", tool_name: "Execute", tool_input: { command: "ls" } });
    expect(payload).not.toHaveProperty("tool_use_id");
    expect(droid.commandHooks.env("/repo", session)).toEqual({ FACTORY_PROJECT_DIR: "/repo", DROID_PROJECT_DIR: "/repo", CLAUDE_PROJECT_DIR: "/repo" });
  });

  it("a hook exiting 3 aborts the agent, its stderr the reason; exit 2 still blocks the event", () => {
    expect(droid.commandHooks.interpret(exited(3, "policy says stop\n"), { id: "PreToolUse[0].hooks[0]", event: "PreToolUse" })).toMatchObject({ status: "ok", stop: { reason: "policy says stop" }, exitCode: 3 });
    expect(droid.commandHooks.interpret(exited(3), { id: "Stop[0].hooks[0]", event: "Stop" }).stop?.reason).toMatch(/aborted by hook Stop\[0\]\.hooks\[0\] \(exit code 3\)/);
    expect(droid.commandHooks.interpret(exited(2, "no"), { id: "PreToolUse[0].hooks[0]", event: "PreToolUse" })).toMatchObject({ block: "no" });
  });

  it("a hook's updatedInput is merged over the call's input, as Droid merges it", () => {
    expect(droid.commandHooks.applyInput({ command: "rm -r x", riskLevel: "high" }, { command: "ls" })).toEqual({ command: "ls", riskLevel: "high" });
  });

  it("a rewrite that removed an argument is a deny saying why (a merge would keep it); one that kept them all is updatedInput", () => {
    const proposed = executeCall({ command: "echo a", riskLevel: "low", riskLevelReason: "r" });
    const dropped = executeCall({ command: "echo b" }, ["trimmer"]);
    const kept = executeCall({ command: "echo b", riskLevel: "low", riskLevelReason: "r" }, ["rewriter"]);
    const verdict = (effective: ToolCall) => ({ decision: { kind: "allow" as const }, decidedBy: "default", proposed, effective, bypass: false });
    expect(droid.answers.preTool(verdict(dropped))).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "the rewrite of Execute by trimmer removes riskLevel, riskLevelReason, which cannot reach Factory Droid: it merges updatedInput over the call's input" },
    });
    expect(droid.answers.preTool(verdict(kept))).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "echo b", riskLevel: "low", riskLevelReason: "r" } } });
  });

  it("PostToolUse: a block's feedback is context for the model, a replaced output stops the agent", () => {
    const call = executeCall({ command: "cat .env" });
    const result = { isError: false as const, value: "SECRET=1", content: [{ type: "text" as const, text: "SECRET=1" }], contexts: [] };
    expect(droid.answers.postTool({ kind: "block", feedback: "the output holds a secret" }, result, call, "guard", "PostToolUse")).toEqual({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "the output holds a secret" } });
    expect(droid.answers.postTool({ kind: "accept", content: [{ type: "text", text: "SECRET=***" }] }, result, call, "redactor", "PostToolUse")).toEqual({ continue: false, stopReason: REPLACED_OUTPUT_STOP });
    expect(droid.fit({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "x", additionalContext: "c" } }, "PostToolUse").dropped).toEqual(["hookSpecificOutput.updatedToolOutput"]);
  });
});
