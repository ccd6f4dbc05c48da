// Starts a real nginx (Debian's package, installed by scripts/setup-fleet.sh) as a gRPC load
// balancer in front of hookd instances: its own prefix, config and log files in a temp dir, in
// the foreground, stopped by the test. The access log records which upstream served each call.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { freePort } from "../../support/ports.js";

/** What the fleet tests and deploy/fleet/nginx.conf hash on: the SDK's session affinity header. */
export const SESSION_HASH_KEY = "$http_x_hookd_session";

export interface NginxOptions {
  /** Upstream addresses: Unix socket paths (absolute) or host:port. */
  readonly upstreams: readonly string[];
  /**
   * The upstream balancing directive's key, as an nginx expression, e.g.
   * "$http_x_hookd_session" (consistent hashing on the session affinity header); round-robin when unset.
   */
  readonly hashKey?: string;
  /** Seconds for client_body_timeout, grpc_read_timeout and grpc_send_timeout (nginx: 60). */
  readonly timeoutSeconds?: number;
  /**
   * A global limit per agent in nginx itself (limit_req keyed on the x-hookd-agent header), as
   * docs/fleet.md shows: over it, a gRPC RESOURCE_EXHAUSTED answered by nginx. `rate` as nginx
   * writes it ("1r/m").
   */
  readonly rateLimit?: { readonly rate: string; readonly burst: number };
}

export interface Nginx {
  /** host:port to dial (plaintext HTTP/2). */
  readonly address: string;
  readonly dir: string;
  readonly child: ChildProcess;
  /** The access log's lines so far: `<upstream_addr> <status> <grpc_status> <uri>`. */
  accessLog(): Promise<string[]>;
  stop(): Promise<void>;
}

export const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path)) ?? "nginx";

export async function startNginx(options: NginxOptions): Promise<Nginx> {
  const dir = await mkdtemp(join(tmpdir(), "hookd-nginx-"));
  await mkdir(join(dir, "tmp"));
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  await writeFile(join(dir, "nginx.conf"), config(dir, address, options));
  const child = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  await waitForPort(port, child, () => stderr);
  return {
    address,
    dir,
    child,
    accessLog: async () => (await readFile(join(dir, "access.log"), "utf8").catch(() => "")).split("\n").filter(Boolean),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGQUIT");
        await Promise.race([exited, sleep(5_000).then(() => child.kill("SIGKILL"))]);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function config(dir: string, address: string, options: NginxOptions): string {
  const servers = options.upstreams
    .map((upstream) => `    server ${upstream.startsWith("/") ? `unix:${upstream}` : upstream} max_fails=1 fail_timeout=2s;`)
    .join("\n");
  const timeout = options.timeoutSeconds ?? 60;
  // As root, workers would drop to `nobody` and lose access to the tests' 0700 socket dirs.
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  return `${user}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log notice;
events { worker_connections 1024; }
http {
  log_format upstreams '$upstream_addr $status $upstream_http_grpc_status $uri';
  access_log ${dir}/access.log upstreams;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
${options.rateLimit ? `  limit_req_zone $http_x_hookd_agent zone=hookd_agents:1m rate=${options.rateLimit.rate};\n` : ""}  upstream hookd {
${options.hashKey ? `    hash ${options.hashKey} consistent;\n` : ""}${servers}
    keepalive 16;
  }
  server {
    listen ${address} http2;
    client_body_timeout ${timeout}s;
    grpc_read_timeout ${timeout}s;
    grpc_send_timeout ${timeout}s;
    location / {
${options.rateLimit ? rateLimited(options.rateLimit.burst) : ""}      grpc_pass grpc://hookd;
    }
${options.rateLimit ? LIMITED_LOCATION : ""}  }
}
`;
}

function rateLimited(burst: number): string {
  return `      limit_req zone=hookd_agents burst=${burst} nodelay;
      limit_req_status 429;
      error_page 429 = @limited;
`;
}

/** Over the limit: a trailers-only gRPC answer, RESOURCE_EXHAUSTED, instead of an HTTP 429. */
const LIMITED_LOCATION = `    location @limited {
      default_type application/grpc;
      add_header grpc-status 8 always;
      add_header grpc-message "rate limited by the balancer" always;
      return 204;
    }
`;


async function waitForPort(port: number, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await sleep(50);
  }
  throw new Error(`nginx did not listen on ${port}: ${stderr()}`);
}
