// Every typed hook event of a Claude Code / Codex hooks file, run as REAL shell scripts through
// the real tool pipeline and points: PreToolUse's rewrite (once per call, folded in file order),
// PermissionRequest at approval, PostToolUse / PostToolUseFailure, SubagentStart / SubagentStop
// with lineage, SessionEnd, StopFailure, PreToolUse's additionalContext at post-tool, and a
// failing hook under fail-open audited as a fault with its cause.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { definePlugin, patch } from "@hookd/sdk";
import type { SessionInfo, ToolResult } from "@hookd/sdk";
import { PluginRegistry } from "../../daemon/src/engine/registry.js";
import { EventBus } from "../../daemon/src/engine/events.js";
import { inProcessListeners } from "../../daemon/src/plugins/in-process/listeners.js";
import { decide } from "../../daemon/src/engine/decide.js";
import type { EngineEvent } from "../../daemon/src/engine/events.js";
import { runToolCall } from "../../daemon/src/engine/pipeline/pipeline.js";
import { toolLookup } from "../../daemon/src/engine/pipeline/spec.js";
import type { ProposedCall } from "../../daemon/src/engine/pipeline/seal.js";
import { harness, toolCall, workspace } from "./support.js";
import type { Harness, Workspace } from "./support.js";

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

const hook = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });
const json = (value: unknown) => `'${JSON.stringify(value)}'`;

/** Runs one call through the whole tool pipeline; the tool records the arguments it ran with. */
async function pipeline(h: Harness, call: ProposedCall) {
  const dispatched: unknown[] = [];
  const outcome = await runToolCall(
    { env: h.env(), session: h.session, tools: toolLookup([{ name: "Bash", concurrencySafe: true }]), dispatch: async (c) => (dispatched.push(c.arguments), "ran") },
    call,
  );
  return { ...outcome, dispatched };
}

const invocations = (events: readonly EngineEvent[], point: string) =>
  events.flatMap((e) => (e.type === "invocation" && e.invocation.point === point ? [e.invocation] : []));

describe("PreToolUse -> rewrite + pre-tool", () => {
  it("folds updatedInput in FILE order, not completion order; each hook runs once per call; the tool runs the rewritten input", async () => {
    // first.sh is first in the file but finishes LAST (it waits for second.sh): a race would let it win.
    ws.script("first.sh", `echo first >> runs.txt\ni=0\nwhile [ ! -e second.done ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done\necho ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo first" } } })}`);
    ws.script("second.sh", `echo second >> runs.txt\necho ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo second" } } })}\ntouch second.done`);
    const h = await harness(ws, { PreToolUse: [{ matcher: "Bash", hooks: [hook(`${ws.dir}/first.sh`), hook(`${ws.dir}/second.sh`)] }] });
    const { call, result, dispatched } = await pipeline(h, { callId: "c1", toolName: "Bash", arguments: { command: "rm -rf /" } });
    expect(result.isError).toBe(false);
    expect(dispatched).toEqual([{ command: "echo second" }]);
    expect(call).toMatchObject({ argumentsJson: '{"command":"echo second"}', originalArgumentsJson: '{"command":"rm -rf /"}', rewrittenBy: ["cmd"] });
    expect(ws.read("runs.txt").trim().split("\n").sort()).toEqual(["first", "second"]);
    // The pre-tool answer came from the same run.
    expect(h.reports.map((r) => [r.point, r.reused ?? "ran"])).toEqual([["rewrite", "ran"], ["pre-tool", "rewrite"]]);
  });

  it("when a later rewriter changes the arguments, the hooks run again at pre-tool on what will really run", async () => {
    ws.script("gate.sh", 'input=$(cat)\necho "$input" >> seen.txt\ncase "$input" in *sudo*) echo "no sudo" >&2; exit 2;; esac');
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/gate.sh`)] }] });
    // An in-process rewriter after the command plugin (higher priority number runs later) adds sudo.
    const sudo = definePlugin({ name: "sudo", points: { rewrite: { priority: 10, handler: () => patch({ command: "sudo ls" }) } } });
    const registry = new PluginRegistry([...h.source.listeners(), ...inProcessListeners(sudo)]);
    const env = { registry, bus: new EventBus(), scope: { sessionId: "s1", agentId: "agent-1", turn: 1, step: 1 }, signal: new AbortController().signal };
    const dispatched: unknown[] = [];
    const { result } = await runToolCall(
      { env, session: h.session, tools: toolLookup([{ name: "Bash", concurrencySafe: true }]), dispatch: async (c) => (dispatched.push(c.arguments), "ran") },
      { callId: "c1", toolName: "Bash", arguments: { command: "ls" } },
    );
    expect(result).toMatchObject({ isError: true, code: "denied", message: "no sudo" });
    expect(dispatched).toEqual([]);
    const seen = ws.read("seen.txt").trim().split("\n").map((line) => (JSON.parse(line) as { tool_input: unknown }).tool_input);
    expect(seen).toEqual([{ command: "ls" }, { command: "sudo ls" }]);
  });

  it("a deny from the same run denies the call with its reason; nothing is dispatched", async () => {
    ws.script("deny.sh", 'echo run >> runs.txt\necho "no deleting" >&2\nexit 2');
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/deny.sh`)] }] });
    const { result, dispatched } = await pipeline(h, { callId: "c1", toolName: "Bash", arguments: { command: "rm x" } });
    expect(result).toMatchObject({ isError: true, code: "denied", message: "no deleting" });
    expect(dispatched).toEqual([]);
    expect(ws.read("runs.txt")).toBe("run\n");
  });

  it("Codex: updatedInput without permissionDecision allow is not applied, and says why", async () => {
    ws.script("rw.sh", `echo ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "echo x" } } })}`);
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/rw.sh`)] }] }, { dialect: "codex" });
    const { dispatched } = await pipeline(h, { callId: "c1", toolName: "Bash", arguments: { command: "ls" } });
    expect(dispatched).toEqual([{ command: "ls" }]);
    expect(h.reports[0]?.merged.notes).toEqual([`PreToolUse[0].hooks[0]: hookSpecificOutput.updatedInput ignored: Codex applies it only beside permissionDecision "allow"`]);
  });

  it("additionalContext is delivered with the call's result (post-tool), never dropped", async () => {
    ws.script("ctx.sh", `echo ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "the repo is read-only on Fridays" } })}`);
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/ctx.sh`)] }] });
    const { result } = await pipeline(h, { callId: "c1", toolName: "Bash", arguments: { command: "ls" } });
    expect(result.contexts).toMatchObject([{ role: "user", source: { kind: "plugin", name: "cmd" }, content: [{ text: "the repo is read-only on Fridays" }] }]);
    expect(h.reports.find((r) => r.point === "rewrite")?.deferredContexts).toBe(1);
  });
});

describe("a failing hook under fail-open", () => {
  it("is a fault with its cause in the invocation record, and the call proceeds", async () => {
    ws.script("broken.sh", 'echo "config missing" >&2\nexit 1');
    const h = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/broken.sh`)] }] });
    const outcome = await decide(h.env(), "pre-step", { session: h.session, turn: 1, step: 1, messages: [{ id: "", role: "user", content: [{ type: "text", text: "hi" }], source: { kind: "user" } }] });
    expect(outcome).toMatchObject({ decision: { kind: "enter" } });
    expect(invocations(h.events, "pre-step")).toMatchObject([{ plugin: "cmd", outcome: "fault", fault: "crashed", decision: "pass" }]);
    expect(invocations(h.events, "pre-step")[0]?.detail).toMatch(/UserPromptSubmit\[0\]\.hooks\[0\]: exited with code 1: config missing/);
  });
});

describe("PermissionRequest -> approval", () => {
  const ask = (session: SessionInfo, command: string) => ({ session, call: toolCall(session, "Bash", { command }), reason: "sure?", askedBy: "gate" });

  it("any deny wins and rejects with its message; an allow approves; the hook reads the call", async () => {
    ws.script("read.sh", "cat > req.json");
    ws.script("allow.sh", `echo ${json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } })}`);
    ws.script("deny.sh", `case "$(cat)" in *deploy*) echo ${json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no deploys" } } })};; esac`);
    const h = await harness(ws, { PermissionRequest: [{ matcher: "Bash", hooks: [hook(`${ws.dir}/read.sh`), hook(`${ws.dir}/allow.sh`), hook(`${ws.dir}/deny.sh`)] }] });
    expect(await decide(h.env(), "approval", ask(h.session, "make deploy"))).toMatchObject({ decision: { kind: "reject", reason: "no deploys" }, decidedBy: "cmd" });
    expect(JSON.parse(ws.read("req.json"))).toMatchObject({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "make deploy" }, session_id: "s1" });
    expect(await decide(h.env(), "approval", ask(h.session, "ls"))).toMatchObject({ decision: { kind: "approve" }, decidedBy: "cmd" });
  });
});

describe("post-tool: PostToolUse after a success, PostToolUseFailure after a failure, neither after a denial", () => {
  it("fires the event that matches the result, with its fields", async () => {
    ws.script("ok.sh", "cat > ok.json");
    ws.script("fail.sh", `cat > fail.json\necho ${json({ hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "try --force" } })}`);
    const h = await harness(ws, { PostToolUse: [{ hooks: [hook(`${ws.dir}/ok.sh`)] }], PostToolUseFailure: [{ hooks: [hook(`${ws.dir}/fail.sh`)] }] });
    const call = toolCall(h.session, "Bash", { command: "make" });
    const failed: ToolResult = { isError: true, code: "tool_error", name: "Error", message: "exit 2", content: [], contexts: [] };
    const outcome = await decide(h.env(), "post-tool", { session: h.session, call, result: failed });
    expect(outcome).toMatchObject({ decision: { kind: "accept", additionalContexts: [{ content: [{ text: "try --force" }] }] } });
    expect(JSON.parse(ws.read("fail.json"))).toMatchObject({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", error: "exit 2", tool_use_id: "toolu_1" });
    await decide(h.env(), "post-tool", { session: h.session, call, result: { ...failed, code: "denied" } });
    await decide(h.env(), "post-tool", { session: h.session, call, result: { isError: false, value: "out", content: [], contexts: [] } });
    expect(JSON.parse(ws.read("ok.json"))).toMatchObject({ hook_event_name: "PostToolUse", tool_response: "out" });
    expect(h.reports.map((r) => r.event)).toEqual(["PostToolUseFailure", "PostToolUse"]);
  });
});

describe("subagents: SubagentStart and SubagentStop with lineage", () => {
  it("a subagent's session start is SubagentStart, matched on its agent type, with the parent's session_id", async () => {
    ws.script("sub.sh", `cat > sub.json\necho ${json({ hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "you review only" } })}`);
    ws.script("other.sh", "touch other.ran");
    ws.script("start.sh", "touch start.ran");
    const h = await harness(ws, {
      SubagentStart: [{ matcher: "reviewer", hooks: [hook(`${ws.dir}/sub.sh`)] }, { matcher: "planner", hooks: [hook(`${ws.dir}/other.sh`)] }],
      SessionStart: [{ hooks: [hook(`${ws.dir}/start.sh`)] }],
    });
    const child: SessionInfo = { sessionId: "child-1", agentId: "agent-1", cwd: ws.dir, parentSessionId: "s1", agentType: "reviewer" };
    const outcome = await decide(h.env(), "session-start", { session: child, source: "subagent", tools: [] });
    expect(outcome.answers).toMatchObject([{ plugin: "cmd", decision: { kind: "inject", messages: [{ content: [{ text: "you review only" }] }] } }]);
    // SubagentStart's payload as Claude Code writes it (hookd says nothing of the agent's model here).
    expect(JSON.parse(ws.read("sub.json"))).toMatchObject({ hook_event_name: "SubagentStart", session_id: "s1", agent_id: "child-1", agent_type: "reviewer" });
    expect(() => ws.read("other.ran")).toThrow();
    expect(() => ws.read("start.ran")).toThrow();
  });

  it("a subagent's stop is SubagentStop (a block steers it); the top-level session's is Stop", async () => {
    ws.script("substop.sh", 'echo "check your work" >&2\nexit 2');
    ws.script("stop.sh", "touch stop.ran");
    const h = await harness(ws, { SubagentStop: [{ matcher: "reviewer", hooks: [hook(`${ws.dir}/substop.sh`)] }], Stop: [{ hooks: [hook(`${ws.dir}/stop.sh`)] }] });
    const child: SessionInfo = { sessionId: "child-1", agentId: "agent-1", cwd: ws.dir, parentSessionId: "s1", agentType: "reviewer" };
    const outcome = await decide(h.env(), "turn-stopping", { session: child, turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0 });
    expect(outcome.answers).toMatchObject([{ plugin: "cmd", decision: { kind: "steer", messages: [{ content: [{ text: "check your work" }] }] } }]);
    expect(() => ws.read("stop.ran")).toThrow();
    await decide(h.env(), "turn-stopping", { session: h.session, turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0 });
    expect(ws.read("stop.ran")).toBe("");
  });
});

describe("SessionEnd and StopFailure", () => {
  it("SessionEnd runs with the reason its matcher sees; StopFailure only when the turn ended in an error", async () => {
    ws.script("end.sh", "cat > end.json");
    ws.script("logout.sh", "touch logout.ran");
    ws.script("failure.sh", "cat >> failure.json");
    const h = await harness(ws, {
      SessionEnd: [{ matcher: "clear", hooks: [hook(`${ws.dir}/end.sh`)] }, { matcher: "logout", hooks: [hook(`${ws.dir}/logout.sh`)] }],
      StopFailure: [{ hooks: [hook(`${ws.dir}/failure.sh`)] }],
    });
    await decide(h.env(), "session-end", { session: h.session, reason: "cleared", detail: "", turns: 2 });
    expect(JSON.parse(ws.read("end.json"))).toMatchObject({ hook_event_name: "SessionEnd", reason: "clear", session_id: "s1" });
    expect(() => ws.read("logout.ran")).toThrow();
    await decide(h.env(), "turn-end", { session: h.session, turn: 1, outcome: "completed", detail: "", steps: 1 });
    expect(() => ws.read("failure.json")).toThrow();
    await decide(h.env(), "turn-end", { session: h.session, turn: 2, outcome: "error", detail: "model overloaded", steps: 1 });
    expect(JSON.parse(ws.read("failure.json"))).toMatchObject({ hook_event_name: "StopFailure", error: "unknown", error_details: "model overloaded" });
  });
});

describe("Codex Interrupt", () => {
  it("runs at turn-end when the turn was cancelled, in a Codex file only", async () => {
    ws.script("interrupt.sh", "cat >> interrupt.json");
    const hooks = { Interrupt: [{ matcher: "ignored", hooks: [hook(`${ws.dir}/interrupt.sh`)] }] };
    const claude = await harness(ws, hooks);
    await decide(claude.env(), "turn-end", { session: claude.session, turn: 1, outcome: "cancelled", detail: "", steps: 1 });
    expect(() => ws.read("interrupt.json")).toThrow(); // Claude Code has no Interrupt event
    const codex = await harness(ws, hooks, { dialect: "codex" });
    await decide(codex.env(), "turn-end", { session: codex.session, turn: 1, outcome: "completed", detail: "", steps: 1 });
    expect(() => ws.read("interrupt.json")).toThrow();
    await decide(codex.env(), "turn-end", { session: codex.session, turn: 2, outcome: "cancelled", detail: "interrupted", steps: 1 });
    expect(JSON.parse(ws.read("interrupt.json"))).toMatchObject({ hook_event_name: "Interrupt", session_id: "s1" });
  });
});
