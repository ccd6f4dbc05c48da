// Evaluate through a real nginx (round-robin, unary) in front of three hookd instances under a
// bounded load, one instance killed (SIGKILL) mid-run: every call settles (answered or failed,
// none lost silently), every answered decision is in the union of the three audit files exactly
// once with the instance id of the daemon that decided it, and calls after the kill are answered
// by the other two. Bounded: 4 clients x 60 calls; the kill is triggered by a count of answers.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, SessionInfo } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, startDaemon, type DaemonProcess } from "../support/daemon-process.js";
import { startNginx, type Nginx } from "./support/nginx.js";

const INSTANCES = ["fleet-a", "fleet-b", "fleet-c"] as const;
const CLIENTS = 4;
const CALLS_PER_CLIENT = 60;
/** The instance killed once this many calls were answered. */
const KILL_AFTER = 60;
const POLICY = resolve(REPO, "test/ops/fixtures/policy.mjs");

let auditDir: string;
let daemons: DaemonProcess[] = [];
let nginx: Nginx;

beforeAll(async () => {
  auditDir = await mkdtemp(join(tmpdir(), "hookd-fleet-audit-"));
  daemons = await Promise.all(
    INSTANCES.map((id) =>
      startDaemon({
        config: {
          instance: { id },
          plugins: [{ name: "policy", kind: "in-process", module: POLICY }],
          audit: { path: join(auditDir, `${id}.jsonl`), fsync: "always" },
        },
      }),
    ),
  );
  nginx = await startNginx({ upstreams: daemons.map((d) => d.socket) });
});

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(daemons.map((d) => d.stop()));
  if (auditDir !== undefined) await rm(auditDir, { recursive: true, force: true });
});

interface Outcome {
  readonly callId: string;
  readonly afterKill: boolean;
  readonly decision?: string;
  readonly error?: string;
}

function preTool(session: SessionInfo, callId: string, toolName: string) {
  const args = snapshotJson({ n: callId });
  return { session, call: { callId, rootCallId: callId, toolName, arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 } };
}

describe("evaluate through nginx with one of three instances killed mid-run", () => {
  it("settles every call, and the audit files hold each answered decision once, with its instance id", async () => {
    const victim = daemons[1];
    if (victim === undefined) throw new Error("three daemons expected");
    let answered = 0;
    let killed = false;
    const kill = (): void => {
      if (killed) return;
      killed = true;
      victim.child.kill("SIGKILL");
    };
    const clients: HostClient[] = [];
    const outcomes: Outcome[] = [];
    const run = async (c: number): Promise<void> => {
      // One attempt per call: a retry after the kill could reach another instance and be decided
      // there too, and this test counts each answered call's decisions (docs/overload.md).
      const client = connectHost(nginx.address, { agentId: `agent-${c}`, evaluateTransport: "unary", evaluateRetry: false });
      clients.push(client);
      const session: SessionInfo = { sessionId: `load-${c}`, agentId: "", cwd: "/w", parentSessionId: "", agentType: "" };
      for (let i = 0; i < CALLS_PER_CLIENT; i++) {
        const callId = `c${c}-${i}`;
        const afterKill = killed;
        try {
          const { decision } = await client.evaluatePreTool(preTool(session, callId, i % 2 === 0 ? "Bash" : "Read"), { timeoutMs: 20_000 });
          outcomes.push({ callId, afterKill, decision: decision.kind });
          if (++answered >= KILL_AFTER) kill();
        } catch (error) {
          outcomes.push({ callId, afterKill, error: error instanceof Error ? error.message : String(error) });
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: CLIENTS }, (_, c) => run(c)));
    } finally {
      for (const client of clients) client.close();
    }
    expect(killed).toBe(true);
    await new Promise((done) => (victim.child.exitCode === null && victim.child.signalCode === null ? victim.child.once("exit", done) : done(undefined)));

    // Every call settled, one way or the other: none was lost without a word.
    expect(outcomes).toHaveLength(CLIENTS * CALLS_PER_CLIENT);
    const ok = outcomes.filter((o) => o.decision !== undefined);
    const failed = outcomes.filter((o) => o.error !== undefined);
    expect(ok.length).toBeGreaterThan(KILL_AFTER);

    const decisions = new Map<string, Record<string, unknown>[]>();
    for (const id of INSTANCES) {
      const text = await readFile(join(auditDir, `${id}.jsonl`), "utf8");
      for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
        let record: Record<string, unknown>;
        try {
          record = JSON.parse(line) as Record<string, unknown>;
        } catch {
          continue; // a torn last line of the killed instance: never an answered decision (fsync: always, written before the answer)
        }
        expect(record.instanceId).toBe(id);
        if (record.kind !== "decision") continue;
        const callId = String(record.callId);
        decisions.set(callId, [...(decisions.get(callId) ?? []), record]);
      }
    }
    for (const outcome of ok) {
      const records = decisions.get(outcome.callId) ?? [];
      expect(records, `decision records of answered call ${outcome.callId}`).toHaveLength(1);
      expect(records[0]?.decision).toBe(outcome.decision);
      expect(INSTANCES).toContain(records[0]?.instanceId);
    }
    // The victim took a share before it died; calls begun after the kill were all decided elsewhere.
    const byInstance = (id: string) => ok.filter((o) => decisions.get(o.callId)?.[0]?.instanceId === id).length;
    expect(byInstance("fleet-b")).toBeGreaterThan(0);
    for (const outcome of ok.filter((o) => o.afterKill)) expect(decisions.get(outcome.callId)?.[0]?.instanceId).not.toBe("fleet-b");
    expect(byInstance("fleet-a") + byInstance("fleet-c")).toBeGreaterThan(0);
    // A failed call's decision may have been written by the victim just before it died: never twice.
    for (const outcome of failed) expect((decisions.get(outcome.callId) ?? []).length).toBeLessThanOrEqual(1);
    console.log(`fleet failover: ${ok.length} answered, ${failed.length} failed (${[...new Set(failed.map((f) => f.error))].join("; ")}); by instance a=${byInstance("fleet-a")} b=${byInstance("fleet-b")} c=${byInstance("fleet-c")}`);
  });
});
