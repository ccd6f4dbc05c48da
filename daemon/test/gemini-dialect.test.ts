// The Gemini CLI dialect's pure parts: a hook run's output by Gemini 0.61's rules (JSON from
// stdout or stderr at any exit code; plain text by exit code), the merge (deny over ask, last
// tool_input wins, texts joined), the hooks-file parser and matchers, the HTTP request reader on
// the payloads the real binary sent, and the answers hookd renders for Gemini.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deny, pluginMessage } from "@hookd/sdk";
import { gemini } from "../src/agents/gemini/index.js";
import { geminiMatcher as matcher } from "../src/agents/gemini/hooks-file.js";
import { interpretGeminiRun } from "../src/agents/gemini/output.js";
import { mergeResults, mergeRulesOf } from "../src/plugins/command/index.js";
import type { RunResult } from "../src/plugins/command/index.js";
import { sealCall } from "../src/engine/pipeline/seal.js";
import { readRequest } from "./fixtures/agent-calls.js";

/** A Gemini run read as a hook of `event` (BeforeTool unless said: its deny is a permission). */
const run = (hook: string, result: RunResult, event = "BeforeTool") => interpretGeminiRun(result, { id: hook, event });
const parseGeminiHooks = (value: unknown, source: string) => gemini.commandHooks.parse(value, source);
const geminiMatcher = (pattern: string, matchOn: string) => {
  const compiled = matcher(pattern, { point: "pre-tool", matchOn });
  if (!compiled.ok) throw new Error(compiled.error);
  return compiled.matches;
};
const readGeminiRequest = (text: string, context: { agentId: string; steeredContinuations: () => number }) => readRequest(text, { ...context, dialect: "gemini" });

const FIXTURES = JSON.parse(readFileSync(join(import.meta.dirname, "../../test/fixtures/gemini-0.61-payloads.json"), "utf8")) as { events: Record<string, Record<string, unknown>> };

const exited = (code: number, stdout: string, stderr = ""): RunResult => ({ end: "exited", code, stdout, stderr, truncated: false, durationMs: 1 });

describe("a Gemini hook's output", () => {
  it("JSON on stdout, or on stderr when stdout is empty, at any exit code; a JSON string holding JSON is unwrapped", () => {
    expect(run("h", exited(0, '{"decision":"deny","reason":"no"}'))).toMatchObject({ status: "ok", permission: "deny", permissionReason: "no" });
    expect(run("h", exited(0, "", '{"decision":"block","reason":"via stderr"}'))).toMatchObject({ status: "ok", permission: "deny", permissionReason: "via stderr" });
    expect(run("h", exited(0, JSON.stringify('{"decision":"ask","reason":"sure?"}')))).toMatchObject({ permission: "ask", permissionReason: "sure?" });
    // At any other event a deny is the event's block.
    expect(run("h", exited(0, '{"decision":"deny","reason":"no"}'), "AfterAgent")).toMatchObject({ status: "ok", block: "no" });
    // Without a reason, Gemini CLI's own wording, never the hook's name.
    expect(run("h", exited(0, '{"decision":"deny"}'), "AfterAgent")).toMatchObject({ status: "ok", block: "No reason provided" });
    // A failed hook's output still counts (Gemini uses it); the failure is recorded.
    expect(run("h", exited(1, '{"systemMessage":"m","decision":"ask"}'))).toMatchObject({ status: "error", answersWhenFailed: true, permission: "ask", systemMessage: "m", error: { kind: "exit" } });
  });

  it("plain text: exit 0 a system message, exit 1 a warning, any other code a deny with the text", () => {
    expect(run("h", exited(0, "hello"))).toMatchObject({ status: "ok", systemMessage: "hello" });
    expect(run("h", exited(0, "hello")).permission).toBeUndefined();
    expect(run("h", exited(1, "", "careful"))).toMatchObject({ status: "error", systemMessage: "Warning: careful" });
    expect(run("h", exited(2, "", "stop that"))).toMatchObject({ status: "ok", permission: "deny", permissionReason: "stop that" });
    expect(run("h", exited(127, "", "sh: nope: not found"))).toMatchObject({ status: "ok", permission: "deny", permissionReason: "sh: nope: not found" });
    expect(run("h", exited(2, ""))).toMatchObject({ status: "error", error: { kind: "exit", message: "exited with code 2" } });
  });

  it("names what had no effect; timeouts and crashes are errors", () => {
    expect(run("h", exited(0, '{"decision":"maybe","hookSpecificOutput":{"llm_request":{},"tool_input":[1]}}')).notes).toEqual([
      'decision "maybe" has no effect',
      "hookSpecificOutput.tool_input ignored: not an object",
      "hookSpecificOutput.llm_request has no effect in hookd",
    ]);
    expect(run("h", { end: "timeout", timeoutMs: 200, stdout: "", stderr: "", truncated: false, durationMs: 200 })).toMatchObject({ status: "error", error: { kind: "timeout" } });
    expect(run("h", { end: "signaled", signal: "SIGKILL", stdout: "", stderr: "", truncated: false, durationMs: 2 })).toMatchObject({ status: "error", error: { kind: "crash" } });
  });

  it("merge: deny beats ask, continue:false stops, the last tool_input of a hook that did not deny wins whole, texts join in order", () => {
    const results = [
      run("a", exited(0, '{"decision":"ask","reason":"r1","hookSpecificOutput":{"tool_input":{"x":1},"additionalContext":"c1"}}')),
      run("b", exited(0, '{"decision":"deny","reason":"r2","systemMessage":"s","hookSpecificOutput":{"tool_input":{"y":2},"additionalContext":"c2"}}')),
      run("c", exited(0, '{"continue":false,"stopReason":"halt"}')),
      run("d", exited(0, '{"decision":"deny","reason":"r3"}')),
    ];
    const merge = (list: typeof results) => mergeResults("BeforeTool", list, mergeRulesOf(gemini, "BeforeTool"));
    expect(merge(results)).toMatchObject({
      permission: { decision: "deny", reason: "r2\nr3", by: ["b", "d"] },
      stop: { reason: "halt", by: ["c"] },
      contexts: [{ hook: "a", text: "c1" }, { hook: "b", text: "c2" }],
      systemMessages: ["s"],
      updatedInput: { input: { x: 1 }, by: "a" },
    });
    expect(merge(results.slice(0, 1))).toMatchObject({ permission: { decision: "ask", by: ["a"] } });
  });
});

describe("a Gemini hooks file", () => {
  it("matchers: tool events an unanchored regex (invalid: an exact name), triggers exact, absent/*/'' all", () => {
    expect(geminiMatcher("run_shell", "tool")("run_shell_command")).toBe(true);
    expect(geminiMatcher("[", "tool")("[")).toBe(true);
    expect(geminiMatcher("[", "tool")("x[")).toBe(false);
    expect(geminiMatcher(" startup ", "trigger")("startup")).toBe(true);
    expect(geminiMatcher("start", "trigger")("startup")).toBe(false);
    expect(geminiMatcher("*", "tool")("anything")).toBe(true);
  });

  it("timeouts are milliseconds (default 60 000); unknown events and bad fields are errors naming them", () => {
    const model = parseGeminiHooks({ hooks: { BeforeTool: [{ matcher: "x", sequential: true, hooks: [{ type: "command", command: "a", timeout: 500, name: "n" }, { type: "command", command: "b" }] }] } }, "f.json");
    expect(model.groups.BeforeTool?.[0]?.hooks.map((hook) => [hook.id, hook.timeoutMs])).toEqual([
      ["BeforeTool[0].hooks[0] (n)", 500],
      ["BeforeTool[0].hooks[1]", 60_000],
    ]);
    expect(model.groups.BeforeTool?.[0]?.sequential).toBe(true);
    expect(() => parseGeminiHooks({ PreToolUse: [] }, "f.json")).toThrow("f.json: PreToolUse: unknown Gemini CLI hook event");
    expect(() => parseGeminiHooks({ BeforeTool: [{ hooks: [{ type: "command", command: "a", timeout: "5s" }] }] }, "f.json")).toThrow("f.json: BeforeTool[0].hooks[0].timeout: expected a number of milliseconds");
    expect(parseGeminiHooks({ enabled: true, Notification: [{ hooks: [] }], BeforeAgent: [{ matcher: "x", hooks: [] }] }, "f.json").notes).toEqual([
      "BeforeAgent[0].matcher: ignored (BeforeAgent has no matcher; every hook of the event runs)",
    ]);
  });
});

describe("the HTTP dialect on the real binary's payloads", () => {
  const context = { agentId: "gemini", steeredContinuations: () => 0 };
  it("reads every typed event and keeps the observed ones whole", () => {
    expect(readGeminiRequest(JSON.stringify(FIXTURES.events.BeforeTool), context)).toMatchObject({ event: "BeforeTool", point: "pre-tool", data: { call: { toolName: "run_shell_command", arguments: { description: "write" } } } });
    expect(readGeminiRequest(JSON.stringify(FIXTURES.events.AfterTool), context)).toMatchObject({ event: "AfterTool", data: { result: { isError: false } } });
    expect(readGeminiRequest(JSON.stringify(FIXTURES.events.AfterAgent), context)).toMatchObject({ event: "AfterAgent", data: { stopHookActive: false, lastAssistantMessage: { role: "assistant" } } });
    expect(readGeminiRequest(JSON.stringify(FIXTURES.events.SessionEnd), context)).toMatchObject({ event: "SessionEnd", data: { reason: "closed", detail: "the agent ended the session (exit)" } });
    expect(readGeminiRequest(JSON.stringify(FIXTURES.events.BeforeModel), context)).toMatchObject({ event: "BeforeModel", payload: { llm_request: { model: "gemini-3.1-pro-preview" } } });
    const failed = { ...FIXTURES.events.AfterTool, tool_response: { llmContent: "x", returnDisplay: "x", error: { message: "boom", type: "execution_failed" } } };
    expect(readGeminiRequest(JSON.stringify(failed), context)).toMatchObject({ data: { result: { isError: true, message: "boom", name: "execution_failed" } } });
  });

  it("answers: a rewrite sends the whole effective arguments; a deny never carries tool_input; output is always exit 0", () => {
    const seal = (args: unknown) => {
      const sealed = sealCall({ callId: "c", toolName: "run_shell_command", arguments: args }, { sessionId: "s", turn: 0, step: 0 }, () => undefined);
      if (!sealed.ok) throw new Error(sealed.failure.message);
      return sealed.call;
    };
    const proposed = seal({ command: "a", description: "d" });
    const effective = seal({ command: "b", description: "d" });
    const beforeTool = (decision: Parameters<typeof gemini.answers.preTool>[0]["decision"], from: typeof proposed, to: typeof proposed) => gemini.answers.preTool({ decision, decidedBy: "p", proposed: from, effective: to, bypass: false });
    expect(beforeTool({ kind: "allow" }, proposed, effective)).toEqual({ hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "b", description: "d" } } });
    expect(beforeTool({ kind: "allow" }, proposed, proposed)).toEqual({});
    expect(beforeTool(deny("no"), proposed, effective)).toEqual({ decision: "deny", reason: "no" });
    const result = { isError: false as const, value: "v", content: [{ type: "text" as const, text: "v" }], contexts: [] };
    expect(gemini.answers.postTool({ kind: "block", feedback: "hidden", additionalContexts: [pluginMessage("p", "ctx")] }, result, proposed, "p", "AfterTool")).toEqual({ decision: "deny", reason: "hidden\n\nctx" });
    expect(gemini.forwarded({ decision: "deny", reason: "no" })).toEqual({ exitCode: 0, text: '{"decision":"deny","reason":"no"}\n' });
  });
});
