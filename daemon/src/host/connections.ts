// hookd's own accept loop for a gRPC listener: a net.Server (or, for TLS, a tls.Server, so that
// hookd sees the handshake end) hands each connection to grpc-js through
// Server#createConnectionInjector. hookd caps the open connections of the listener and closes
// those that have not sent the whole HTTP/2 client preface in time. Owns the accepted sockets until
// they close (and destroys the rest at stop); grpc-js owns the HTTP/2 sessions on them.
import type { Server as NetServer, Socket } from "node:net";
import { Server as TlsServer } from "node:tls";
import type { TLSSocket } from "node:tls";
import { ServerCredentials } from "@grpc/grpc-js";
import type { Server } from "@grpc/grpc-js";

/**
 * The client connection preface: "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" (24 bytes) and the SETTINGS
 * frame that must follow it, of at least its 9-byte header. A client that sent less is not served yet.
 */
const CLIENT_PREFACE_BYTES = 24 + 9;

export interface ConnectionLimits {
  /** How long a connection may take to send the HTTP/2 client preface (with TLS: the handshake and then the preface). */
  readonly handshakeTimeoutMs: number;
  /** Open connections of the listener; when one more comes, the oldest still in its handshake is closed, or else the new one. */
  readonly maxConnections: number;
}

/** Why hookd closed a connection itself. */
export type ClosedReason = "handshake_timeout" | "max_connections" | "evicted";

export interface AcceptingListener {
  /** "unix:///path", "host:port" or "systemd:<name>", for logs and `hookd status`. */
  readonly address: string;
  /** Accepted connections still open. */
  readonly connections: number;
  /** Stops accepting at once; the connections already accepted stay open. */
  stopAccepting(): void;
  /** Resolves once every accepted connection has closed (grpc-js closes a session when its calls end). */
  drained(): Promise<void>;
  /** Destroys every accepted connection still open; resolves once the listener has closed. */
  destroy(): Promise<void>;
}

/** One accepted connection: the socket accepted, and the one HTTP/2 reads (the TLS socket, once its handshake is done). */
interface Accepted {
  readonly raw: Socket;
  cleartext: Socket | undefined;
}

const prefaced = (connection: Accepted): boolean => (connection.cleartext?.bytesRead ?? 0) >= CLIENT_PREFACE_BYTES;

/**
 * Serves the connections `listener` (already listening) accepts on `server`: a tls.Server's once
 * their handshake is done. `onClosed` is told of every connection hookd closes itself.
 */
export function acceptConnections(server: Server, listener: NetServer, address: string, limits: ConnectionLimits, onClosed: (reason: ClosedReason) => void): AcceptingListener {
  // TLS, when there is any, is the tls.Server's: grpc-js gets the sockets in clear.
  const injector = server.createConnectionInjector(ServerCredentials.createInsecure());
  const tls = listener instanceof TlsServer;
  const sockets = new Set<Socket>();
  /** Connections that had not sent their preface when last looked at, oldest first: the first closed to make room. */
  const handshaking = new Set<Accepted>();
  /** TLS connections by peer until their handshake ends: a tls.Server's socket does not say which it wraps. */
  const byPeer = new Map<string, Accepted>();
  let wakeDrained: (() => void) | undefined;
  const close = (connection: Accepted, reason: ClosedReason): void => {
    connection.cleartext?.destroy();
    connection.raw.destroy();
    onClosed(reason);
  };
  /** The oldest connection still in its handshake (those done since are forgotten on the way). */
  const oldestHandshaking = (): Accepted | undefined => {
    for (const connection of handshaking) {
      handshaking.delete(connection);
      if (!prefaced(connection)) return connection;
    }
    return undefined;
  };
  listener.on("connection", (socket: Socket) => {
    socket.on("error", () => {}); // a reset peer; the HTTP/2 session (when there is one) sees it too
    if (sockets.size >= limits.maxConnections) {
      // A flood of connections that never finish their handshake must not turn well-behaved clients away.
      const oldest = oldestHandshaking();
      if (oldest === undefined) {
        socket.destroy();
        onClosed("max_connections");
        return;
      }
      close(oldest, "evicted");
    }
    sockets.add(socket);
    const connection: Accepted = { raw: socket, cleartext: tls ? undefined : socket };
    handshaking.add(connection);
    const peer = `${socket.remoteAddress}:${socket.remotePort}`;
    if (tls) byPeer.set(peer, connection);
    // bytesRead counts what the socket received even though HTTP/2 reads it natively.
    const timer = setTimeout(() => {
      handshaking.delete(connection);
      if (!prefaced(connection)) close(connection, "handshake_timeout");
    }, limits.handshakeTimeoutMs);
    timer.unref();
    socket.once("close", () => {
      clearTimeout(timer);
      handshaking.delete(connection);
      if (tls && byPeer.get(peer) === connection) byPeer.delete(peer);
      sockets.delete(socket);
      if (sockets.size === 0) wakeDrained?.();
    });
    if (!tls) injector.injectConnection(socket);
  });
  listener.on("secureConnection", (secured: TLSSocket) => {
    secured.on("error", () => {});
    const peer = `${secured.remoteAddress}:${secured.remotePort}`;
    const connection = byPeer.get(peer);
    byPeer.delete(peer);
    if (connection === undefined) return void secured.destroy();
    connection.cleartext = secured;
    injector.injectConnection(secured);
  });
  listener.on("tlsClientError", () => {}); // a failed handshake: its socket is destroyed, the listener goes on
  listener.on("error", () => {}); // accept errors (EMFILE) are transient
  const closed = new Promise<void>((resolve) => listener.once("close", () => resolve()));
  const stopAccepting = (): void => {
    // net.Server#close's callback waits for every accepted connection: never awaited here.
    if (listener.listening) listener.close();
  };
  return {
    address,
    get connections() {
      return sockets.size;
    },
    stopAccepting,
    drained: () =>
      sockets.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const previous = wakeDrained;
            wakeDrained = () => {
              previous?.();
              resolve();
            };
          }),
    destroy: () => {
      stopAccepting();
      for (const socket of sockets) socket.destroy();
      return closed;
    },
  };
}

/**
 * Listens with `listener` on `options` (a path, a host and port, or an inherited `{ fd }`, whose
 * backlog is its owner's). `backlog`: connections the kernel queues until hookd accepts them.
 */
export function listen(listener: NetServer, options: { path: string } | { host: string; port: number } | { fd: number }, backlog?: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen({ ...options, ...(backlog === undefined ? {} : { backlog }) }, () => {
      listener.off("error", reject);
      resolve();
    });
  });
}
