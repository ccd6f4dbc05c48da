// Half-open connections on every listener kind of a real daemon (Unix, TCP, TLS, socket-activated):
// a connection that has not sent the whole HTTP/2 client preface (the 24-byte magic and a SETTINGS
// frame) when limits.handshakeTimeoutMs has passed is closed, be it silent, part-way through the
// preface, or stalled in its TLS handshake; a connection that sent its preface is kept, and a gRPC
// client is served on each listener all along. Raw sockets play the half-open clients.
import { createServer } from "node:net";
import type { Socket } from "node:net";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import { credentials } from "@grpc/grpc-js";
import { connectHost } from "@hookd/sdk";
import type { HostClient } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePki } from "../security/certs.js";
import { preTool, sessionOf } from "../security/support.js";
import type { TestPki } from "../security/certs.js";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { MAGIC, prefaced, sending, watched } from "../support/raw-connection.js";
import type { RawConnection } from "../support/raw-connection.js";

let pki: TestPki;
let daemon: DaemonProcess;
let ca: Buffer;
const open: Socket[] = [];
const clients: HostClient[] = [];

beforeAll(async () => {
  pki = await makePki();
  ca = await pki.read(pki.ca);
  daemon = await startDaemon({
    config: {
      listeners: [{ unix: join(pki.dir, "hookd.sock") }, { tcp: "127.0.0.1:0" }, { tcp: "127.0.0.1:0", tls: { cert: pki.server.cert, key: pki.server.key } }],
      limits: { handshakeTimeoutMs: 500 },
      metrics: { listen: "127.0.0.1:0" },
    },
  });
});

afterAll(async () => {
  for (const socket of open.splice(0)) socket.destroy();
  for (const client of clients.splice(0)) client.close();
  await daemon?.stop();
  await pki?.remove();
});

interface Listeners {
  readonly unix: string;
  readonly tcp: { host: string; port: number };
  readonly tls: { host: string; port: number };
}

async function listeners(): Promise<Listeners> {
  const line = await daemon.waitForLog((l) => l.msg === "hookd serving");
  const [unix, tcp, tls] = line["listeners"] as string[];
  const hostPort = (address: string | undefined) => {
    const [host, port] = (address ?? "").split(":");
    return { host: host ?? "", port: Number(port) };
  };
  return { unix: (unix ?? "").replace(/^unix:\/\//, ""), tcp: hostPort(tcp), tls: hostPort(tls) };
}

/** A TLS connection whose handshake completes, then sends `bytes` and nothing more. */
async function tlsSending(to: { host: string; port: number }, bytes: Buffer): Promise<RawConnection> {
  const socket = tlsConnect({ host: to.host, port: to.port, ca, servername: "localhost", ALPNProtocols: ["h2"] });
  open.push(socket);
  const result = watched(socket);
  socket.resume();
  await new Promise<void>((resolve, reject) => {
    socket.once("secureConnect", resolve);
    socket.once("error", reject);
  });
  if (bytes.length > 0) socket.write(bytes);
  return result;
}

/** A real TLS ClientHello, taken from a client that talks to a server of the test's that never answers. */
async function clientHello(): Promise<Buffer> {
  const sink = createServer();
  const first = new Promise<Buffer>((resolve) => sink.once("connection", (socket) => socket.once("data", (chunk: Buffer) => resolve(chunk))));
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const address = sink.address();
  const client = tlsConnect({ host: "127.0.0.1", port: typeof address === "object" && address !== null ? address.port : 0, servername: "localhost" });
  client.on("error", () => {});
  const hello = await first;
  client.destroy();
  sink.close();
  return hello;
}

/** Kept for the cleanup. */
async function tracked(connection: Promise<RawConnection>): Promise<RawConnection> {
  const made = await connection;
  open.push(made.socket);
  return made;
}

function bounded<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function served(target: string, creds = credentials.createInsecure()): Promise<void> {
  const client = connectHost(target, { agentId: "half-open", credentials: creds });
  clients.push(client);
  await expect(client.evaluatePreTool({ session: sessionOf("s"), call: preTool("s", "c", "ls") }, { timeoutMs: 10_000 })).resolves.toMatchObject({ decision: { kind: "allow" } });
}

/** Runs the daemon with a listening Unix socket at `path` inherited as fd 3 named `name`, as systemd passes it. */
function socketActivation(path: string, name: string): string[] {
  const script = [
    "import os, socket, sys",
    "s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)",
    "s.bind(sys.argv[1]); s.listen(64)",
    "if s.fileno() != 3: os.dup2(s.fileno(), 3)",
    "os.set_inheritable(3, True)",
    "os.environ.update(LISTEN_FDS='1', LISTEN_PID=str(os.getpid()), LISTEN_FDNAMES=sys.argv[2])",
    "os.execv(sys.argv[3], sys.argv[3:])",
  ].join("\n");
  return ["python3", "-c", script, path, name];
}

describe("half-open connections", () => {
  it("are closed on every listener kind once limits.handshakeTimeoutMs has passed; those that sent the preface are kept", async () => {
    const at = await listeners();
    const hello = await clientHello();
    const half = {
      "unix, silent": await tracked(sending(at.unix, Buffer.alloc(0))),
      "unix, part of the magic": await tracked(sending(at.unix, MAGIC.subarray(0, 10))),
      "unix, the magic without SETTINGS": await tracked(sending(at.unix, MAGIC)),
      "tcp, silent": await tracked(sending(at.tcp, Buffer.alloc(0))),
      "tcp, the magic without SETTINGS": await tracked(sending(at.tcp, MAGIC)),
      "tls, silent before its ClientHello": await tracked(sending(at.tls, Buffer.alloc(0))),
      "tls, stalled after its ClientHello": await tracked(sending(at.tls, hello)),
      "tls, handshake done, no preface": await tlsSending(at.tls, Buffer.alloc(0)),
      "tls, handshake done, the magic without SETTINGS": await tlsSending(at.tls, MAGIC),
    };
    const whole = [await tracked(prefaced(at.unix)), await tracked(prefaced(at.tcp))];
    const closed = await bounded(
      Promise.all(Object.entries(half).map(async ([what, { closed }]) => (await closed, what))),
      15_000,
      "every half-open connection to be closed",
    );
    expect(closed).toEqual(Object.keys(half));

    // Those that sent their preface outlived the timeout: a connection made after the others were closed is closed later than they were.
    const later = await tracked(sending(at.unix, Buffer.alloc(0)));
    await bounded(later.closed, 15_000, "a later silent connection to be closed");
    expect(whole.map((c) => c.socket.destroyed)).toEqual([false, false]);
    await served(`unix://${at.unix}`);
    await served(`${at.tcp.host}:${at.tcp.port}`);
    await served(`localhost:${at.tls.port}`, credentials.createSsl(ca));

    const metricsAt = String((await daemon.waitForLog((line) => line.msg === "metrics serving")).address);
    const text = await (await fetch(`http://${metricsAt}/metrics`)).text();
    expect(text).toContain(`hookd_connections_closed_total{reason="handshake_timeout"} ${Object.keys(half).length + 1}\n`);
  });

  it("are closed on a socket-activated listener too", async () => {
    const socket = join(pki.dir, "activated.sock");
    const activated = await startDaemon({
      config: { listeners: [{ systemd: "agents" }], limits: { handshakeTimeoutMs: 500 } },
      prefix: socketActivation(socket, "agents"),
    });
    try {
      const half = [await tracked(sending(socket, Buffer.alloc(0))), await tracked(sending(socket, MAGIC))];
      const whole = await tracked(prefaced(socket));
      await bounded(Promise.all(half.map((c) => c.closed)), 15_000, "the half-open connections to the activated socket to be closed");
      const later = await tracked(sending(socket, Buffer.alloc(0)));
      await bounded(later.closed, 15_000, "a later silent connection to be closed");
      expect(whole.socket.destroyed).toBe(false);
      await served(`unix://${socket}`);
    } finally {
      await activated.stop();
    }
  });
});
