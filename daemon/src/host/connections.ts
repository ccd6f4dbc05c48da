// hookd's own accept loop for a gRPC listener: a net.Server hands each connection to grpc-js
// through Server#createConnectionInjector, so that hookd can cap the open connections of the
// listener and close those that never send the HTTP/2 preface. Owns the accepted sockets until
// they close (and destroys the rest at stop); grpc-js owns the HTTP/2 sessions on them.
import type { Server as NetServer, Socket } from "node:net";
import type { Server, ServerCredentials } from "@grpc/grpc-js";

/** The client connection preface, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", is 24 bytes. */
const PREFACE_BYTES = 24;

export interface ConnectionLimits {
  /** How long a connection may take to send its first 24 bytes (the preface; with TLS, the start of its handshake). */
  readonly handshakeTimeoutMs: number;
  /** Open connections of the listener; one more is closed at once. */
  readonly maxConnections: number;
}

/** Why hookd closed a connection itself. */
export type ClosedReason = "handshake_timeout" | "max_connections";

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

/**
 * Serves the connections `listener` (already listening) accepts on `server`. `onClosed` is told
 * of every connection hookd closes itself.
 */
export function acceptConnections(
  server: Server,
  credentials: ServerCredentials,
  listener: NetServer,
  address: string,
  limits: ConnectionLimits,
  onClosed: (reason: ClosedReason) => void,
): AcceptingListener {
  const injector = server.createConnectionInjector(credentials);
  const sockets = new Set<Socket>();
  let wakeDrained: (() => void) | undefined;
  listener.on("connection", (socket: Socket) => {
    socket.on("error", () => {}); // a reset peer; the HTTP/2 session (when there is one) sees it too
    if (sockets.size >= limits.maxConnections) {
      socket.destroy();
      onClosed("max_connections");
      return;
    }
    sockets.add(socket);
    // bytesRead counts what the socket received even though HTTP/2 reads it natively.
    const timer = setTimeout(() => {
      if (socket.bytesRead >= PREFACE_BYTES) return;
      socket.destroy();
      onClosed("handshake_timeout");
    }, limits.handshakeTimeoutMs);
    timer.unref();
    socket.once("close", () => {
      clearTimeout(timer);
      sockets.delete(socket);
      if (sockets.size === 0) wakeDrained?.();
    });
    injector.injectConnection(socket);
  });
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

/** Listens with `listener` on `options` (a path, a host and port, or an inherited `{ fd }`). */
export function listen(listener: NetServer, options: { path: string } | { host: string; port: number } | { fd: number }): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options, () => {
      listener.off("error", reject);
      resolve();
    });
  });
}
