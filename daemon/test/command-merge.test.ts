// The merge of several hooks' results: deny beats ask beats allow, the winning rank's reasons
// joined with a blank line, contexts in config order, continue:false strongest, errors kept aside.
import { describe, expect, it } from "vitest";
import { mergeResults as mergeWith } from "../src/plugins/command/merge.js";
import type { AgentDialect, HookResult } from "../src/agents/contract.js";
import { claudeCode } from "../src/agents/claude-code/index.js";
import { mergeRulesOf } from "../src/plugins/command/merge.js";

/** The merge by the rules of the agent's event (Claude Code unless said). */
const merge = (event: string, results: readonly HookResult[], agent: AgentDialect = claudeCode) => mergeWith(event, results, mergeRulesOf(agent, event));

const result = (hook: string, fields: Partial<HookResult> = {}): HookResult => ({
  hook,
  event: "PreToolUse",
  status: "ok",
  contexts: [],
  notes: [],
  durationMs: 1,
  stdout: "",
  stderr: "",
  ...fields,
});

describe("mergeResults", () => {
  it("deny beats ask beats allow, joining only the winners' reasons", () => {
    const merged = merge("PreToolUse", [
      result("a", { permission: "allow", permissionReason: "fine" }),
      result("b", { permission: "ask", permissionReason: "check with a human" }),
      result("c", { permission: "deny", permissionReason: "no network" }),
      result("d", { block: "exit 2 reason" }),
      result("e", { permission: "deny" }),
    ]);
    expect(merged.permission).toEqual({ decision: "deny", reason: "no network\n\nexit 2 reason", by: ["c", "d", "e"] });
  });

  it("ask beats allow; allow alone is allow", () => {
    expect(merge("PreToolUse", [result("a", { permission: "allow" }), result("b", { permission: "ask", permissionReason: "r1" }), result("c", { permission: "ask", permissionReason: "r2" })]).permission).toEqual({
      decision: "ask",
      reason: "r1\n\nr2",
      by: ["b", "c"],
    });
    expect(merge("PreToolUse", [result("a", { permission: "allow" })]).permission).toEqual({ decision: "allow", reason: undefined, by: ["a"] });
    expect(merge("PreToolUse", [result("a")]).permission).toBeUndefined();
  });

  it("is independent of completion order: config order decides reasons and contexts", () => {
    const a = result("a", { event: "PostToolUse", block: "first", contexts: ["ctx a"] });
    const b = result("b", { event: "PostToolUse", block: "second", contexts: ["ctx b1", "ctx b2"] });
    const merged = merge("PostToolUse", [a, b]);
    expect(merged.block).toEqual({ decision: "block", reason: "first\n\nsecond", by: ["a", "b"] });
    expect(merged.contexts).toEqual([
      { hook: "a", text: "ctx a" },
      { hook: "b", text: "ctx b1" },
      { hook: "b", text: "ctx b2" },
    ]);
  });

  it("puts continue:false above everything and keeps errors and notes aside", () => {
    const merged = merge("Stop", [
      result("a", { event: "Stop", block: "keep going" }),
      result("b", { event: "Stop", stop: { reason: "out of budget" }, notes: ["n1"] }),
      result("c", { event: "Stop", status: "error", error: { kind: "timeout", message: "slow" }, block: "never counted" }),
    ]);
    expect(merged.stop).toEqual({ decision: "stop", reason: "out of budget", by: ["b"] });
    expect(merged.block?.by).toEqual(["a"]);
    expect(merged.errors.map((e) => e.hook)).toEqual(["c"]);
    expect(merged.notes).toEqual(["b: n1"]);
  });

  it("collects system messages in config order", () => {
    expect(merge("SessionStart", [result("a", { systemMessage: "one" }), result("b"), result("c", { systemMessage: "two" })]).systemMessages).toEqual(["one", "two"]);
  });
});
