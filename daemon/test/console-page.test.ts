// The console's pure parts: which records the page's filters let through and keep, and the token
// check behind every request (bearer header, or the cookie the login sets).
import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { KEPT_RECORDS, NO_FILTERS, RecordBuffer, isAuditRecord, matches } from "../console-ui/src/records.js";
import type { AuditRecord } from "../console-ui/src/records.js";
import { ConsoleAuth, SESSION_COOKIE } from "../src/console/auth.js";

function record(fields: Partial<AuditRecord> = {}): AuditRecord {
  return { time: "2026-12-02T05:00:00.000Z", kind: "invocation", agentId: "a", sessionId: "s", turn: 1, step: 1, callId: "c", plugin: "p", point: "pre-tool", decision: "allow", reason: "", cause: "", durationUs: 10, outcome: "answered", ...fields };
}

describe("console page filters", () => {
  it("match each field, outcome by a call's outcome or any record's decision, shadow both ways", () => {
    expect(matches(record(), NO_FILTERS)).toBe(true);
    expect(matches(record(), { ...NO_FILTERS, agent: "b" })).toBe(false);
    expect(matches(record(), { ...NO_FILTERS, session: "s" })).toBe(true);
    expect(matches(record(), { ...NO_FILTERS, plugin: "q" })).toBe(false);
    expect(matches(record(), { ...NO_FILTERS, point: "post-tool" })).toBe(false);
    expect(matches(record(), { ...NO_FILTERS, outcome: "answered" })).toBe(true);
    expect(matches(record({ kind: "decision", decision: "deny", outcome: undefined }), { ...NO_FILTERS, outcome: "deny" })).toBe(true);
    expect(matches(record(), { ...NO_FILTERS, outcome: "deny" })).toBe(false);
    expect(matches(record({ kind: "shadow" }), { ...NO_FILTERS, shadow: "only" })).toBe(true);
    expect(matches(record(), { ...NO_FILTERS, shadow: "only" })).toBe(false);
    expect(matches(record({ kind: "shadow" }), { ...NO_FILTERS, shadow: "none" })).toBe(false);
  });

  it("keep the newest records, list them newest first, and collect the values seen", () => {
    const buffer = new RecordBuffer();
    expect(buffer.add(record({ agentId: "first" }))).toEqual([["agent", "first"], ["session", "s"], ["plugin", "p"], ["point", "pre-tool"], ["outcome", "answered"], ["outcome", "allow"]]);
    expect(buffer.add(record({ agentId: "first" }))).toEqual([]);
    for (let i = 0; i < KEPT_RECORDS + 10; i++) buffer.add(record({ callId: String(i), decision: i % 2 === 0 ? "allow" : "deny" }));
    const newest = buffer.newest(NO_FILTERS, KEPT_RECORDS + 100);
    expect(newest).toHaveLength(KEPT_RECORDS);
    expect(newest[0]?.callId).toBe(String(KEPT_RECORDS + 9));
    expect(buffer.newest({ ...NO_FILTERS, outcome: "deny" }, 3).map((r) => r.callId)).toEqual([String(KEPT_RECORDS + 9), String(KEPT_RECORDS + 7), String(KEPT_RECORDS + 5)]);
    expect([...buffer.seen.outcome]).toEqual(["answered", "allow", "deny"]);
    expect(isAuditRecord({ time: "t" })).toBe(false);
    expect(isAuditRecord(record())).toBe(true);
  });
});

function request(headers: Record<string, string>): IncomingMessage {
  return { headers } as unknown as IncomingMessage;
}

describe("console token", () => {
  const auth = new ConsoleAuth({ token: "console-token-0123456789" });

  it("accepts the bearer token or the login's cookie, and nothing else", () => {
    expect(auth.allows(request({ authorization: "Bearer console-token-0123456789" }))).toBe(true);
    expect(auth.allows(request({ authorization: "bearer console-token-0123456789" }))).toBe(true);
    expect(auth.allows(request({ authorization: "Bearer console-token-012345678" }))).toBe(false);
    expect(auth.allows(request({}))).toBe(false);
    const cookie = auth.sessionCookie();
    expect(cookie).toMatch(/; HttpOnly; SameSite=Strict; Path=\/$/);
    const value = cookie.slice(0, cookie.indexOf(";"));
    expect(value).not.toContain("console-token-0123456789");
    expect(auth.allows(request({ cookie: `other=1; ${value}` }))).toBe(true);
    expect(auth.allows(request({ cookie: `${SESSION_COOKIE}=forged` }))).toBe(false);
    // A wrong bearer token is refused even beside a valid cookie: the header is what was offered.
    expect(auth.allows(request({ authorization: "Bearer nope-nope-nope-nope", cookie: value }))).toBe(false);
  });

  it("ends the sessions of a rotated token, and refuses a token too short", () => {
    const value = auth.sessionCookie().split(";")[0] ?? "";
    expect(new ConsoleAuth({ token: "another-token-0123456789" }).allows(request({ cookie: value }))).toBe(false);
    expect(() => new ConsoleAuth({ token: "short" })).toThrow(/console\.token: a console token of at least 16 characters/);
  });
});
