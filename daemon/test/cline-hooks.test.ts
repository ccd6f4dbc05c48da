// Cline's stdin and answers as hookd reads and writes them (docs/agents/cline.md): the event from
// the forwarder (its stdin names only the runtime hook), the task as the session, the raw tool
// input rather than its stringified copy, a deny as a task cancel, a rewrite as overrideInput,
// the fields each event reads, and no hooks file for the command kind.
import { describe, expect, it } from "vitest";
import { deepFreeze, snapshotJsonText } from "@hookd/sdk";
import type { JsonObject, ToolCall } from "@hookd/sdk";
import { cline } from "../src/agents/cline/index.js";
import { REPLACED_OUTPUT_CANCEL } from "../src/agents/cline/answer.js";
import { agentDialect } from "../src/agents/registry.js";
import { toolFacts } from "../src/agents/tool-kinds.js";

const context = { agentId: "cline", steeredContinuations: () => 0 };
const base = { clineVersion: "3.0.65", hookName: "tool_call", taskId: "task-1", workspaceRoots: ["/repo"], agent_id: "a1", parent_agent_id: null };

function call(args: JsonObject, rewrittenBy?: readonly string[]): ToolCall {
  const snapshot = snapshotJsonText(JSON.stringify(args));
  return deepFreeze({ callId: "c1", rootCallId: "c1", toolName: "run_commands", arguments: snapshot.value, argumentsJson: snapshot.text, sessionId: "task-1", turn: 0, step: 0, ...(rewrittenBy === undefined ? {} : { rewrittenBy: [...rewrittenBy] }) });
}

describe("Cline's dialect", () => {
  it("a plugin's stop request is Cline's cancel with its reason; a message for the user has no field to go to", () => {
    expect(cline.answers.notice({ contextModification: "ctx" }, { stopAgent: { reason: "policy ends the task" } })).toEqual({ contextModification: "ctx", cancel: true, errorMessage: "policy ends the task" });
    expect(cline.answers.notice({}, { userMessage: "logged" })).toEqual({});
  });

  it("is served as cline; the command kind refuses a Cline hooks file, saying what to do instead", () => {
    expect(agentDialect("cline")?.title).toBe("Cline");
    expect(() => cline.commandHooks.parse({}, "hooks.json")).toThrow(/hooks\.json: Cline has no hooks file .*hookd hook --dialect cline --event <Event>/);
  });

  it("run_commands is a shell call whose command is its list of commands, one per line (or its single command)", () => {
    expect(toolFacts("cline", "run_commands", { commands: ["cd src", "rm -r build"] })).toEqual({ kind: "shell", command: "cd src\nrm -r build" });
    expect(toolFacts("cline", "run_commands", { command: "ls" })).toEqual({ kind: "shell", command: "ls" });
  });

  it("a PreToolUse reads the task as the session and tool_call's raw input, not preToolUse's stringified parameters", () => {
    const body = { ...base, tool_call: { id: "call_1", name: "run_commands", input: { commands: ["ls"], timeout: 5 } }, preToolUse: { toolName: "run_commands", parameters: { commands: '["ls"]', timeout: "5" } } };
    const request = cline.readRequest("PreToolUse", body, context);
    expect(request.session).toEqual({ sessionId: "task-1", agentId: "cline", cwd: "/repo" });
    expect(request.point === "pre-tool" ? request.data.call : undefined).toMatchObject({ callId: "call_1", toolName: "run_commands", arguments: { commands: ["ls"], timeout: 5 } });
  });

  it("a failed tool is a failure result; an event Cline does not have and a missing taskId are field errors", () => {
    const request = cline.readRequest("PostToolUse", { ...base, hookName: "tool_result", tool_result: { id: "c", name: "run_commands", input: { command: "false" }, output: "", error: "exit 1" } }, context);
    expect(request.point === "post-tool" ? request.data.result : undefined).toMatchObject({ isError: true, message: "exit 1" });
    expect(() => cline.readRequest("Stop", base, context)).toThrow(/"Stop" is not a Cline hook event/);
    const { taskId: _missing, ...withoutTask } = base;
    expect(() => cline.readRequest("PreToolUse", withoutTask, context)).toThrow(/taskId/);
  });

  it("a deny and an ask cancel the task with the reason; a rewrite is the complete input as overrideInput; an allow says nothing", () => {
    const proposed = call({ command: "rm -r x" });
    const verdict = (decision: { kind: "deny" | "ask"; reason: string } | { kind: "allow" }, effective = proposed) => ({ decision, decidedBy: "guard", proposed, effective, bypass: false });
    expect(cline.answers.preTool(verdict({ kind: "deny", reason: "no rm" }))).toEqual({ cancel: true, errorMessage: "hookd denied run_commands: no rm (Cline hooks cannot deny one call, so the task is cancelled)" });
    expect(cline.answers.preTool(verdict({ kind: "ask", reason: "a human" }))).toMatchObject({ cancel: true });
    expect(cline.answers.preTool(verdict({ kind: "allow" }, call({ command: "ls", timeout: 5 }, ["rewriter"])))).toEqual({ overrideInput: { command: "ls", timeout: 5 } });
    expect(cline.answers.preTool(verdict({ kind: "allow" }))).toEqual({});
  });

  it("after a tool: a block's feedback is context, a replaced output cancels the task; fire-and-forget events keep no field", () => {
    const result = { isError: false as const, value: "SECRET=1", content: [{ type: "text" as const, text: "SECRET=1" }], contexts: [] };
    expect(cline.answers.postTool({ kind: "block", feedback: "secret" }, result, call({ command: "cat .env" }), "guard", "PostToolUse")).toEqual({ contextModification: "secret" });
    expect(cline.answers.postTool({ kind: "accept", content: [{ type: "text", text: "***" }] }, result, call({ command: "cat .env" }), "redactor", "PostToolUse")).toEqual({ cancel: true, errorMessage: REPLACED_OUTPUT_CANCEL });
    expect(cline.fit({ contextModification: "x" }, "TaskComplete")).toEqual({ answer: {}, dropped: ["contextModification"] });
    expect(cline.fit({ overrideInput: {}, cancel: true }, "PostToolUse")).toEqual({ answer: { cancel: true }, dropped: ["overrideInput"] });
  });
});
