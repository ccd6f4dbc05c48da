// The Prometheus scrape endpoint: GET /metrics on `metrics.listen` (host:port; an empty host
// listens on every interface, port 0 picks one). Renders on demand; owns only the HTTP server.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

export interface MetricsServer {
  /** "host:port" actually bound. */
  readonly address: string;
  close(): Promise<void>;
}

/** `render` may be asynchronous: the runtime families (runtime-metrics.ts) are collected at scrape time. */
export async function startMetricsServer(listen: string, render: () => string | Promise<string>): Promise<MetricsServer> {
  const colon = listen.lastIndexOf(":");
  const host = listen.slice(0, colon).replace(/^\[(.*)\]$/, "$1");
  const port = Number(listen.slice(colon + 1));
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    if (path !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain" }).end("hookd serves /metrics\n");
      return;
    }
    Promise.resolve()
      .then(render)
      .then(
        (body) => {
          response.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE, "content-length": Buffer.byteLength(body) });
          response.end(request.method === "HEAD" ? undefined : body);
        },
        (error: unknown) => {
          response.writeHead(500, { "content-type": "text/plain" }).end(`${error instanceof Error ? error.message : String(error)}\n`);
        },
      );
  });
  // A scrape is short; idle keep-alive connections must not hold a stopping daemon.
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(host === "" ? { port } : { host, port }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const shownHost = host === "" ? "0.0.0.0" : host.includes(":") ? `[${host}]` : host;
  return {
    address: `${shownHost}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
