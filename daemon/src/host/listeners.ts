// Binds the configured listeners for the gRPC server: Unix sockets (created with the configured
// mode and group, in a directory hookd creates when it is missing; a stale socket file is
// replaced), TCP (optionally TLS or mTLS). Each is a net.Server (a tls.Server for TLS) of hookd's
// own (connections.ts: the connection cap and the handshake timeout) handing its connections to
// grpc-js. Returns them with the addresses actually bound.
import { chmod, chown, mkdir, readFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { Server as NetServer } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import { dirname, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import type { Server } from "@grpc/grpc-js";
import { HookdError } from "@hookd/sdk";
import { parseAddress, removeStaleSocket } from "@hookd/sdk/internal";
import { childEnv } from "../child-env.js";
import type { ListenerConfig } from "../config/schema.js";
import { acceptConnections, listen } from "./connections.js";
import type { AcceptingListener, ClosedReason, ConnectionLimits } from "./connections.js";

/** Node's own default backlog. */
const DEFAULT_BACKLOG = 511;

export async function bindListener(
  server: Server,
  listener: ListenerConfig,
  limits: ConnectionLimits,
  onClosed: (reason: ClosedReason) => void,
): Promise<AcceptingListener> {
  // The kernel queues at least as many connections as the listener may hold (Node's default, 511,
  // when more), so that a burst is accepted, not turned away (a full Unix backlog fails connect).
  const backlog = Math.max(DEFAULT_BACKLOG, limits.maxConnections);
  if ("unix" in listener) {
    const net = createServer();
    const gid = listener.group === undefined ? undefined : groupId(listener.group);
    await socketDirectory(dirname(listener.unix), gid);
    await removeStaleSocket(listener.unix);
    await listen(net, { path: listener.unix }, backlog).catch((error: unknown) => {
      throw new HookdError("unavailable", `cannot listen on unix://${listener.unix}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    await chmod(listener.unix, parseInt(listener.mode, 8));
    if (gid !== undefined) await chown(listener.unix, process.getuid?.() ?? -1, gid);
    return acceptConnections(server, net, `unix://${listener.unix}`, limits, onClosed);
  }
  if ("tcp" in listener) {
    const net: NetServer =
      listener.tls === undefined
        ? createServer()
        : createTlsServer({
            cert: await readFile(listener.tls.cert),
            key: await readFile(listener.tls.key),
            ...(listener.tls.clientCa === undefined ? {} : { ca: await readFile(listener.tls.clientCa), requestCert: true, rejectUnauthorized: true }),
            ALPNProtocols: ["h2"],
            // hookd's own handshake timer (connections.ts) closes a stalled handshake first.
            handshakeTimeout: limits.handshakeTimeoutMs + 1_000,
          });
    const address = parseAddress(listener.tcp);
    if (address.kind !== "tcp") throw new HookdError("invalid_argument", `listener tcp: ${listener.tcp} is not host:port`);
    const host = address.host.replace(/^\[(.*)\]$/, "$1");
    await listen(net, { host, port: address.port }, backlog).catch((error: unknown) => {
      throw new HookdError("unavailable", `cannot listen on ${listener.tcp}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    });
    const bound = net.address();
    const port = typeof bound === "object" && bound !== null ? bound.port : address.port;
    return acceptConnections(server, net, listener.tcp.replace(/:\d+$/, `:${port}`), limits, onClosed);
  }
  throw new Error(`listener systemd:${listener.systemd} must be bound from LISTEN_FDS`);
}

/**
 * Creates the socket's directory when it is missing: owner only, or, when the socket has a
 * group, 0750 and that group, since the group cannot reach a socket in a directory it may not
 * traverse. Only the directories created here are set; an existing one is the admin's.
 */
async function socketDirectory(dir: string, gid: number | undefined): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: 0o700 });
  if (first === undefined) return;
  // Set explicitly: mkdir's mode is masked by the umask.
  const mode = gid === undefined ? 0o700 : 0o750;
  const top = resolve(first);
  for (let created = resolve(dir); ; created = dirname(created)) {
    await chmod(created, mode);
    if (gid !== undefined) await chown(created, process.getuid?.() ?? -1, gid);
    if (created === top || created === dirname(created)) return;
  }
}

function groupId(group: string | number): number {
  if (typeof group === "number") return group;
  if (/^\d+$/.test(group)) return Number(group);
  const line = execFileSync("getent", ["group", group], { encoding: "utf8", env: childEnv() });
  const gid = Number(line.split(":")[2]);
  if (!Number.isInteger(gid)) throw new Error(`group "${group}" not found`);
  return gid;
}
