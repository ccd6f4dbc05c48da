// The output contract of one hook run, as a table: exit codes, stdout JSON, plain stdout, and the
// fields that have no effect (named in notes, never silently dropped).
import { describe, expect, it } from "vitest";
import type { HookResult } from "../src/agents/contract.js";
import { interpretRun } from "./fixtures/agent-calls.js";

type Dialect = string;
type HookEvent = string;
import type { RunResult } from "../src/processes/runner.js";

const exited = (code: number, stdout = "", stderr = ""): RunResult => ({ end: "exited", code, stdout, stderr, truncated: false, durationMs: 1 });

function run(event: HookEvent, result: RunResult, dialect: Dialect = "claude-code"): HookResult {
  return interpretRun({ hook: "H", event, dialect }, result);
}

const json = (value: unknown): string => JSON.stringify(value);

describe("interpretRun", () => {
  it.each<[string, HookEvent, RunResult, Partial<HookResult>]>([
    ["exit 0, no output", "PreToolUse", exited(0), { status: "ok", contexts: [] }],
    ["exit 0, plain stdout at SessionStart is context", "SessionStart", exited(0, "  branch: main\n"), { status: "ok", contexts: ["branch: main"] }],
    ["exit 0, plain stdout at UserPromptSubmit is context", "UserPromptSubmit", exited(0, "ticket ABC-1"), { contexts: ["ticket ABC-1"] }],
    ["exit 0, plain stdout at PreToolUse is not context", "PreToolUse", exited(0, "checked"), { status: "ok", contexts: [] }],
    ["exit 2 blocks with stderr", "PreToolUse", exited(2, "ignored", " no rm -rf \n"), { status: "ok", block: "no rm -rf", exitCode: 2 }],
    ["exit 2 without stderr (Claude Code) blocks with a default reason", "Stop", exited(2), { status: "ok", block: "No stderr output" }],
    ["exit 1 is a non-blocking error", "PreToolUse", exited(1, "", "boom\nmore"), { status: "error", error: { kind: "exit", message: "exited with code 1: boom" } }],
    ["exit 3 is a non-blocking error", "Stop", exited(3), { status: "error", error: { kind: "exit", message: "exited with code 3" } }],
    ["a signal is a crash", "PreToolUse", { end: "signaled", signal: "SIGSEGV", stdout: "", stderr: "", truncated: false, durationMs: 1 }, { status: "error", error: { kind: "crash", message: "killed by SIGSEGV" } }],
    ["a timeout", "PreToolUse", { end: "timeout", timeoutMs: 1500, stdout: "", stderr: "", truncated: false, durationMs: 1500 }, { status: "error", error: { kind: "timeout", message: "no answer within 1.5 s (its process group was killed)" } }],
    ["a failed spawn", "PreToolUse", { end: "spawn_error", message: "ENOENT", stdout: "", stderr: "", truncated: false, durationMs: 0 }, { status: "error", error: { kind: "spawn", message: "ENOENT" } }],
    ["stdout that starts with { but is not JSON is garbage", "PreToolUse", exited(0, "{nope"), { status: "error", error: { kind: "garbage", message: expect.stringContaining("not valid JSON") as unknown as string } }],
    ["a wrongly typed field is garbage naming the field", "PreToolUse", exited(0, json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "maybe" } })), { status: "error", error: { kind: "garbage", message: 'stdout JSON: hookSpecificOutput.permissionDecision: expected "allow", "deny" or "ask"' } }],
  ])("%s", (_name, event, result, expected) => {
    expect(run(event, result)).toMatchObject(expected);
  });

  it("PostToolUse updatedToolOutput (and MCP tools' updatedMCPToolOutput) is the output the model sees instead; elsewhere it has no effect", () => {
    expect(run("PostToolUse", exited(0, json({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedToolOutput: "token=[REDACTED]" } }))).updatedOutput).toBe("token=[REDACTED]");
    expect(run("PostToolUse", exited(0, json({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedMCPToolOutput: { rows: 1 } } }))).updatedOutput).toEqual({ rows: 1 });
    const elsewhere = run("PreToolUse", exited(0, json({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedToolOutput: "x" } })));
    expect(elsewhere.updatedOutput).toBeUndefined();
    expect(elsewhere.notes).toContain("hookSpecificOutput.updatedToolOutput has no effect at PreToolUse");
  });

  it("reads a PreToolUse permission decision with its reason and context", () => {
    const out = run("PreToolUse", exited(0, json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "prod db", additionalContext: "careful" } })));
    expect(out).toMatchObject({ status: "ok", permission: "ask", permissionReason: "prod db", contexts: ["careful"], notes: [] });
  });

  it("maps the deprecated decision block/approve at PreToolUse, superseded by permissionDecision", () => {
    expect(run("PreToolUse", exited(0, json({ decision: "block", reason: "old style" })))).toMatchObject({ permission: "deny", permissionReason: "old style" });
    expect(run("PreToolUse", exited(0, json({ decision: "approve" })))).toMatchObject({ permission: "allow" });
    const both = run("PreToolUse", exited(0, json({ decision: "block", reason: "old", hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } })));
    expect(both.permission).toBe("allow");
    expect(both.permissionReason).toBeUndefined();
  });

  it("blocks UserPromptSubmit, PostToolUse and Stop with decision block", () => {
    for (const event of ["UserPromptSubmit", "PostToolUse", "Stop"] as const) {
      expect(run(event, exited(0, json({ decision: "block", reason: "why" })))).toMatchObject({ status: "ok", block: "why" });
    }
    // Codex refuses a block without a reason; Claude Code uses a default one.
    expect(run("Stop", exited(0, json({ decision: "block" })), "claude-code")).toMatchObject({ block: "Blocked by hook" });
    expect(run("Stop", exited(0, json({ decision: "block" })), "codex")).toMatchObject({ status: "error", error: { kind: "garbage" } });
    expect(run("Stop", exited(2), "codex")).toMatchObject({ status: "error", error: { kind: "exit", message: "exited with code 2 but wrote no reason to stderr" } });
  });

  it("uses hookSpecificOutput only when its hookEventName matches the firing event", () => {
    const out = run("PostToolUse", exited(0, json({ hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: "wrong event" } })));
    expect(out.contexts).toEqual([]);
    expect(out.notes).toEqual(['hookSpecificOutput ignored: its hookEventName "PreToolUse" is not "PostToolUse"']);
  });

  it("reads PreToolUse updatedInput losslessly (the rewrite point applies it); elsewhere it is a note", () => {
    const out = run("PreToolUse", exited(0, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -la","n":12345678901234567890}}}'));
    expect(out.permission).toBe("allow");
    expect(JSON.stringify(Object.keys(out.updatedInput as object))).toBe('["command","n"]');
    expect(String((out.updatedInput as { n: unknown }).n)).toBe("12345678901234567890");
    expect(out.notes).toEqual([]);
    const post = run("PostToolUse", exited(0, json({ hookSpecificOutput: { hookEventName: "PostToolUse", updatedInput: { a: 1 } } })));
    expect(post.updatedInput).toBeUndefined();
    expect(post.notes).toEqual(["hookSpecificOutput.updatedInput has no effect at PostToolUse"]);
  });

  it("UserPromptSubmit and SessionStart stdout that starts with { but is not JSON is plain context, as the agents treat it", () => {
    expect(run("UserPromptSubmit", exited(0, "{not json} but context\n"))).toMatchObject({ status: "ok", contexts: ["{not json} but context"] });
    expect(run("SessionStart", exited(0, "{ hello"))).toMatchObject({ status: "ok", contexts: ["{ hello"] });
    // Elsewhere it is still an unusable answer.
    expect(run("PreToolUse", exited(0, "{ nope"))).toMatchObject({ status: "error", error: { kind: "garbage" } });
  });

  it("reads a PermissionRequest decision: behavior and message; what it cannot do is a note", () => {
    const allow = run("PermissionRequest", exited(0, json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow", updatedInput: { x: 1 } } } })));
    expect(allow).toMatchObject({ status: "ok", approval: { behavior: "allow" } });
    expect(allow.notes[0]).toMatch(/decision\.updatedInput ignored/);
    const deny = run("PermissionRequest", exited(0, json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no" } } })));
    expect(deny.approval).toEqual({ behavior: "deny", message: "no" });
    expect(run("PermissionRequest", exited(0, json({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "maybe" } } })))).toMatchObject({
      status: "error",
      error: { kind: "garbage", message: 'stdout JSON: hookSpecificOutput.decision.behavior: expected "allow" or "deny"' },
    });
  });

  it("reads continue:false, stopReason and systemMessage", () => {
    expect(run("PostToolUse", exited(0, json({ continue: false, stopReason: "enough", systemMessage: "hi" })))).toMatchObject({ stop: { reason: "enough" }, systemMessage: "hi" });
    expect(run("PostToolUse", exited(0, json({ continue: false })))).toMatchObject({ stop: {} });
  });
});
