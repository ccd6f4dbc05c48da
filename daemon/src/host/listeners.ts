// Binds the gRPC server to the configured listeners: Unix sockets (created with the configured
// mode and group, in a directory hookd creates when it is missing; a stale socket file is
// replaced), TCP (optionally TLS or mTLS). Returns the addresses actually bound, for logs and
// `hookd status`.
import { chmod, chown, mkdir, readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { ServerCredentials } from "@grpc/grpc-js";
import type { Server } from "@grpc/grpc-js";
import { bindServer } from "@hookd/sdk/internal";
import { childEnv } from "../child-env.js";
import type { ListenerConfig } from "../config/schema.js";

export async function bindListener(server: Server, listener: ListenerConfig): Promise<string> {
  if ("unix" in listener) {
    const gid = listener.group === undefined ? undefined : groupId(listener.group);
    await socketDirectory(dirname(listener.unix), gid);
    const address = `unix://${listener.unix}`;
    await bindServer(server, address, ServerCredentials.createInsecure());
    await chmod(listener.unix, parseInt(listener.mode, 8));
    if (gid !== undefined) await chown(listener.unix, process.getuid?.() ?? -1, gid);
    return address;
  }
  if ("tcp" in listener) {
    const credentials =
      listener.tls === undefined
        ? ServerCredentials.createInsecure()
        : ServerCredentials.createSsl(
            listener.tls.clientCa === undefined ? null : await readFile(listener.tls.clientCa),
            [{ cert_chain: await readFile(listener.tls.cert), private_key: await readFile(listener.tls.key) }],
            listener.tls.clientCa !== undefined,
          );
    const port = await bindServer(server, listener.tcp, credentials);
    return listener.tcp.replace(/:\d+$/, `:${port}`);
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
