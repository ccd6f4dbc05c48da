// kind: rules: rule files compiled at load (errors naming file, rule id, key and column), the
// first deciding rule winning, every verb of every point, tool kinds across dialects, and a rule
// that fails at run time failing the plugin (listener_error, under its failure policy) through
// the real evaluate service, and the rule id in the audit records and the tail line.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { events, pluginMessage, toolSuccess } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { EngineEvent } from "../src/engine/events.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { recordLine } from "../src/commands/admin.js";
import { toProtoAuditRecord } from "../src/ops/admin-service.js";
import { toAuditRecord } from "../src/ops/audit-record.js";
import { loadRuleSet } from "../src/plugins/rules/compile.js";
import type { RuleSet } from "../src/plugins/rules/compile.js";
import { evaluateRules } from "../src/plugins/rules/evaluate.js";
import { ruleFileSchema } from "../src/plugins/rules/rule-file.js";
import { rulesListeners } from "../src/plugins/rules/source.js";
import { evaluateServiceOver } from "./support/evaluate-service.js";

const dir = mkdtempSync(join(tmpdir(), "hookd-rules-"));
let files = 0;

/** Writes a rule file and returns its path. */
function ruleFile(yaml: string): string {
  const file = join(dir, `rules-${(files += 1)}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

const load = (yaml: string): RuleSet => loadRuleSet([ruleFile(yaml)], "plugins.policy.rules");
const loadError = (yaml: string): string => {
  try {
    load(yaml);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("the rule file loaded");
};

const DESTRUCTIVE = `
rules:
  - id: no-recursive-delete-outside-project
    tools: [kind:shell]
    when: >
      shell.commands(call.command).exists(c, c[0] == "rm" && c.exists(a, a.startsWith("-") && a.contains("r"))
        && c.exists(a, !a.startsWith("-") && !path.within(a, session.cwd)))
    decision: deny
    messageExpression: '"recursive delete outside " + session.cwd + " (" + call.tool_name + ")"'
  - id: no-env-writes
    tools: [kind:write, kind:edit]
    when: path.matches(call.path, ".env*")
    decision: deny
    message: no writes to .env files
  - id: ask-before-push
    tools: [kind:shell]
    when: shell.commands(call.command).exists(c, c[0] == "git" && "push" in c)
    decision: ask
    message: push?
`;

describe("rules: one rule file guards every agent's tools by kind", () => {
  const set = load(DESTRUCTIVE);
  const project = { cwd: "/home/dev/project" };

  it.each([
    ["claude-code", "Bash", { command: "cd /tmp && rm -rf ../home" }],
    ["codex", "shell", { command: ["bash", "-lc", "rm -rf /"] }],
    ["codex", "exec_command", { cmd: "command rm -fr ~/" }],
    ["gemini", "run_shell_command", { command: "sudo /bin/rm -r -f ../other" }],
    ["claude-code", "Bash", { command: "rm -rf $HOME" }],
  ])("%s %s: the destructive command is denied by the same rule", (dialect, tool, args) => {
    const verdict = evaluateRules(set, "pre-tool", events.preTool(tool, args, { session: { ...project, agentId: dialect } }), "policy");
    expect(verdict?.ruleId).toBe("no-recursive-delete-outside-project");
    expect(verdict?.decision).toEqual({ kind: "deny", reason: `recursive delete outside /home/dev/project (${tool})` });
    expect(verdict?.values).toMatchObject({ "session.cwd": "/home/dev/project", "call.tool_name": tool });
  });

  it("a delete inside the project, with .. that stays inside, is not this rule's business", () => {
    const verdict = evaluateRules(set, "pre-tool", events.preTool("Bash", { command: "rm -rf build/../dist ./tmp" }, { session: { ...project, agentId: "claude-code" } }), "policy");
    expect(verdict).toBeUndefined();
  });

  it.each([
    ["claude-code", "Write", { file_path: "/home/dev/project/.env" }],
    ["claude-code", "Edit", { file_path: ".env.local" }],
    ["codex", "Write", { file_path: "config/.env" }],
    ["gemini", "write_file", { file_path: "/srv/app/.env.production" }],
    ["gemini", "replace", { file_path: ".env" }],
  ])("%s %s: a .env write is denied by tool kind", (dialect, tool, args) => {
    const verdict = evaluateRules(set, "pre-tool", events.preTool(tool, args, { session: { ...project, agentId: dialect } }), "policy");
    expect(verdict).toMatchObject({ ruleId: "no-env-writes", decision: { kind: "deny", reason: "no writes to .env files" }, values: { "call.path": expect.stringContaining(".env") as unknown } });
  });

  it("a read of .env is no write; an agent named otherwise is looked up in every dialect's table", () => {
    expect(evaluateRules(set, "pre-tool", events.preTool("Read", { file_path: ".env" }, { session: { agentId: "claude-code" } }), "policy")).toBeUndefined();
    expect(evaluateRules(set, "pre-tool", events.preTool("write_file", { file_path: ".env" }, { session: { agentId: "my-agent" } }), "policy")?.ruleId).toBe("no-env-writes");
  });

  it("a session that told no cwd cannot have a path placed: the rule fails instead of allowing", () => {
    const event = events.preTool("Bash", { command: "rm -rf /" }, { session: { cwd: "", agentId: "claude-code" } });
    expect(() => evaluateRules(set, "pre-tool", event, "policy")).toThrow(/rule "no-recursive-delete-outside-project": when: .*(an empty path|the session has no working directory)/);
  });

  it("the first rule that decides wins", () => {
    const verdict = evaluateRules(set, "pre-tool", events.preTool("Bash", { command: "git push && rm -rf /" }, { session: project }), "policy");
    expect(verdict?.ruleId).toBe("no-recursive-delete-outside-project");
    expect(evaluateRules(set, "pre-tool", events.preTool("Bash", { command: "git push -f" }, { session: project }), "policy")?.decision).toEqual({ kind: "ask", reason: "push?" });
  });
});

describe("rules: every point's verbs", () => {
  const set = load(`
rules:
  - id: allow-ls
    when: call.tool_name == "Bash" && call.arguments.command == "ls" && call.arguments.timeout > 10
    decision: allow
  - id: no-rm-guard
    point: guard
    when: call.command.startsWith("rm")
    decision: deny
    message: guarded
  - id: add-timeout
    point: rewrite
    tools: [Bash]
    when: '!has(call.arguments.timeout)'
    decision: patch
    patch: '{"timeout": 30000, "description": null}'
  - id: approve-reads
    point: approval
    when: call.kind == "read"
    decision: approve
  - id: reject-others
    point: approval
    decision: reject
    messageExpression: '"not approved: " + approval.reason'
  - id: block-secrets
    point: post-tool
    when: result.text.contains("BEGIN PRIVATE KEY")
    decision: block
    message: the output held a private key
  - id: note-failures
    point: post-tool
    when: result.is_error
    decision: context
    message: the tool failed; read its error
  - id: no-keys-in-prompts
    point: pre-step
    when: step.text.matches("-----BEGIN [A-Z ]*PRIVATE KEY-----")
    decision: reject
    message: a private key in the prompt
  - id: remind
    point: pre-step
    when: step.turn == 1
    decision: context
    message: be careful
  - id: keep-going
    point: turn-stopping
    when: '!stop.stop_hook_active && stop.last_assistant_message.contains("TODO")'
    decision: steer
    message: finish the TODOs
`);
  const decide = (point: Parameters<typeof evaluateRules>[1], event: unknown) => evaluateRules(set, point, event, "policy");

  it("pre-tool allow, with integer arguments compared as CEL ints", () => {
    expect(decide("pre-tool", events.preTool("Bash", { command: "ls", timeout: 20 }))?.decision).toEqual({ kind: "allow" });
    expect(decide("pre-tool", events.preTool("Bash", { command: "ls", timeout: 5 }))).toBeUndefined();
  });

  it("guard deny", () => {
    expect(decide("guard", events.guard("Bash", { command: "rm x" }, { session: { agentId: "claude-code" } }))?.decision).toEqual({ kind: "deny", reason: "guarded" });
  });

  it("rewrite: the CEL map is the merge patch (ints exact, null deletes)", () => {
    expect(decide("rewrite", events.rewrite("Bash", { command: "ls" }))?.decision).toEqual({ kind: "patch", mergePatch: { timeout: 30000, description: null } });
    expect(decide("rewrite", events.rewrite("Bash", { command: "ls", timeout: 1 }))).toBeUndefined();
  });

  it("approval approve and reject", () => {
    expect(decide("approval", events.approval("Read", { file_path: "a" }))?.decision).toEqual({ kind: "approve" });
    expect(decide("approval", events.approval("Bash", { command: "x" }, { reason: "sure?" }))?.decision).toEqual({ kind: "reject", reason: "not approved: sure?" });
  });

  it("post-tool block and context", () => {
    expect(decide("post-tool", events.postTool("Read", {}, toolSuccess("-----BEGIN PRIVATE KEY-----")))?.decision).toEqual({ kind: "block", feedback: "the output held a private key" });
    expect(decide("post-tool", events.postTool("Read", {}, { isError: true, code: "tool_error", name: "Error", message: "no", content: [], contexts: [] }))?.decision).toEqual({
      kind: "accept",
      additionalContexts: [pluginMessage("policy", "the tool failed; read its error")],
    });
  });

  it("pre-step reject and context", () => {
    expect(decide("pre-step", events.preStep("here: -----BEGIN OPENSSH PRIVATE KEY-----"))?.decision).toEqual({ kind: "reject", reason: "a private key in the prompt" });
    const step = events.preStep("hello");
    expect(decide("pre-step", step)?.decision).toEqual({ kind: "enter", messages: [...step.messages, pluginMessage("policy", "be careful")] });
  });

  it("turn-stopping steer", () => {
    expect(decide("turn-stopping", events.turnStopping({ lastAssistantMessage: "TODO: tests" }))?.decision).toEqual({ kind: "steer", messages: [pluginMessage("policy", "finish the TODOs")] });
    expect(decide("turn-stopping", events.turnStopping({ lastAssistantMessage: "TODO", stopHookActive: true }))).toBeUndefined();
  });
});

describe("rules: bad rule files are config errors naming the file, the rule, the key and the column", () => {
  it.each([
    ["a syntax error", `rules:\n  - id: broken\n    when: call.tool_name ==\n    decision: deny\n    message: x`, /rules-\d+\.yaml: rules\[0\] \(id "broken"\)\.when: column \d+: /],
    ["an unknown field", `rules:\n  - id: typo\n    when: call.tool_nme == "Bash"\n    decision: deny\n    message: x`, /\(id "typo"\)\.when: column 5: call has no field "tool_nme"/],
    ["an unknown variable", `rules:\n  - id: var\n    when: 'caller.kind == "shell"'\n    decision: deny\n    message: x`, /\(id "var"\)\.when: column 1: unknown variable "caller"/],
    ["a variable another point has", `rules:\n  - id: res\n    when: result.is_error\n    decision: deny\n    message: x`, /unknown variable "result"/],
    ["an unknown function", `rules:\n  - id: fn\n    when: path.inside(call.path, "/")\n    decision: deny\n    message: x`, /\(id "fn"\)\.when: column 5: unknown function path\.inside/],
    ["a regular expression that does not compile", `rules:\n  - id: re\n    when: call.command.matches("rm (-rf")\n    decision: deny\n    message: x`, /\(id "re"\)\.when: column 22: not a regular expression CEL can use \(RE2 syntax\): /],
    ["a wrong arity", `rules:\n  - id: ar\n    when: path.within(call.path)\n    decision: deny\n    message: x`, /path\.within takes 2 arguments, got 1/],
    ["a when that is not boolean", `rules:\n  - id: nb\n    when: call.command + "x"\n    decision: deny\n    message: x`, /\(id "nb"\)\.when: must be a boolean, but it is a string/],
    ["a messageExpression that is not a string", `rules:\n  - id: ns\n    decision: deny\n    messageExpression: 'call.turn > 1'`, /\(id "ns"\)\.messageExpression: must be a string, but it is a bool/],
    ["an allow at guard", `rules:\n  - id: g\n    point: guard\n    decision: allow`, /\(id "g"\)\.decision: guard cannot allow; it takes deny/],
    ["a verb no point takes at pre-tool", `rules:\n  - id: b\n    decision: block\n    message: x`, /pre-tool cannot block; it takes deny, ask, allow/],
    ["a point that takes no rules", `rules:\n  - id: e\n    point: execute\n    decision: deny\n    message: x`, /\(id "e"\)\.point: "execute" takes no rule decisions/],
    ["a deny without a message", `rules:\n  - id: m\n    decision: deny`, /\(id "m"\)\.message: a deny needs a message or a messageExpression/],
    ["a rule with no decision", `rules:\n  - id: nd\n    when: "true"`, /rules\[0\] \(id "nd"\)\.decision: /],
    ["a patch that is not a map", `rules:\n  - id: p\n    point: rewrite\n    decision: patch\n    patch: '"x"'`, /\(id "p"\)\.patch: must be a map, but it is a string/],
    ["an unknown tool kind", `rules:\n  - id: k\n    tools: [kind:shel]\n    decision: deny\n    message: x`, /\(id "k"\)\.tools\[0\]: unknown tool kind "shel"/],
    ["tools off a tool point", `rules:\n  - id: t\n    point: pre-step\n    tools: [Bash]\n    decision: reject\n    message: x`, /\(id "t"\)\.tools: pre-step is not a tool point/],
    ["an unknown key", `rules:\n  - id: u\n    decison: deny`, /rules\[0\] \(id "u"\)/],
  ])("%s", (_what, yaml, expected) => {
    expect(loadError(yaml)).toMatch(expected);
  });

  it("a multi-line expression names the line and the column", () => {
    expect(loadError(`rules:\n  - id: ml\n    when: |\n      call.kind == "shell" &&\n        call.nope\n    decision: deny\n    message: x`)).toMatch(/\(id "ml"\)\.when: line 2 column 7: call has no field "nope"/);
  });

  it("two rules with one id, and a glob that matches no file", () => {
    const first = ruleFile(`rules:\n  - id: same\n    decision: allow`);
    const second = ruleFile(`rules:\n  - id: same\n    decision: allow`);
    expect(() => loadRuleSet([first, second], "plugins.policy.rules")).toThrow(/rules\[0\] \(id "same"\)\.id: the id is also rule 0 of .*; ids must be unique/);
    expect(() => loadRuleSet([join(dir, "none-*.yaml")], "plugins.policy.rules")).toThrow(/plugins\.policy\.rules: .*none-\*\.yaml: no rule file there/);
  });
});

describe("rules: a rule that fails at run time is the plugin's failure, never an allow", () => {
  const set = load(`
rules:
  - id: reads-a-missing-argument
    when: call.arguments.command.startsWith("rm")
    decision: deny
    message: no rm
`);

  function service(failurePolicy?: "fail-open") {
    const listeners = rulesListeners("policy", set, failurePolicy === undefined ? {} : { "pre-tool": { failurePolicy } }, 2_000);
    const { evaluate, bus } = evaluateServiceOver(new PluginRegistry(listeners));
    const seen: EngineEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    return { evaluate, seen };
  }
  const decisionAt = (seen: readonly EngineEvent[], point: PointName) => seen.find((e) => e.type === "decision" && e.point === point);
  const live = { signal: new AbortController().signal };

  it("fail-closed (the gate's default): a deny whose cause is listener_error, naming the rule", async () => {
    const { evaluate, seen } = service();
    const answer = await evaluate.evaluate("pre-tool", events.preTool("Read", { file_path: "x" }), live);
    expect(answer.decision.kind).toBe("deny");
    expect(answer.trace).toMatchObject({ decidedBy: "policy", failureCause: "listener_error" });
    expect(JSON.stringify(decisionAt(seen, "pre-tool"))).toContain('rule \\"reads-a-missing-argument\\": when: ');
  });

  it("fail-open: passed over, and the default names the failure", async () => {
    const { evaluate } = service("fail-open");
    const answer = await evaluate.evaluate("pre-tool", events.preTool("Read", { file_path: "x" }), live);
    expect(answer).toMatchObject({ decision: { kind: "allow" }, trace: { decidedBy: "default", failureCause: "listener_error" } });
  });

  it("the same rule over an event that has the field decides", async () => {
    const { evaluate } = service();
    const answer = await evaluate.evaluate("pre-tool", events.preTool("Bash", { command: "rm -rf x" }), live);
    expect(answer).toMatchObject({ decision: { kind: "deny", reason: "no rm" }, trace: { decidedBy: "policy" } });
  });
});

describe("rules: the rule id wherever the decision is explained", () => {
  const set = load(DESTRUCTIVE);
  const live = { signal: new AbortController().signal };

  it("the invocation and the decision records name the rule; the invocation carries the values it read", async () => {
    const { evaluate, bus } = evaluateServiceOver(new PluginRegistry(rulesListeners("policy", set, {}, 2_000)));
    const seen: EngineEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    const event = events.preTool("Write", { file_path: ".env" }, { session: { agentId: "claude-code", cwd: "/home/dev/project" } });
    await evaluate.evaluate("pre-tool", event, live);
    const invocation = seen.find((e) => e.type === "invocation");
    const decision = seen.find((e) => e.type === "decision");
    expect(invocation?.type === "invocation" ? invocation.invocation : undefined).toMatchObject({ plugin: "policy", rule: "no-env-writes", ruleValues: { "call.path": ".env" } });
    expect(invocation === undefined ? undefined : toAuditRecord(invocation)).toMatchObject({ kind: "invocation", rule: "no-env-writes" });
    const record = decision === undefined ? undefined : toAuditRecord(decision);
    expect(record).toMatchObject({ kind: "decision", plugin: "policy", decision: "deny", rule: "no-env-writes" });
    // What `hookd tail` prints of it, through the admin stream's record.
    expect(record === undefined ? "" : recordLine(toProtoAuditRecord(record))).toContain('policy -> deny');
    expect(record === undefined ? "" : recordLine(toProtoAuditRecord(record))).toContain('rule=no-env-writes "no writes to .env files"');
  });

  it("a plugin that passed names no rule", async () => {
    const { evaluate, bus } = evaluateServiceOver(new PluginRegistry(rulesListeners("policy", set, {}, 2_000)));
    const seen: EngineEvent[] = [];
    bus.subscribe((event) => seen.push(event));
    await evaluate.evaluate("pre-tool", events.preTool("Read", { file_path: "a" }), live);
    expect(seen.filter((e) => e.type === "invocation" || e.type === "decision").map((e) => toAuditRecord(e)?.rule)).toEqual([undefined, undefined]);
  });
});

describe("rules: the rule file's JSON Schema (daemon/rules.schema.json, npm run generate)", () => {
  interface Node { readonly properties?: Record<string, Node & { readonly description?: string }>; readonly items?: Node }
  const file = JSON.parse(readFileSync(new URL("../rules.schema.json", import.meta.url), "utf8")) as Node & { readonly $id: string };
  const rule = (node: Node): Node => node.properties?.rules?.items ?? {};

  it("has every key of a rule, each described, as the schema the loader uses", () => {
    const fromZod = z.toJSONSchema(ruleFileSchema, { io: "input" }) as Node;
    expect(file.$id).toBe("https://hookd.dev/schema/rules.json");
    expect(Object.keys(rule(file).properties ?? {})).toEqual(Object.keys(rule(fromZod).properties ?? {}));
    for (const [key, node] of Object.entries(rule(file).properties ?? {})) expect(node.description, key).toMatch(/\S/);
  });
});
