// Listen addresses: parses the forms hookd listens on and binds a grpc-js Server to one,
// replacing a stale Unix socket file that a dead process left behind. Owns nothing else about the
// server (services, shutdown).
import { lstat, unlink } from "node:fs/promises";
import { createConnection } from "node:net";
import { ServerCredentials } from "@grpc/grpc-js";
import type { Server } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";

export type ListenAddress =
  | { readonly kind: "unix"; readonly path: string }
  | { readonly kind: "tcp"; readonly host: string; readonly port: number };

/** Accepts "unix:///abs/path", "unix:/abs/path" and "host:port" ("[::1]:port" for IPv6). */
export function parseAddress(address: string): ListenAddress {
  if (address.startsWith("unix:")) {
    const rest = address.slice("unix:".length);
    // "unix://" must be followed by an empty authority: "unix:///abs/path".
    const path = rest.startsWith("//") ? (rest.startsWith("///") ? rest.slice(2) : "") : rest;
    if (!path.startsWith("/")) throw invalidAddress(address, "a Unix socket address is unix:///abs/path or unix:/abs/path");
    return { kind: "unix", path };
  }
  if (address.startsWith("unix-abstract:")) throw invalidAddress(address, "grpc-js cannot serve abstract Unix sockets");
  const colon = address.lastIndexOf(":");
  const host = address.slice(0, colon);
  const port = address.slice(colon + 1);
  const bracketed = host.startsWith("[") && host.endsWith("]");
  if (colon <= 0 || (host.includes(":") && !bracketed) || !/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw invalidAddress(address, 'expected "host:port", "unix:///abs/path" or "unix:/abs/path"');
  }
  return { kind: "tcp", host, port: Number(port) };
}

/**
 * Binds `server` to `address` and resolves with the bound port (the chosen one for "host:0").
 * A socket file nobody answers on is removed first; one that answers, or a path that is not a
 * socket, is refused. Probe-then-unlink is not atomic: two daemons starting at the same moment
 * on the same path need a lock file, which is the caller's to take.
 */
export async function bindServer(
  server: Server,
  address: string,
  credentials: ServerCredentials = ServerCredentials.createInsecure(),
): Promise<number> {
  const parsed = parseAddress(address);
  if (parsed.kind === "unix") await removeStaleSocket(parsed.path);
  return new Promise((resolve, reject) => {
    server.bindAsync(address, credentials, (error, port) => {
      if (error) reject(new HookdError("unavailable", `cannot listen on ${address}: ${error.message}`, { cause: error }));
      else resolve(port);
    });
  });
}

/**
 * Makes `path` free to bind: removes a socket file nobody listens on; throws HookdError("unavailable")
 * when another process listens there or the file is not a socket.
 */
export async function removeStaleSocket(path: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = (await lstat(path)).isSocket();
  } catch (error) {
    if (errnoCode(error) === "ENOENT") return;
    throw new HookdError("unavailable", `cannot listen on ${path}: ${messageOf(error)}`, { cause: error });
  }
  if (!isSocket) throw new HookdError("unavailable", `cannot listen on ${path}: the file exists and is not a socket`);
  if (await answers(path)) throw new HookdError("unavailable", `cannot listen on ${path}: another process is listening on it`);
  try {
    await unlink(path);
  } catch (error) {
    if (errnoCode(error) !== "ENOENT") {
      throw new HookdError("unavailable", `cannot remove the stale socket ${path}: ${messageOf(error)}`, { cause: error });
    }
  }
}

/** Connects once: a listener accepts; a socket file without one refuses at once. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", (error) => {
      socket.destroy();
      const code = errnoCode(error);
      if (code === "ECONNREFUSED" || code === "ENOENT") resolve(false);
      else reject(new HookdError("unavailable", `cannot tell whether ${path} is in use: ${error.message}`, { cause: error }));
    });
  });
}

function invalidAddress(address: string, why: string): HookdError {
  return new HookdError("invalid_argument", `invalid listen address "${address}": ${why}`);
}

function errnoCode(error: unknown): string | undefined {
  const code: unknown = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === "string" ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
