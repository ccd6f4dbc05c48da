// The audit trail: records built from engine events, synchronous appends, the fsync policies,
// reopen after rotation, a torn tail fenced on open, live subscribers with filters.
import { mkdtempSync, readFileSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EngineEvent } from "../src/engine/events.js";
import { AuditTrail, toAuditRecord } from "../src/ops/audit.js";
import type { AuditRecord } from "../src/ops/audit.js";
import { silentLogger } from "../src/log.js";

const scope = { sessionId: "s1", agentId: "a1", turn: 2, step: 3, callId: "c9" };

const invocation = (plugin: string, fault?: "deadline_exceeded"): EngineEvent => ({
  type: "invocation",
  scope,
  invocation: fault
    ? { plugin, point: "pre-tool", kind: "remote", durationUs: 2_000_100, outcome: "fault", decision: "deny", fault, detail: "no answer within 2000 ms" }
    : { plugin, point: "pre-tool", kind: "in-process", durationUs: 42, outcome: "answered", decision: "allow" },
});

const decision = (sessionId = "s1"): EngineEvent => ({
  type: "decision",
  scope: { ...scope, sessionId },
  point: "pre-tool",
  decision: "deny",
  decidedBy: "guard-1",
  reason: "no bash",
  cause: "deadline_exceeded",
  durationUs: 77,
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "hookd-audit-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lines = (path: string): AuditRecord[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as AuditRecord);

const parses = (line: string): boolean => {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
};

describe("toAuditRecord", () => {
  it("maps a faulted invocation with its cause, detail and scope", () => {
    expect(toAuditRecord(invocation("remote-1", "deadline_exceeded"), new Date("2030-01-02T03:04:05.678Z"))).toEqual({
      time: "2030-01-02T03:04:05.678Z",
      kind: "invocation",
      agentId: "a1",
      sessionId: "s1",
      turn: 2,
      step: 3,
      callId: "c9",
      plugin: "remote-1",
      point: "pre-tool",
      decision: "deny",
      reason: "no answer within 2000 ms",
      cause: "deadline_exceeded",
      durationUs: 2_000_100,
      outcome: "fault",
    });
  });

  it("maps an applied decision to the plugin that decided it", () => {
    expect(toAuditRecord(decision())).toMatchObject({ kind: "decision", plugin: "guard-1", decision: "deny", reason: "no bash", cause: "deadline_exceeded", durationUs: 77 });
  });

  it("ignores loop events", () => {
    expect(toAuditRecord({ type: "turn-started", scope })).toBeUndefined();
  });
});

describe("AuditTrail", () => {
  it("appends one JSON line per record, synchronously, creating the directory", () => {
    const path = join(dir, "nested/audit.jsonl");
    const trail = new AuditTrail({ path, fsync: "always" }, silentLogger);
    trail.observe(invocation("p"));
    trail.observe({ type: "turn-started", scope });
    trail.observe(decision());
    expect(lines(path).map((r) => r.kind)).toEqual(["invocation", "decision"]);
    expect(trail.records).toBe(2);
    trail.close();
  });

  it("continues in a fresh file after reopen, leaving the rotated one complete", () => {
    const path = join(dir, "audit.jsonl");
    const trail = new AuditTrail({ path, fsync: "never" }, silentLogger);
    trail.observe(invocation("before"));
    renameSync(path, `${path}.1`);
    trail.observe(invocation("rotated-away"));
    trail.reopen();
    trail.observe(invocation("after"));
    trail.close();
    expect(lines(`${path}.1`).map((r) => r.plugin)).toEqual(["before", "rotated-away"]);
    expect(lines(path).map((r) => r.plugin)).toEqual(["after"]);
  });

  it("fences a torn last line on open, so the next record is not glued to it", () => {
    const path = join(dir, "audit.jsonl");
    const before = new AuditTrail({ path, fsync: "always" }, silentLogger);
    before.observe(invocation("one"));
    before.observe(invocation("two"));
    before.close();
    // A crash mid-write: the file ends inside the second record, with no newline.
    truncateSync(path, statSync(path).size - 20);
    const after = new AuditTrail({ path, fsync: "always" }, silentLogger);
    after.observe(invocation("three"));
    after.close();
    const text = readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
    const unparsed = text.filter((l) => !parses(l));
    expect(unparsed).toHaveLength(1); // the torn one, alone on its line
    expect(unparsed[0]).toMatch(/^\{.*"plugin":"two"/);
    expect(text.filter(parses).map((l) => (JSON.parse(l) as AuditRecord).plugin)).toEqual(["one", "three"]);
  });

  it("fences a torn line found when reopening for rotation", () => {
    const path = join(dir, "audit.jsonl");
    const trail = new AuditTrail({ path, fsync: "never" }, silentLogger);
    trail.observe(invocation("kept"));
    // Another writer (or a copytruncate gone wrong) left a partial record at the path.
    renameSync(path, `${path}.1`);
    writeFileSync(path, '{"kind":"invoc');
    trail.reopen();
    trail.observe(invocation("after"));
    trail.close();
    expect(readFileSync(path, "utf8")).toMatch(/^\{"kind":"invoc\n\{.*"plugin":"after".*\}\n$/);
  });

  it("leaves a file that ends with a complete line as it is", () => {
    const path = join(dir, "audit.jsonl");
    for (const plugin of ["one", "two"]) {
      const trail = new AuditTrail({ path, fsync: "never" }, silentLogger);
      trail.observe(invocation(plugin));
      trail.close();
    }
    expect(readFileSync(path, "utf8").split("\n")).toHaveLength(3); // two records, one final newline
    expect(lines(path).map((r) => r.plugin)).toEqual(["one", "two"]);
  });

  it("switches files when a reload changes the path", () => {
    const trail = new AuditTrail({ path: join(dir, "a.jsonl"), fsync: "interval" }, silentLogger);
    trail.observe(invocation("one"));
    trail.reconfigure({ path: join(dir, "b.jsonl"), fsync: "interval" });
    trail.observe(invocation("two"));
    trail.close();
    expect(lines(join(dir, "a.jsonl")).map((r) => r.plugin)).toEqual(["one"]);
    expect(lines(join(dir, "b.jsonl")).map((r) => r.plugin)).toEqual(["two"]);
  });

  it("feeds live subscribers matching their filter, with or without a file", () => {
    const trail = new AuditTrail(undefined, silentLogger);
    const bySession: AuditRecord[] = [];
    const byPlugin: AuditRecord[] = [];
    const unsubscribe = trail.subscribe({ sessionId: "wanted" }, (r) => bySession.push(r));
    trail.subscribe({ plugin: "p2", point: "pre-tool" }, (r) => byPlugin.push(r));
    trail.observe(decision("other"));
    trail.observe(decision("wanted"));
    trail.observe(invocation("p2"));
    unsubscribe();
    trail.observe(decision("wanted"));
    expect(bySession.map((r) => r.sessionId)).toEqual(["wanted"]);
    expect(byPlugin.map((r) => r.plugin)).toEqual(["p2"]);
  });

  it("refuses to start on a path it cannot create", () => {
    writeFileSync(join(dir, "file"), "");
    expect(() => new AuditTrail({ path: join(dir, "file/audit.jsonl"), fsync: "never" }, silentLogger)).toThrow(/ENOTDIR|EEXIST/);
  });
});
