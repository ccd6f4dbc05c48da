// A message for the user and a stop request from the policy kinds: a rule's `userMessage` and
// `stopAgent` through the real evaluate service (the rule still named in the audit), refused at a
// point whose decisions carry none; a Rego decision object's `user_message` and `stop_agent`,
// checked by the SDK's validator as any plugin's answer.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { events } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../src/engine/events.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { toAuditRecord } from "../src/ops/audit-record.js";
import { regoAnswer } from "../src/plugins/rego/answer.js";
import { loadRuleSet } from "../src/plugins/rules/compile.js";
import { rulesListeners } from "../src/plugins/rules/source.js";
import { evaluateServiceOver } from "./support/evaluate-service.js";

const dir = mkdtempSync(join(tmpdir(), "hookd-notice-"));
let files = 0;
function load(yaml: string) {
  const file = join(dir, `rules-${(files += 1)}.yaml`);
  writeFileSync(file, yaml);
  return loadRuleSet([file], "plugins.policy.rules");
}

describe("rules", () => {
  it("a rule's userMessage and stopAgent go with its decision, and the audit names the rule beside them", async () => {
    const set = load(`
rules:
  - id: warn-on-push
    when: call.arguments.command.startsWith("git push")
    decision: allow
    userMessage: pushing is logged
  - id: stop-on-prod
    when: call.arguments.command.contains("prod")
    decision: deny
    message: not on prod
    stopAgent: a production command was attempted
`);
    const { evaluate, bus } = evaluateServiceOver(new PluginRegistry(rulesListeners("policy", set, {}, 2_000)));
    const seen: EngineEvent[] = [];
    bus.subscribe((event) => void seen.push(event));
    const live = { signal: new AbortController().signal };
    expect((await evaluate.evaluate("pre-tool", events.preTool("Bash", { command: "git push origin main" }), live)).decision).toEqual({ kind: "allow", userMessage: "pushing is logged" });
    expect((await evaluate.evaluate("pre-tool", events.preTool("Bash", { command: "deploy prod" }), live)).decision).toEqual({
      kind: "deny",
      reason: "not on prod",
      stopAgent: { reason: "a production command was attempted" },
    });
    const decided = seen.flatMap((event) => (event.type === "decision" ? [toAuditRecord(event)] : []));
    expect(decided.map((record) => [record?.rule, record?.userMessage, record?.stopAgent])).toEqual([
      ["warn-on-push", "pushing is logged", undefined],
      ["stop-on-prod", undefined, "a production command was attempted"],
    ]);
  });

  it("a point whose decisions carry no message for the user refuses the fields at load, naming the rule", () => {
    expect(() =>
      load(`
rules:
  - id: g
    point: guard
    decision: deny
    message: no
    userMessage: hi
`),
    ).toThrow(/rules\[0\] \(id "g"\)\.userMessage: guard decisions carry no userMessage; it is taken at pre-tool, approval, post-tool, pre-step, turn-stopping/);
  });
});

describe("rego", () => {
  it("user_message and stop_agent become the answer's, beside its verb", () => {
    expect(regoAnswer("pre-tool", "opa", { decision: "deny", reason: "no", user_message: "see the policy", stop_agent: "stopped by policy" }, undefined)).toEqual({
      ok: true,
      answer: { kind: "deny", reason: "no", userMessage: "see the policy", stopAgent: { reason: "stopped by policy" } },
    });
    expect(regoAnswer("pre-tool", "opa", { decision: "pass", user_message: "fyi" }, undefined)).toEqual({ ok: true, answer: { kind: "pass", userMessage: "fyi" } });
  });

  it("a wrongly typed field is refused, naming it", () => {
    const answer = regoAnswer("pre-tool", "opa", { decision: "allow", rule: "r1", user_message: 7 }, undefined);
    expect(answer.ok ? undefined : answer.problem).toMatch(/^rule r1: .*decision\.userMessage/);
  });
});
