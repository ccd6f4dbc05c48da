// Health-based balancing with a real HAProxy 2.6: its checks ask each hookd's grpc.health.v1
// (grpc-health-probe as an external check). A stopping instance reports NOT_SERVING while it
// still serves (limits.drainDelayMs), HAProxy takes it out, and every call goes on to the other.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { SessionInfo } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, startDaemon, type DaemonProcess } from "../support/daemon-process.js";
import { PROBE, freePort, startHaproxy, type Haproxy } from "./support/haproxy.js";

const POLICY = resolve(REPO, "test/ops/fixtures/policy.mjs");
let auditDir: string;
let ports: number[] = [];
let daemons: DaemonProcess[] = [];
let haproxy: Haproxy;

beforeAll(async () => {
  auditDir = await mkdtemp(join(tmpdir(), "hookd-haproxy-audit-"));
  ports = [await freePort(), await freePort()];
  daemons = await Promise.all(
    ["hx-a", "hx-b"].map((id, i) =>
      startDaemon({
        config: {
          listeners: [{ tcp: `127.0.0.1:${ports[i]}` }],
          instance: { id },
          plugins: [{ name: "policy", kind: "in-process", module: POLICY }],
          audit: { path: join(auditDir, `${id}.jsonl`), fsync: "always" },
          // Far longer than HAProxy needs to see it: the test ends the instance itself.
          limits: { drainDelayMs: 60_000 },
        },
      }),
    ),
  );
  haproxy = await startHaproxy([
    { name: "a", address: `127.0.0.1:${ports[0]}` },
    { name: "b", address: `127.0.0.1:${ports[1]}` },
  ]);
});

afterAll(async () => {
  await haproxy?.stop();
  for (const daemon of daemons) daemon.child.kill("SIGKILL");
  await Promise.all(daemons.map((d) => d.stop()));
  if (auditDir !== undefined) await rm(auditDir, { recursive: true, force: true });
});

/** grpc-health-probe's exit code: 0 SERVING, 2 connection failure, 4 NOT_SERVING. */
function probe(port: number | undefined): Promise<number> {
  return new Promise((done) => execFile(PROBE, ["-addr", `127.0.0.1:${port}`, "-connect-timeout", "5s", "-rpc-timeout", "5s"], (error) => done(error === null ? 0 : Number(error.code ?? -1))));
}

const session: SessionInfo = { sessionId: "hx", agentId: "", cwd: "/w", parentSessionId: "", agentType: "" };
function preTool(callId: string) {
  const args = snapshotJson({});
  return { session, call: { callId, rootCallId: callId, toolName: "Read", arguments: args.value, argumentsJson: args.text, sessionId: "hx", turn: 1, step: 1 } };
}

async function deciders(): Promise<Map<string, string>> {
  const byCall = new Map<string, string>();
  for (const id of ["hx-a", "hx-b"]) {
    const text = await readFile(join(auditDir, `${id}.jsonl`), "utf8");
    for (const record of text.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)) {
      if (record.kind === "decision") byCall.set(String(record.callId), String(record.instanceId));
    }
  }
  return byCall;
}

describe("HAProxy checking grpc.health.v1", () => {
  it("takes a draining instance out while it still serves, and the calls go on to the other", async () => {
    await haproxy.waitFor("a", "UP");
    await haproxy.waitFor("b", "UP");
    const client = connectHost(haproxy.address, { agentId: "hx-agent", evaluateTransport: "unary" });
    try {
      for (let i = 0; i < 8; i++) expect((await client.evaluatePreTool(preTool(`before-${i}`), { timeoutMs: 20_000 })).decision.kind).toBe("allow");
      const before = await deciders();
      expect(new Set([...before.values()])).toEqual(new Set(["hx-a", "hx-b"]));

      const [a, b] = daemons;
      a?.child.kill("SIGTERM");
      await a?.waitForLog((line) => line.msg === "stopping");
      // Draining: NOT_SERVING (not refused), and a call straight to it is still answered.
      expect(await probe(ports[0])).toBe(4);
      const direct = connectHost(`127.0.0.1:${ports[0]}`, { agentId: "hx-agent", evaluateTransport: "unary" });
      try {
        expect((await direct.evaluatePreTool(preTool("direct-a"), { timeoutMs: 20_000 })).decision.kind).toBe("allow");
      } finally {
        direct.close();
      }
      await haproxy.waitFor("a", "DOWN");
      expect((await haproxy.states()).get("b")).toBe("UP");

      for (let i = 0; i < 12; i++) expect((await client.evaluatePreTool(preTool(`after-${i}`), { timeoutMs: 20_000 })).decision.kind).toBe("allow");
      const after = await deciders();
      expect(after.get("direct-a")).toBe("hx-a");
      for (let i = 0; i < 12; i++) expect(after.get(`after-${i}`)).toBe("hx-b");
      expect(b?.child.exitCode).toBeNull();
      expect(await probe(ports[1])).toBe(0);
    } finally {
      client.close();
    }
  });
});
