// What `hookd tail` receives of a rewrite: the effective and the original arguments and the
// rewriters travel in the admin stream's records, as the audit file writes them.
import { describe, expect, test } from "vitest";
import { recordLine } from "../src/commands/admin.js";
import { toProtoAuditRecord } from "../src/ops/admin-service.js";
import type { AuditRecord } from "../src/ops/audit.js";

const REWRITE: AuditRecord = {
  time: "2026-12-01T00:00:00.000Z",
  kind: "decision",
  agentId: "a",
  sessionId: "s",
  turn: 1,
  step: 1,
  callId: "c1",
  plugin: "confine,tagger",
  point: "rewrite",
  decision: "rewrite",
  reason: "",
  cause: "",
  durationUs: 12,
  argumentsJson: '{"path":"/srv/a.txt","big":9223372036854775807}',
  originalArgumentsJson: '{"path":"a.txt","big":9223372036854775807}',
  rewrittenBy: ["confine", "tagger"],
};

describe("a rewrite decision in the tail", () => {
  test("carries both argument versions and the rewriters, digit for digit", () => {
    const record = toProtoAuditRecord(REWRITE);
    expect(record.argumentsJson).toBe(REWRITE.argumentsJson);
    expect(record.originalArgumentsJson).toBe(REWRITE.originalArgumentsJson);
    expect(record.rewrittenBy).toEqual(["confine", "tagger"]);
    expect(recordLine(record)).toContain(`args=${REWRITE.argumentsJson} was=${REWRITE.originalArgumentsJson}`);
  });

  test("a record without a rewrite says nothing of arguments", () => {
    const { argumentsJson: _a, originalArgumentsJson: _o, rewrittenBy: _r, ...plain } = REWRITE;
    const record = toProtoAuditRecord({ ...plain, point: "pre-tool", decision: "allow", plugin: "policy", outcome: "answered" });
    expect(record.argumentsJson).toBeUndefined();
    expect(record.outcome).toBe("answered");
    expect(recordLine(record)).not.toContain("args=");
  });
});
