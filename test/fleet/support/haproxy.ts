// Starts a real HAProxy (Debian's 2.6, installed by scripts/setup-fleet.sh) as a gRPC (HTTP/2)
// balancer whose health checks ask each instance's grpc.health.v1 service: HAProxy 2.6's own
// http-check cannot send a gRPC message (its body strings stop at the first NUL byte, and a gRPC
// frame starts with one), so the check is an external check running grpc-health-probe, the
// client Kubernetes readiness probes use. The admin socket reports each server's state.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../support/ports.js";
export { freePort };

export const PROBE = resolve(import.meta.dirname, "../bin/grpc-health-probe");
const HAPROXY = ["/usr/sbin/haproxy", "/usr/bin/haproxy"].find((path) => existsSync(path)) ?? "haproxy";

export interface HaproxyServer {
  readonly name: string;
  /** host:port of a hookd TCP listener. */
  readonly address: string;
}

export interface Haproxy {
  /** host:port to dial (plaintext HTTP/2). */
  readonly address: string;
  readonly child: ChildProcess;
  /** Each server's state as HAProxy sees it: UP, DOWN, "UP 1/2", ... */
  states(): Promise<ReadonlyMap<string, string>>;
  /** Resolves once HAProxy reports `server` in `state` (bounded: about 30 s of checks). */
  waitFor(server: string, state: "UP" | "DOWN"): Promise<void>;
  stop(): Promise<void>;
}

export async function startHaproxy(servers: readonly HaproxyServer[], checkIntervalMs = 300): Promise<Haproxy> {
  if (!existsSync(PROBE)) throw new Error(`${PROBE} is missing: run scripts/setup-fleet.sh (npm run setup:fleet)`);
  const dir = await mkdtemp(join(tmpdir(), "hookd-haproxy-"));
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const stats = join(dir, "admin.sock");
  const check = join(dir, "check.sh");
  // HAProxy calls it with <proxy addr> <proxy port> <server addr> <server port>; exit 0 is healthy.
  await writeFile(check, `#!/bin/sh\nexec ${PROBE} -addr "$3:$4" -connect-timeout 1s -rpc-timeout 1s >/dev/null 2>&1\n`);
  await chmod(check, 0o755);
  const lines = servers.map((s) => `  server ${s.name} ${s.address} proto h2 check inter ${checkIntervalMs} fall 1 rise 1`).join("\n");
  await writeFile(
    join(dir, "haproxy.cfg"),
    `global
  stats socket ${stats} mode 600 level admin
  external-check
  insecure-fork-wanted
defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout check 3s
frontend hookd
  bind ${address} proto h2
  default_backend hookd
backend hookd
  balance roundrobin
  option external-check
  external-check path "/usr/bin:/bin"
  external-check command ${check}
${lines}
`,
  );
  const child = spawn(HAPROXY, ["-db", "-f", join(dir, "haproxy.cfg")], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const states = async (): Promise<ReadonlyMap<string, string>> => {
    const csv = await adminCommand(stats, "show stat\n");
    const [header = "", ...rows] = csv.split("\n").filter((line) => line !== "");
    const columns = header.replace(/^# /, "").split(",");
    const name = columns.indexOf("svname");
    const status = columns.indexOf("status");
    return new Map(rows.map((row) => row.split(",")).filter((cells) => cells[0] === "hookd" && cells[name] !== "BACKEND" && cells[name] !== "FRONTEND").map((cells) => [cells[name] ?? "", cells[status] ?? ""]));
  };
  for (let attempt = 0; !existsSync(stats); attempt++) {
    if (child.exitCode !== null || attempt > 200) throw new Error(`haproxy did not start: ${stderr}`);
    await sleep(50);
  }
  return {
    address,
    child,
    states,
    waitFor: async (server, state) => {
      let last = "";
      for (let attempt = 0; attempt < 300; attempt++) {
        last = (await states()).get(server) ?? "(no such server)";
        if (last === state) return;
        await sleep(100);
      }
      throw new Error(`haproxy never reported ${server} ${state} (last: ${last}); stderr:\n${stderr}`);
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.once("exit", done));
        child.kill("SIGTERM");
        await Promise.race([exited, sleep(5_000).then(() => child.kill("SIGKILL"))]);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function adminCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((done, fail) => {
    const socket = connect(socketPath);
    let out = "";
    socket.on("data", (chunk: Buffer) => (out += chunk.toString()));
    socket.once("error", fail);
    socket.once("end", () => done(out));
    socket.write(command);
  });
}

