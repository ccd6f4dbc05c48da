// Connections a real daemon closes itself: those that never send the HTTP/2 preface (after
// limits.handshakeTimeoutMs) and, beyond limits.maxConnectionsPerListener, the oldest still in its
// handshake (or the new one, when all have sent their preface), while gRPC clients on connections
// already open keep being served. Raw sockets stand in for the clients that connect and send
// nothing, or only the preface. Every listener kind: half-open.test.ts.
import { createConnection } from "node:net";
import type { Socket } from "node:net";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { prefaced } from "../support/raw-connection.js";

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
  it("makes room beyond limits.maxConnectionsPerListener by closing the oldest connection still in its handshake", async () => {
    const cap = 3;
    const { host, metricsAt } = await daemonWith({ maxConnectionsPerListener: cap });
    await expect(preTool(host, "first")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
    // The client holds one connection; of 5 silent ones, each beyond the cap closes the oldest silent one.
    const raw: Awaited<ReturnType<typeof silent>>[] = [];
    for (let i = 0; i < 5; i++) raw.push(await silent(daemon?.socket ?? ""));
    const evicted = 5 - (cap - 1);
    await bounded(Promise.all(raw.slice(0, evicted).map((s) => s.closed)), 15_000, `the daemon to close the ${evicted} oldest silent connections`);
    expect(raw.slice(evicted).filter((s) => !s.socket.destroyed)).toHaveLength(cap - 1);
    await expect(preTool(host, "at-cap")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });

    // A new well-behaved client gets in though the listener is full of silent connections: it takes the place of one.
    const newcomers = [await prefaced(daemon?.socket ?? ""), await prefaced(daemon?.socket ?? "")];
    sockets.push(...newcomers.map((c) => c.socket));
    await bounded(Promise.all(raw.map((s) => s.closed)), 15_000, "the daemon to close the silent connections the newcomers replace");

    // Every connection has sent its preface now: one more is closed at once.
    const over = await silent(daemon?.socket ?? "");
    await bounded(over.closed, 15_000, "the daemon to close a connection over its cap");
    expect(newcomers.filter((c) => c.socket.destroyed)).toEqual([]);
    expect(await metric(metricsAt, 'hookd_connections_closed_total{reason="evicted"}')).toBe(`hookd_connections_closed_total{reason="evicted"} ${evicted + 2}`);
    expect(await metric(metricsAt, 'hookd_connections_closed_total{reason="max_connections"}')).toBe('hookd_connections_closed_total{reason="max_connections"} 1');
  });
});
