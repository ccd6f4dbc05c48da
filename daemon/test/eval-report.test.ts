// hookd eval's explanation model (commands/eval-report.ts): which decision is final when one
// event ran several points, why it is said to be, and how a replay is compared with recorded
// audit records. The CLI end to end, with real plugins, is test/ops/eval.test.ts.
import { describe, expect, it } from "vitest";
import { compareWithRecord, finalOf, pointsOf } from "../src/commands/eval-report.js";
import { PluginRegistry } from "../src/engine/registry.js";
import type { AuditRecord } from "../src/ops/audit.js";

function record(kind: AuditRecord["kind"], point: AuditRecord["point"], plugin: string, decision: string, extra: Partial<AuditRecord> = {}): AuditRecord {
  return { time: "", kind, agentId: "a", sessionId: "s", turn: 1, step: 1, callId: "c", plugin, point, decision, reason: "", cause: "", durationUs: 1500, ...extra };
}

describe("finalOf", () => {
  it("a guard's abstain and a rewrite's pass do not outweigh pre-tool's ask", () => {
    const records = [record("decision", "rewrite", "default", "pass"), record("decision", "pre-tool", "asker", "ask", { reason: "sure?" }), record("decision", "guard", "default", "abstain")];
    const final = finalOf(pointsOf(records, PluginRegistry.EMPTY, { toolName: "Bash" }));
    expect(final).toMatchObject({ point: "pre-tool", decision: "ask", decidedBy: "asker", latencyMs: 1.5, why: "asker answered ask at pre-tool: sure?" });
  });

  it("a denying guard is final; the default and a failure policy are said to be", () => {
    const guard = finalOf(pointsOf([record("decision", "pre-tool", "default", "allow"), record("decision", "guard", "g", "deny", { reason: "no" })], PluginRegistry.EMPTY, {}));
    expect(guard).toMatchObject({ point: "guard", decision: "deny", why: "g answered deny at guard: no" });
    expect(finalOf(pointsOf([record("decision", "pre-tool", "default", "allow")], PluginRegistry.EMPTY, {})).why).toBe("no plugin decided at pre-tool: its default is allow");
    const fault = finalOf(pointsOf([record("decision", "pre-tool", "p", "deny", { cause: "deadline_exceeded", reason: "late" })], PluginRegistry.EMPTY, {}));
    expect(fault.why).toBe("p could not answer at pre-tool (deadline_exceeded): its failure policy made it deny (late)");
  });

  it("an event that only notified has no decision", () => {
    expect(finalOf(pointsOf([record("invocation", "session-start", "p", "context")], PluginRegistry.EMPTY, {}))).toMatchObject({ point: "", decision: "observed" });
  });
});

describe("compareWithRecord", () => {
  const recorded = [record("invocation", "pre-tool", "a", "pass", { outcome: "passed" }), record("invocation", "pre-tool", "b", "deny", { outcome: "answered" }), record("decision", "pre-tool", "b", "deny", { reason: "r" })];

  it("agrees with the same run", () => {
    expect(compareWithRecord(recorded, recorded)).toEqual([]);
  });

  it("names a changed decision, a changed answer and a call no longer made", () => {
    const replayed = [record("invocation", "pre-tool", "a", "allow", { outcome: "answered" }), record("decision", "pre-tool", "a", "allow")];
    expect(compareWithRecord(recorded, replayed)).toEqual([
      "pre-tool: recorded deny by b, replayed allow by a",
      "pre-tool: a answered pass (passed), now allow (answered)",
      "pre-tool: b was called (deny) and is not now",
    ]);
  });

  it("a single recorded invocation is compared with that plugin's call only; a new reason is named", () => {
    const one = [record("invocation", "pre-tool", "b", "deny", { outcome: "answered" })];
    expect(compareWithRecord(one, recorded)).toEqual([]);
    expect(compareWithRecord([record("decision", "pre-tool", "b", "deny", { reason: "old" })], recorded)).toEqual(['pre-tool: same decision, but the reason was "old" and is now "r"']);
  });

  it("the same plugin's same decision by another rule is a difference; a record from before rules were named is not", () => {
    const byRule = (rule: string) => [record("decision", "pre-tool", "guardrails", "deny", { reason: "r", rule })];
    expect(compareWithRecord(byRule("no-env-writes"), byRule("no-env-writes"))).toEqual([]);
    expect(compareWithRecord(byRule("no-env-writes"), byRule("protected-paths"))).toEqual(['pre-tool: same decision by guardrails, but by rule "no-env-writes" then and rule "protected-paths" now']);
    expect(compareWithRecord([record("decision", "pre-tool", "guardrails", "deny", { reason: "r" })], byRule("protected-paths"))).toEqual([]);
  });

  it("only the points the record names are compared", () => {
    expect(compareWithRecord([record("decision", "rewrite", "default", "pass")], [...recorded, record("decision", "rewrite", "default", "pass")])).toEqual([]);
  });
});
