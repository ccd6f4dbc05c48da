// servePlugin: runs a plugin definition (the same `definePlugin(...)` the daemon loads in-process)
// as an out-of-process gRPC plugin: HookPlugin (Describe, the RPC of every point it handles, and
// Attach, the stream carrying the same calls) and grpc.health.v1.Health, on a Unix socket or TCP
// address. Owns the server's lifecycle: bind, graceful close, cancellation through a signal.
// SIGTERM handling is left to the caller:
//
//   const stop = new AbortController();
//   process.once("SIGTERM", () => stop.abort());
//   await servePlugin(plugin, { signal: stop.signal }); // listens on $HOOKD_PLUGIN_SOCKET
//
// Aborting the signal closes the server gracefully; once it is closed nothing keeps the process
// alive, so it exits on its own.
import { resolve } from "node:path";
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import { bindServer, parseAddress } from "../grpc/address.js";
import { addService } from "../grpc/server.js";
import type { StatusError } from "../grpc/status.js";
import type { PluginDefinition } from "../plugin.js";
import * as pb from "../proto.js";
import type { PointName } from "../types.js";
import { HealthState } from "./health.js";
import { pluginService } from "./handlers.js";
import type { ServeTransport } from "./handlers.js";

export type { ServeTransport };

/** The environment variable a managed plugin finds its socket path in. */
export const PLUGIN_SOCKET_ENV = "HOOKD_PLUGIN_SOCKET";

export interface ServeOptions {
  /** "unix:///abs/path", "unix:/abs/path" or "host:port" ("127.0.0.1:0" picks a free port). */
  readonly address?: string;
  /** A Unix socket path; relative paths are resolved against the working directory. */
  readonly socketPath?: string;
  /** Aborting it closes the server (gracefully, see `graceMs`). */
  readonly signal?: AbortSignal;
  /** Default insecure (Unix sockets, loopback). */
  readonly credentials?: ServerCredentials;
  /** How long close() lets calls in flight finish before cancelling them, in milliseconds. Default 2000. */
  readonly graceMs?: number;
  /**
   * Receives a handler's failure (it threw, or answered an invalid decision) before the daemon
   * gets it as an error status. Default: one line on stderr, which a managed plugin's daemon logs.
   */
  readonly onError?: (error: StatusError, point: PointName) => void;
  /**
   * The transport the manifest asks the daemon for. Both are always served; absent lets the
   * daemon use the Attach stream (docs/streams.md), "unary" makes it call one RPC per event.
   */
  readonly transport?: ServeTransport;
}

export interface PluginServer {
  /** Where it listens; for "host:0" with the port that was picked. */
  readonly address: string;
  /** Reports NOT_SERVING, lets calls in flight finish (up to graceMs), then stops. Idempotent. */
  close(): Promise<void>;
  /** Settles once the server has stopped, whoever closed it. */
  readonly closed: Promise<void>;
}

/**
 * Serves `definition` on `options.address`, `options.socketPath`, or the socket path in
 * $HOOKD_PLUGIN_SOCKET. Resolves once it listens.
 */
export async function servePlugin(definition: PluginDefinition, options: ServeOptions = {}): Promise<PluginServer> {
  if (typeof definition !== "object" || definition === null || typeof definition.subscriptions !== "object") {
    throw new HookdError("invalid_plugin", "servePlugin: expected a plugin definition made by definePlugin()");
  }
  options.signal?.throwIfAborted();
  const address = listenAddress(options);
  const onError =
    options.onError ?? ((error: StatusError, point: PointName) => process.stderr.write(`${definition.name} ${point}: ${error.message}\n`));
  const health = new HealthState();
  const server = new Server();
  addService(server, pb.HookPlugin, pluginService(definition, onError, options.transport));
  addService(server, pb.health.Health, health.service());
  const port = await bindServer(server, address, options.credentials ?? ServerCredentials.createInsecure());

  const graceMs = options.graceMs ?? 2_000;
  let finish!: () => void;
  const closed = new Promise<void>((done) => (finish = done));
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      options.signal?.removeEventListener("abort", onAbort);
      health.shutDown();
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((done) => {
        timer = setTimeout(() => {
          server.forceShutdown(); // cancels the calls still running
          done();
        }, graceMs);
        server.tryShutdown(() => done());
      });
      clearTimeout(timer);
      finish();
    })();
    return closing;
  };
  const onAbort = (): void => void close();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const parsed = parseAddress(address);
  const bound = parsed.kind === "tcp" && parsed.port === 0 ? `${parsed.host}:${port}` : address;
  return { address: bound, close, closed };
}

function listenAddress(options: ServeOptions): string {
  if (options.address !== undefined && options.socketPath !== undefined) {
    throw new HookdError("invalid_argument", "servePlugin: give either address or socketPath, not both");
  }
  if (options.address !== undefined) return options.address;
  const path = options.socketPath ?? process.env[PLUGIN_SOCKET_ENV];
  if (path === undefined || path === "") {
    throw new HookdError("invalid_argument", `servePlugin: no address: pass { address } or { socketPath }, or set ${PLUGIN_SOCKET_ENV}`);
  }
  return path.startsWith("unix:") ? path : `unix://${resolve(path)}`;
}
