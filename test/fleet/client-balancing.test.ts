// Client-side balancing without a proxy: connectHost with a gRPC service config choosing
// round_robin spreads unary evaluates over every address of an `ipv4:` target list (as over the
// addresses a Kubernetes headless Service's `dns:///` name resolves to); grpc-js's default
// (pick_first) sends them all to one, which is what shows the service config is applied. A
// `dns:///` target is taken as well. Which daemon answered is read from each one's audit file.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectHost } from "@hookd/sdk";
import type { ConnectOptions } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { boundTcpAddress } from "../security/support.js";

const CALLS = 8;
const MAX_BATCHES = 25;
let dir: string;
let daemons: { daemon: DaemonProcess; address: string; audit: string }[] = [];

// An observer of the evaluated event, so that every call leaves an audit record where it was served.
const OBSERVER = `
import { definePlugin } from "@hookd/sdk";
export default definePlugin({ name: "observer", points: { "agent-event": () => {} } });
`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-balancing-"));
  const module = await writePluginModule("observer", OBSERVER);
  daemons = await Promise.all(
    [0, 1].map(async (index) => {
      const audit = join(dir, `audit-${index}.jsonl`);
      const config = { listeners: [{ tcp: "127.0.0.1:0" }], audit: { path: audit, fsync: "always" }, plugins: [{ name: "observer", kind: "in-process", module }] };
      const daemon = await startDaemon({ config });
      return { daemon, address: await boundTcpAddress(daemon), audit };
    }),
  );
});

afterAll(async () => {
  await Promise.all(daemons.map(({ daemon }) => daemon.stop()));
  await rm(dir, { recursive: true, force: true });
});

/** Audit records per daemon whose session is `sessionId`. */
async function servedBy(sessionId: string): Promise<number[]> {
  return Promise.all(
    daemons.map(async ({ audit }) => {
      const text = await readFile(audit, "utf8").catch(() => "");
      return text.split("\n").filter((line) => line !== "" && (JSON.parse(line) as { sessionId?: string }).sessionId === sessionId).length;
    }),
  );
}

/**
 * Makes batches of CALLS evaluates on one client until `enough` says so or MAX_BATCHES were made;
 * round_robin only uses a daemon once its connection is ready, so the first calls may all go to
 * the first one ready. Returns how many calls were made.
 */
async function evaluateUntil(target: string, sessionId: string, options: ConnectOptions, enough: (counts: number[]) => boolean): Promise<number> {
  const client = connectHost(target, { agentId: "balanced", evaluateTransport: "unary", ...options });
  const session = { sessionId, agentId: "", cwd: "/w", parentSessionId: "", agentType: "" };
  let made = 0;
  try {
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      for (let i = 0; i < CALLS; i++, made++) await client.evaluateAgentEvent({ session, dialect: "claude-code", eventName: "Balanced", payload: { i } }, { timeoutMs: 20_000 });
      if (enough(await servedBy(sessionId))) break;
    }
  } finally {
    client.close();
  }
  return made;
}

describe("connectHost with a service config", () => {
  const list = () => `ipv4:${daemons.map((d) => d.address).join(",")}`;
  const both = (counts: number[]) => counts.every((count) => count > 0);

  it("round_robin over an ipv4: address list spreads the calls over both daemons", async () => {
    const made = await evaluateUntil(list(), "s-rr", { serviceConfig: { loadBalancingConfig: [{ round_robin: {} }] } }, both);
    const counts = await servedBy("s-rr");
    expect(counts.reduce((a, b) => a + b, 0)).toBe(made);
    expect(both(counts)).toBe(true);
  });

  it("without one (pick_first) every call goes to one daemon", async () => {
    const made = await evaluateUntil(list(), "s-pf", {}, () => true);
    expect((await servedBy("s-pf")).sort((a, b) => a - b)).toEqual([0, made]);
  });

  it("takes a dns:/// target, with channel options", async () => {
    const port = daemons[0]?.address.split(":")[1] ?? "";
    const options = { channelOptions: { "grpc.keepalive_time_ms": 30_000 }, serviceConfig: { loadBalancingConfig: [{ round_robin: {} }] } };
    const made = await evaluateUntil(`dns:///localhost:${port}`, "s-dns", options, () => true);
    expect(await servedBy("s-dns")).toEqual([made, 0]);
  });
});
