// The console's HTTP server on `console.listen`: the page (index.html, behind the token), its
// public script and style bundle (/assets/, /login), the login form and sign-out, the decision stream
// (/api/events, SSE) and the snapshot the charts read (/api/snapshot). Every response carries a
// strict Content-Security-Policy and no CORS header: only the console's own origin may read it.
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { AuditTrail } from "../ops/audit.js";
import type { Logger } from "../log.js";
import type { Asset } from "./assets.js";
import { loadAssets } from "./assets.js";
import { ConsoleAuth } from "./auth.js";
import type { ConsoleTokenConfig } from "./auth.js";
import { consoleSnapshot } from "./snapshot.js";
import type { SnapshotSources } from "./snapshot.js";
import { DecisionStream } from "./stream.js";

export interface ConsoleOptions extends ConsoleTokenConfig, SnapshotSources {
  /** host:port; port 0 picks one. */
  readonly listen: string;
  readonly audit: AuditTrail;
  readonly log: Logger;
  /** The built page; default daemon/dist/console-ui. */
  readonly assetDir?: string;
}

export interface ConsoleServer {
  /** "host:port" actually bound. */
  readonly address: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};
const MAX_LOGIN_BYTES = 4_096;

export async function startConsoleServer(options: ConsoleOptions): Promise<ConsoleServer> {
  const auth = new ConsoleAuth(options);
  const assets = loadAssets(options.assetDir);
  const stream = new DecisionStream(options.audit);
  const server: Server = createServer((request, response) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) response.setHeader(name, value);
    route(request, response).catch((error: unknown) => {
      options.log.error("console request failed", { error, path: request.url });
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end();
    });
  });

  async function route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://console.invalid");
    const path = url.pathname;
    if (path === "/login" && request.method === "POST") return login(request, response);
    if (path === "/logout" && request.method === "POST") {
      response.writeHead(303, { location: "/login", "set-cookie": ConsoleAuth.clearedCookie() }).end();
      return;
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { allow: "GET, HEAD" }).end();
      return;
    }
    // The bundle is the repository's own code, public like the login page that needs it.
    if (path.startsWith("/assets/")) return send(response, request, assets.get(path));
    if (path === "/login") return send(response, request, assets.get("/login.html"));
    if (!auth.allows(request)) {
      if (path.startsWith("/api/")) {
        response.writeHead(401, { "content-type": "application/json", "www-authenticate": 'Bearer realm="hookd console"' }).end('{"error":"a console token is required"}\n');
      } else {
        response.writeHead(303, { location: "/login" }).end();
      }
      return;
    }
    if (path === "/api/events") return stream.open(response, header(request, "last-event-id"));
    if (path === "/api/snapshot") {
      const body = JSON.stringify(consoleSnapshot(options));
      response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" }).end(body);
      return;
    }
    if (path === "/" || path === "/index.html") return send(response, request, assets.get("/"));
    response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
  }

  async function login(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // A form posted from another site is refused before its token is even looked at. Browsers say
    // where a request comes from in Sec-Fetch-Site; under no-referrer a same-origin form's Origin is "null".
    const site = header(request, "sec-fetch-site");
    const origin = header(request, "origin");
    const crossSite = site !== undefined ? site !== "same-origin" && site !== "none" : origin !== undefined && origin !== "null" && originHost(origin) !== request.headers.host;
    if (crossSite) {
      response.writeHead(403, { "content-type": "text/plain" }).end("cross-origin login refused\n");
      return;
    }
    const body = await readBody(request, MAX_LOGIN_BYTES);
    const token = body === undefined ? undefined : new URLSearchParams(body).get("token");
    if (token === null || token === undefined || !auth.isToken(token)) {
      options.log.warn("console login refused", { remote: request.socket.remoteAddress });
      response.writeHead(303, { location: "/login?failed=1" }).end();
      return;
    }
    response.writeHead(303, { location: "/", "set-cookie": auth.sessionCookie() }).end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    const { host, port } = splitListen(options.listen);
    server.listen(host === "" ? { port } : { host, port }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const bound = server.address() as AddressInfo;
  const shownHost = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
  return {
    address: `${shownHost}:${bound.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        stream.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(response: ServerResponse, request: IncomingMessage, asset: Asset | undefined): void {
  if (asset === undefined) {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  response.writeHead(200, { "content-type": asset.type, "content-length": asset.body.length, "cache-control": "no-cache" });
  response.end(request.method === "HEAD" ? undefined : asset.body);
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The body as text, or undefined when it is longer than `limit` bytes. */
async function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The host:port of an Origin header; undefined for "null" or anything unparsable. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}

export function splitListen(listen: string): { host: string; port: number } {
  const colon = listen.lastIndexOf(":");
  return { host: listen.slice(0, colon).replace(/^\[(.*)\]$/, "$1"), port: Number(listen.slice(colon + 1)) };
}
