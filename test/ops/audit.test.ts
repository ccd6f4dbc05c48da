// The audit trail of a real daemon: every invocation and applied decision on disk before the
// agent has its answer (so a kill -9 loses none that a client received), `hookd tail` streaming
// the same records with filters, and SIGHUP reopening a rotated file.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Workdir, adminClient, closeClient, hostClient, pb, pluginEntry, preTool, readAudit, runCli, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

let work: Workdir;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  work.cleanup();
});

async function start(fsync: "always" | "interval" | "never" = "always", existing?: string): Promise<{ socket: string; audit: string }> {
  work = new Workdir();
  const socket = work.file("hookd.sock");
  const audit = work.file("log/audit.jsonl");
  if (existing !== undefined) {
    mkdirSync(dirname(audit), { recursive: true });
    writeFileSync(audit, existing);
  }
  daemon = await startDaemon({ configFile: work.writeConfig({ listeners: [{ unix: socket }], plugins: [pluginEntry("policy")], audit: { path: audit, fsync } }), awaitServing: false });
  return { socket, audit };
}

describe("audit log", () => {
  it("records each invocation and decision with its session, call, plugin, point, decision, reason and duration", async () => {
    const { socket, audit } = await start();
    await daemon?.waitLog("hookd ready");
    const client = hostClient(socket);
    try {
      expect(await preTool(client, { sessionId: "s-1", callId: "c-1", toolName: "Bash" })).toMatchObject({ decision: "deny", reason: "no bash" });
      expect(await preTool(client, { sessionId: "s-1", callId: "c-2", toolName: "Read" })).toMatchObject({ decision: "allow" });
    } finally {
      closeClient(client);
    }
    // Written synchronously before the answer: no wait is needed to find them.
    const records = readAudit(audit);
    expect(records).toContainEqual(
      expect.objectContaining({ kind: "invocation", agentId: "ops-test", sessionId: "s-1", callId: "c-1", plugin: "policy", point: "pre-tool", decision: "deny", reason: "no bash", outcome: "answered" }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({ kind: "decision", sessionId: "s-1", turn: 1, step: 1, callId: "c-1", plugin: "policy", point: "pre-tool", decision: "deny", reason: "no bash", cause: "" }),
    );
    expect(records).toContainEqual(expect.objectContaining({ kind: "decision", callId: "c-2", point: "pre-tool", decision: "allow" }));
    for (const record of records) {
      expect(record.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(typeof record.durationUs).toBe("number");
    }
  });

  it("keeps every decision a client received when the daemon is killed with SIGKILL under load", async () => {
    const { socket, audit } = await start("always");
    await daemon?.waitLog("hookd ready");
    const client = hostClient(socket);
    const received: string[] = [];
    const workers = 8;
    let n = 0;
    let killed = false;
    const loop = async (): Promise<void> => {
      while (!killed) {
        const callId = `c-${n++}`;
        try {
          const answer = await preTool(client, { sessionId: "load", callId, toolName: n % 2 === 0 ? "Bash" : "Read" }, 5_000);
          received.push(`${callId}:${answer.decision}`);
        } catch {
          return; // the daemon is gone
        }
      }
    };
    const running = Array.from({ length: workers }, () => loop());
    // Kill once a good number of answers are in, while calls are still in flight.
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (received.length >= 300) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    daemon?.child.kill("SIGKILL");
    killed = true;
    await Promise.all(running);
    closeClient(client);
    expect((await daemon?.exited)?.signal).toBe("SIGKILL");
    const decided = new Set(readAudit(audit).filter((r) => r.kind === "decision").map((r) => `${String(r.callId)}:${String(r.decision)}`));
    const missing = received.filter((entry) => !decided.has(entry));
    expect(received.length).toBeGreaterThanOrEqual(300);
    expect(missing).toEqual([]);
  });

  it("streams the same records to `tail`, filtered by session, plugin and point", async () => {
    const { socket } = await start("never");
    await daemon?.waitLog("hookd ready");
    const admin = adminClient(socket);
    const host = hostClient(socket);
    const controller = new AbortController();
    try {
      const stream = admin.tailAudit({ sessionId: "wanted", point: pb.Point.PRE_TOOL }, { signal: controller.signal })[Symbol.asyncIterator]();
      const first = stream.next(); // starts the call
      await daemon?.waitLog("audit tail opened");
      await preTool(host, { sessionId: "other", callId: "o-1", toolName: "Bash" });
      await preTool(host, { sessionId: "wanted", callId: "w-1", toolName: "Bash" });
      const collected: pb.AuditRecord[] = [];
      for (const next of [await first, await stream.next()]) {
        if (next.done !== true && next.value.record !== undefined) collected.push(next.value.record);
      }
      for (const record of collected) {
        expect(record.sessionId).toBe("wanted");
        expect(record.point).toBe(pb.Point.PRE_TOOL);
        expect(record.plugin).toBe("policy");
      }
      expect(collected.map((r) => r.kind)).toEqual(["invocation", "decision"]);
      expect(collected[1]?.reason).toBe("no bash");
    } finally {
      controller.abort();
      closeClient(admin);
      closeClient(host);
    }
  });

  it("prints live records with `hookd tail --json`", async () => {
    const { socket } = await start("never");
    await daemon?.waitLog("hookd ready");
    const tail = runCli(["tail", "--socket", socket, "--json", "--session", "cli"], {}, 20_000);
    const host = hostClient(socket);
    try {
      // `hookd tail` exits when the daemon stops (its stream ends with UNAVAILABLE).
      await daemon?.waitLog("audit tail opened");
      await preTool(host, { sessionId: "cli", callId: "t-1", toolName: "Bash" });
    } finally {
      closeClient(host);
    }
    await daemon?.stop("SIGTERM");
    // The stream ends with the daemon (UNAVAILABLE): tail says so and exits non-zero.
    const { code, stdout, stderr } = await tail;
    expect(stderr).toContain("hookd is shutting down");
    expect(code).toBe(1);
    const lines = stdout.trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ kind: "decision", sessionId: "cli", callId: "t-1", point: "pre-tool", decision: "deny", reason: "no bash" }));
  });

  it("starts on a log whose last record was torn by a crash without gluing the next record to it", async () => {
    const complete = JSON.stringify({ kind: "decision", callId: "old" });
    const { socket, audit } = await start("always", `${complete}\n${complete.slice(0, 17)}`);
    await daemon?.waitLog("hookd ready");
    const client = hostClient(socket);
    try {
      await preTool(client, { sessionId: "torn", callId: "new", toolName: "Bash" });
    } finally {
      closeClient(client);
    }
    const [first, torn, ...appended] = readFileSync(audit, "utf8").split("\n");
    expect(JSON.parse(first ?? "")).toMatchObject({ callId: "old" });
    expect(torn).toBe(complete.slice(0, 17));
    expect(appended.at(-1)).toBe(""); // every record ends its line
    const records = appended.filter((line) => line !== "").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(expect.objectContaining({ kind: "decision", callId: "new", decision: "deny" }));
  });

  it("reopens the file on SIGHUP, so a rotated log is continued in a fresh file", async () => {
    const { socket, audit } = await start("always");
    await daemon?.waitLog("hookd ready");
    const client = hostClient(socket);
    try {
      await preTool(client, { sessionId: "r", callId: "before", toolName: "Bash" });
      renameSync(audit, `${audit}.1`);
      await preTool(client, { sessionId: "r", callId: "still-old", toolName: "Bash" });
      daemon?.child.kill("SIGHUP");
      await daemon?.waitLog("config reloaded");
      await preTool(client, { sessionId: "r", callId: "after", toolName: "Bash" });
    } finally {
      closeClient(client);
    }
    const old = readAudit(`${audit}.1`).map((r) => r.callId);
    const fresh = readAudit(audit).map((r) => r.callId);
    expect(old).toContain("before");
    expect(old).toContain("still-old");
    expect(fresh).toContain("after");
    expect(fresh).not.toContain("before");
  });
});

