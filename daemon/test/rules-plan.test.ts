// A rule set's plan per point (plugins/rules/evaluate.ts): a rule sees every field it reads, by
// name or through the variable as a whole, though an evaluation builds only the fields its
// point's rules read.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { events } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import { loadRuleSet } from "../src/plugins/rules/compile.js";
import { evaluateRules } from "../src/plugins/rules/evaluate.js";

const dir = mkdtempSync(join(tmpdir(), "hookd-rules-plan-"));
const load = (yaml: string) => {
  const file = join(dir, `rules-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  return loadRuleSet([file], "plugins.policy.rules");
};
const call = (args: Record<string, unknown>) => events.preTool("Deploy", args, { session: { cwd: "/srv/app", agentId: "claude-code" } });

describe("what a rule reads", () => {
  it("reaches it by name, by index into a field, and through the whole variable", () => {
    const set = load(`rules:
  - { id: by-name, tools: [Deploy], when: 'call.tool_name == "Nope"', decision: deny, message: "no" }
  - { id: by-field-index, tools: [Deploy], when: 'call.arguments["target"] == "prod"', decision: deny, message: "not prod" }
  - { id: whole, tools: [Deploy], when: 'call["arguments"]["target"] == "staging" && session["cwd"] == "/srv/app"', decision: ask, message: "sure?" }
  - { id: keys, tools: [Deploy], when: '"rewritten_by" in call && call.exists(k, k == "turn")', decision: deny, message: "every field" }
`);
    expect(evaluateRules(set, "pre-tool", call({ target: "prod" }), "policy")?.ruleId).toBe("by-field-index");
    const staging = evaluateRules(set, "pre-tool", call({ target: "staging" }), "policy");
    expect(staging?.ruleId).toBe("whole");
    expect(staging?.decision).toMatchObject({ kind: "ask" });
    expect(evaluateRules(set, "pre-tool", call({ target: "dev" }), "policy")?.ruleId).toBe("keys");
  });

  it("explains a decision with the values of the fields the rule read", () => {
    const set = load(`rules:
  - { id: explained, tools: [Deploy], when: 'call.arguments.target == "prod" && session.cwd.startsWith("/srv")', decision: deny, message: "no" }
`);
    expect(evaluateRules(set, "pre-tool", call({ target: "prod" }), "policy")?.values).toEqual({ "call.arguments": { target: "prod" }, "session.cwd": "/srv/app" });
  });
});
