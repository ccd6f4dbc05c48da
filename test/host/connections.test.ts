// Connections a real daemon closes itself: those that never send the HTTP/2 preface (after
// limits.handshakeTimeoutMs) and those beyond limits.maxConnectionsPerListener, while gRPC
// clients on connections already open keep being served. Raw sockets stand in for the clients
// that connect and send nothing.
import { createConnection } from "node:net";
import type { Socket } from "node:net";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

let daemon: DaemonProcess | undefined;
const clients: TypedClient<typeof pb.HookHost>[] = [];
const sockets: Socket[] = [];

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const client of clients.splice(0)) closeClient(client);
  await daemon?.stop();
  daemon = undefined;
});

async function daemonWith(limits: Record<string, unknown>): Promise<{ host: TypedClient<typeof pb.HookHost>; metricsAt: string }> {
  daemon = await startDaemon({ config: { limits, metrics: { listen: "127.0.0.1:0" } } });
  const metricsAt = String((await daemon.waitForLog((line) => line.msg === "metrics serving")).address);
  const host = createClient(pb.HookHost, daemon.target);
  clients.push(host);
  return { host, metricsAt };
}

/** A connected socket that sends nothing, and a promise of its 'close'. */
async function silent(path: string): Promise<{ socket: Socket; closed: Promise<void> }> {
  const socket = createConnection(path);
  sockets.push(socket);
  socket.on("error", () => {});
  socket.resume(); // read (and drop) the server's SETTINGS so that the end is seen
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("error", reject);
  });
  return { socket, closed };
}

function preTool(host: TypedClient<typeof pb.HookHost>, callId: string) {
  return host.evaluatePreTool(
    {
      event: {
        session: { sessionId: "conn-s", agentId: "conn", cwd: "/" },
        call: { callId, rootCallId: callId, toolName: "Read", argumentsJson: "{}", sessionId: "conn-s", turn: 1, step: 1 },
      },
    },
    { metadata: { "x-hookd-agent": "conn" }, timeoutMs: 15_000, waitForReady: true },
  );
}

async function metric(metricsAt: string, sample: string): Promise<string | undefined> {
  const text = await (await fetch(`http://${metricsAt}/metrics`)).text();
  return text.split("\n").find((line) => line.startsWith(`${sample} `));
}

function bounded<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

describe("connections without an HTTP/2 preface", () => {
  it("are closed after limits.handshakeTimeoutMs while a gRPC client keeps being served", async () => {
    const { host, metricsAt } = await daemonWith({ handshakeTimeoutMs: 300 });
    await expect(preTool(host, "before")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
    const idle = await Promise.all(Array.from({ length: 5 }, () => silent(daemon?.socket ?? "")));
    await bounded(Promise.all(idle.map((s) => s.closed)), 15_000, "the daemon to close 5 silent connections");
    // The client's own connection, open for longer than the timeout, was not among those closed.
    await expect(preTool(host, "after")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
    expect(await metric(metricsAt, 'hookd_connections_closed_total{reason="handshake_timeout"}')).toBe('hookd_connections_closed_total{reason="handshake_timeout"} 5');
  });
});

describe("connections per listener", () => {
  it("closes connections beyond limits.maxConnectionsPerListener while calls on open ones are served", async () => {
    const cap = 3;
    const { host, metricsAt } = await daemonWith({ maxConnectionsPerListener: cap });
    await expect(preTool(host, "first")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
    // The client holds one connection; of 5 more, cap - 1 are kept and the rest are closed at once.
    const raw = await Promise.all(Array.from({ length: 5 }, () => silent(daemon?.socket ?? "")));
    const excess = 5 - (cap - 1);
    let closedCount = 0;
    let enough: () => void = () => {};
    const excessClosed = new Promise<void>((resolve) => (enough = resolve));
    for (const s of raw) void s.closed.then(() => ++closedCount === excess && enough());
    await bounded(excessClosed, 15_000, `the daemon to close ${excess} connections over its cap`);
    expect(raw.filter((s) => !s.socket.destroyed)).toHaveLength(cap - 1);
    await expect(preTool(host, "at-cap")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
    expect(await metric(metricsAt, 'hookd_connections_closed_total{reason="max_connections"}')).toBe(`hookd_connections_closed_total{reason="max_connections"} ${excess}`);

    // Freed slots are usable: a new client connects once the kept sockets are gone.
    for (const s of raw) s.socket.destroy();
    const again = createClient(pb.HookHost, daemon?.target ?? "");
    clients.push(again);
    await expect(preTool(again, "new-connection")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
  });
});
