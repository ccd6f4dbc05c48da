// The HTTP endpoint's dispatch over a stub evaluate API: PreToolUse runs rewrite first and
// pre-tool on the effective call; the bypass predicate is asked about the deciding plugin; a
// failed rewrite denies without pre-tool; turn-end follows a rejected prompt and an unsteered
// stop; an event without a typed point is logged, and dropped answer fields are warned about.
import { describe, expect, it } from "vitest";
import { deny, pass, reject } from "@hookd/sdk";
import type { EvaluatedPoint, EvaluationOf, EventOf, ToolCall } from "@hookd/sdk";
import { answerHook as answerAgentHook } from "../src/http/lifecycle.js";
import type { DispatchDeps, HookEvaluator } from "../src/http/lifecycle.js";
import type { HookRequest } from "../src/agents/contract.js";
import { knownAgent } from "../src/agents/registry.js";
import { readRequest as readHookRequest } from "./fixtures/agent-calls.js";
import { createLogger } from "../src/log.js";

const trace = (decidedBy: string) => ({ decidedBy, durationUs: 1 });
const never = (): never => {
  throw new Error("not expected in this test");
};

/** A stub answer per evaluated point. */
type Evaluations = { readonly [P in EvaluatedPoint]: (event: EventOf<P>) => Promise<EvaluationOf<P>> };

function stub(overrides: Partial<Evaluations>, calls: string[]): HookEvaluator {
  const base: Evaluations = {
    "session-start": never,
    "pre-step": never,
    rewrite: never,
    "pre-tool": never,
    approval: never,
    "post-tool": never,
    "tool-result": never,
    "turn-stopping": never,
    "turn-end": (event) => (calls.push(`turn-end:${event.outcome}:${event.detail}`), Promise.resolve()),
    "session-end": never,
    "agent-event": (event) => (calls.push(`agent-event:${event.dialect}:${event.eventName}`), Promise.resolve()),
  };
  const evaluations: Evaluations = { ...base, ...overrides };
  return { evaluate: (point, event) => (evaluations[point] as (event: unknown) => Promise<EvaluationOf<typeof point>>)(event) };
}

function logger(): { lines: Record<string, unknown>[]; log: ReturnType<typeof createLogger> } {
  const lines: Record<string, unknown>[] = [];
  return { lines, log: createLogger({ level: "debug", write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }) };
}

const body = (fields: Record<string, unknown>) => JSON.stringify({ session_id: "s", cwd: "/r", transcript_path: "/t.jsonl", permission_mode: "plan", ...fields });
const context = { agentId: "claude-code", dialect: "claude-code", steeredContinuations: () => 0 };
const signal = new AbortController().signal;
const answerHook = (deps: DispatchDeps, request: HookRequest, dialect: string, cancel: AbortSignal) => answerAgentHook(deps, knownAgent(dialect), request, cancel);

describe("answerHook", () => {
  it("PreToolUse: rewrite first, pre-tool on the effective call, the bypass asked about the decider", async () => {
    const calls: string[] = [];
    const asked: string[] = [];
    const evaluate = stub(
      {
        rewrite: (event) => {
          calls.push(`rewrite:${event.call.argumentsJson}`);
          const call: ToolCall = { ...event.call, arguments: { command: "ls" }, argumentsJson: '{"command":"ls"}', rewrittenBy: ["r"] };
          return Promise.resolve({ outcome: { kind: "call", call }, trace: trace("r") });
        },
        "pre-tool": (event) => {
          calls.push(`pre-tool:${event.call.argumentsJson}`);
          return Promise.resolve({ decision: { kind: "allow" }, trace: trace("trusted") });
        },
      },
      calls,
    );
    const { log } = logger();
    const request = readHookRequest(body({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "sudo ls" }, tool_use_id: "t" }), context);
    const answer = await answerHook({ evaluate, log, bypassesAgentPermissions: (p) => (asked.push(p), true) }, request, "claude-code", signal);
    expect(calls).toEqual(['rewrite:{"command":"sudo ls"}', 'pre-tool:{"command":"ls"}']);
    expect(asked).toEqual(["trusted"]);
    expect(answer).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "allowed by trusted", updatedInput: { command: "ls" } } });
  });

  it("a rewrite that failed closed denies without asking pre-tool", async () => {
    const calls: string[] = [];
    const evaluate = stub({ rewrite: () => Promise.resolve({ outcome: deny("plugin r failed at rewrite"), trace: trace("r") }) }, calls);
    const request = readHookRequest(body({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: {} }), context);
    expect(await answerHook({ evaluate, log: logger().log, bypassesAgentPermissions: () => true }, request, "codex", signal)).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "plugin r failed at rewrite" },
    });
  });

  it("turn-end follows a rejected prompt and a stop nobody steered", async () => {
    const calls: string[] = [];
    const evaluate = stub(
      {
        "pre-step": () => Promise.resolve({ decision: reject("no"), trace: trace("g") }),
        "turn-stopping": () => Promise.resolve({ decision: pass(), capped: true, trace: trace("s") }),
      },
      calls,
    );
    const deps = { evaluate, log: logger().log, bypassesAgentPermissions: () => false };
    await answerHook(deps, readHookRequest(body({ hook_event_name: "UserPromptSubmit", prompt: "x" }), context), "claude-code", signal);
    const stop = await answerHook(deps, readHookRequest(body({ hook_event_name: "Stop", stop_hook_active: true }), context), "claude-code", signal);
    expect(calls).toEqual(["turn-end:blocked:no", "turn-end:continuation_cap:limits.maxSteeredContinuations reached"]);
    expect(stop).toMatchObject({ systemMessage: expect.stringContaining("continuation cap") as unknown });
  });

  it("WorktreeCreate / WorktreeRemove from Claude Code are observed, answered {} and warned about: an observer cannot perform them", async () => {
    const { lines, log } = logger();
    const calls: string[] = [];
    const deps = { evaluate: stub({}, calls), log, bypassesAgentPermissions: () => false };
    expect(await answerHook(deps, readHookRequest(body({ hook_event_name: "WorktreeCreate", name: "wt" }), context), "claude-code", signal)).toEqual({});
    expect(await answerHook(deps, readHookRequest(body({ hook_event_name: "WorktreeRemove", worktree_path: "/w" }), context), "claude-code", signal)).toEqual({});
    expect(calls).toEqual(["agent-event:claude-code:WorktreeCreate", "agent-event:claude-code:WorktreeRemove"]);
    const warned = lines.filter((l) => l.level === "warn");
    expect(warned.map((l) => l.event)).toEqual(["WorktreeCreate", "WorktreeRemove"]);
    expect(warned[0]?.msg).toMatch(/must answer the new worktree's path/);
    // Other events, and the same name from another dialect, are not warned about.
    await answerHook(deps, readHookRequest(body({ hook_event_name: "PreCompact", trigger: "manual" }), context), "claude-code", signal);
    await answerHook(deps, readHookRequest(body({ hook_event_name: "WorktreeCreate", name: "wt" }), { ...context, agentId: "codex", dialect: "codex" }), "codex", signal);
    expect(lines.filter((l) => l.level === "warn")).toHaveLength(2);
  });

  it("an event without a typed point goes to agent-event, logged with the pass-through fields; dropped fields are warned about", async () => {
    const { lines, log } = logger();
    const calls: string[] = [];
    const evaluate = stub({}, calls);
    expect(await answerHook({ evaluate, log, bypassesAgentPermissions: () => false }, readHookRequest(body({ hook_event_name: "Notification", message: "hi" }), context), "claude-code", signal)).toEqual({});
    expect(calls).toEqual(["agent-event:claude-code:Notification"]);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "debug", msg: "hook event to agent-event", event: "Notification", transcriptPath: "/t.jsonl", permissionMode: "plan" }),
    );
    // Codex has no PostToolUseFailure: the context hookd would send is dropped, and said so.
    const failing = stub({ "post-tool": (event) => Promise.resolve({ decision: { kind: "block", feedback: "stop" }, result: event.result, trace: trace("p") }) }, []);
    const request = readHookRequest(body({ hook_event_name: "PostToolUseFailure", tool_name: "Bash", tool_input: {}, error: "boom" }), { ...context, dialect: "codex" });
    expect(await answerHook({ evaluate: failing, log, bypassesAgentPermissions: () => false }, request, "codex", signal)).toEqual({});
    expect(lines).toContainEqual(expect.objectContaining({ level: "warn", event: "PostToolUseFailure", dialect: "codex", dropped: ["decision", "reason"] }));
  });
});
