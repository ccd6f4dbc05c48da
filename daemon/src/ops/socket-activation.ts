// Socket activation: the listening sockets systemd hands over (LISTEN_FDS, LISTEN_FDNAMES,
// LISTEN_PID; descriptors from 3 on), served by grpc-js through Server#createConnectionInjector,
// with a net.Server listening on `{ fd }` handing it each accepted connection (host/connections.ts). Owns reading and
// clearing the environment and the per-socket servers; binding named sockets from config is
// the caller's choice (activatedListeners).
import { createServer } from "node:net";
import type { Server } from "@grpc/grpc-js";
import { HookdError } from "@hookd/sdk";
import type { ListenerConfig } from "../config/schema.js";
import { acceptConnections, listen } from "../host/connections.js";
import type { AcceptingListener, ClosedReason, ConnectionLimits } from "../host/connections.js";

export const SD_LISTEN_FDS_START = 3;

export interface InheritedSocket {
  readonly fd: number;
  /** Its FileDescriptorName; systemd says "unknown" when the unit set none. */
  readonly name: string;
}

/**
 * The sockets passed to this process, and clears LISTEN_* from `env` so that children (managed
 * plugins) do not believe they were activated. Empty when LISTEN_PID names another process.
 */
export function takeInheritedSockets(env: NodeJS.ProcessEnv = process.env, pid: number = process.pid): InheritedSocket[] {
  const count = Number(env.LISTEN_FDS ?? "0");
  const listenPid = env.LISTEN_PID;
  const names = (env.LISTEN_FDNAMES ?? "").split(":");
  delete env.LISTEN_FDS;
  delete env.LISTEN_PID;
  delete env.LISTEN_FDNAMES;
  if (!Number.isInteger(count) || count <= 0) return [];
  if (listenPid !== undefined && listenPid !== "" && Number(listenPid) !== pid) return [];
  return Array.from({ length: count }, (_, i) => ({ fd: SD_LISTEN_FDS_START + i, name: names[i] || "unknown" }));
}

/**
 * Which inherited sockets to serve: each `{ systemd: NAME }` listener names one (an error when it
 * was not passed); with no such listener, every inherited socket is served.
 */
export function selectSockets(
  listeners: readonly ListenerConfig[],
  inherited: readonly InheritedSocket[],
  /** The config path of listener i, for errors. */
  pathOf: (i: number) => string = (i) => `listeners[${i}]`,
): InheritedSocket[] {
  const named = listeners.flatMap((listener, index) => ("systemd" in listener ? [{ name: listener.systemd, index }] : []));
  if (named.length === 0) return [...inherited];
  return named.map(({ name, index: i }) => {
    const socket = inherited.find((s) => s.name === name);
    if (socket === undefined) {
      const passed = inherited.length === 0 ? "none (LISTEN_FDS is not set)" : inherited.map((s) => `"${s.name}"`).join(", ");
      throw new HookdError("invalid_argument", `${pathOf(i)}.systemd: no socket named "${name}" was passed by systemd; passed: ${passed}`);
    }
    return socket;
  });
}

/**
 * Serves `socket` on the gRPC server through hookd's own accept loop (host/connections.ts: the
 * connection cap and handshake timeout apply as on bound listeners).
 */
export async function serveInherited(
  server: Server,
  socket: InheritedSocket,
  limits: ConnectionLimits,
  onClosed: (reason: ClosedReason) => void,
): Promise<AcceptingListener> {
  const listener = createServer();
  await listen(listener, { fd: socket.fd });
  return acceptConnections(server, listener, `systemd:${socket.name}`, limits, onClosed);
}
