// The endpoint for Claude Code `http` hooks (and the `hookd hook` forwarder): a small node:http
// server on host:port or a Unix socket. POST a hook's JSON (the same body a command hook reads on
// stdin) and get the hook's JSON answer, decided by ALL of hookd's plugins through the
// EvaluateService typed methods, the same decision path as the gRPC host. Answers 200 with the
// JSON (`{}` = no opinion); 400 names the bad field; other failures are non-2xx, which the agents
// treat as a non-blocking error. Owns HTTP plumbing only; each agent's reading and answers live in
// its folder (agents/<agent>/), the decisions in agents/lifecycle.ts.
//
//   POST /            or /hooks           hook_event_name from the body
//   POST /hooks/<Event>                   the body must agree
//   header x-hookd-dialect: <agent>       the agent's dialect, a name of agents/registry.ts
//                                         (default claude-code): its events and answers
//   header x-hookd-agent: <id>            the agent id (default: the dialect's name)
//   header x-hookd-forward: 1             forwarder mode: the body is the text the forwarding
//                                         command prints, header x-hookd-exit its exit code (0 =
//                                         print to stdout, 2 = print to stderr), so a forwarder in
//                                         any language needs no JSON parser
//   GET  /healthz                         200 "ok"
import { chmod } from "node:fs/promises";
import { createServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HookdError, POINT_TABLE } from "@hookd/sdk";
import type { PointSpec } from "@hookd/sdk";
import { LazyAbort, fieldError, httpStatusOf, parseAddress, removeStaleSocket } from "@hookd/sdk/internal";
import type { AgentDialect } from "../agents/contract.js";
import { answerHook } from "./lifecycle.js";
import type { HookEvaluator } from "./lifecycle.js";
import { readHookRequest } from "../agents/read-request.js";
import { AGENT_NAMES, agentDialect } from "../agents/registry.js";
import type { SessionFacts } from "../engine/session-facts.js";
import { refusedBy } from "../host/admission.js";
import { listen } from "../host/connections.js";
import type { Logger } from "../log.js";
import { StopCounter } from "./stop-counter.js";
import { tracedEvaluator } from "./trace.js";

export const DIALECT_HEADER = "x-hookd-dialect";
export const AGENT_HEADER = "x-hookd-agent";
export const FORWARD_HEADER = "x-hookd-forward";
export const EXIT_HEADER = "x-hookd-exit";

export interface HookHttpOptions {
  /** "host:port" (config `http.listen`), or a Unix socket: "unix:/path" or an absolute path. */
  readonly listen: string;
  readonly evaluate: HookEvaluator;
  readonly log: Logger;
  /**
   * The agent id of a request; may throw to refuse it (answered by the error's code, e.g. 401 for unauthenticated).
   * Default: the x-hookd-agent header, else the dialect's name.
   */
  readonly resolveAgent?: (headers: IncomingHttpHeaders, dialect: string) => string;
  /** Largest accepted body; default 4 MiB (413 beyond). */
  readonly maxBodyBytes?: number;
  /** File mode of a Unix socket; default 0o600 (owner only). */
  readonly socketMode?: number;
  /**
   * Whether a plugin's allow may bypass the agent's own permission rules (its config's effective
   * `bypassAgentPermissions`, config/bypass.ts). Default: no plugin may; an allow answers no opinion.
   */
  readonly bypassesAgentPermissions?: (plugin: string) => boolean;
  /** Where what each payload tells about its session (transcript, permission mode, model) is remembered, for the command kind. */
  readonly facts?: SessionFacts;
  /** Told the agent of every well-formed hook request (hookd status counts them). */
  readonly onAgent?: (agentId: string) => void;
  /**
   * Takes the request's admission slot, freed when the answer is sent (a refusal: 503 with
   * Retry-After). Given, `evaluate` must admit nothing itself. Default: `evaluate` admits each evaluation.
   */
  readonly admit?: (agentId: string) => () => void;
}

export interface HookHttpServer {
  /** "http://host:port" or "unix:/path". */
  readonly address: string;
  close(): Promise<void>;
}

const EVENT_PATH = /^\/hooks\/([A-Za-z]+)\/?$/;

/** The points of a tool call: a session at one of them made progress (its stop count starts again). */
const TOOL_POINTS: ReadonlySet<string> = new Set(["pre-tool", "approval", "post-tool"]);

/** Where to listen: config `http.listen` is host:port (":port" for loopback), unix:/path or /path. */
function listenTarget(listen: string): { readonly path: string } | { readonly host: string; readonly port: number } {
  const address = parseAddress(listen.startsWith("/") ? `unix:${listen}` : listen.startsWith(":") ? `127.0.0.1${listen}` : listen);
  return address.kind === "unix" ? { path: address.path } : { host: address.host.replace(/^\[(.*)\]$/, "$1"), port: address.port };
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The agent whose dialect the request speaks (the first of the registry when the header is absent). */
function dialectOf(headers: IncomingHttpHeaders): AgentDialect {
  const value = header(headers, DIALECT_HEADER);
  const agent = agentDialect(value === undefined || value === "" ? AGENT_NAMES[0] : value);
  if (agent === undefined) throw fieldError(DIALECT_HEADER, `expected one of ${AGENT_NAMES.map((name) => JSON.stringify(name)).join(", ")}, got ${JSON.stringify(value)}`);
  return agent;
}

const defaultAgent = (headers: IncomingHttpHeaders, dialect: string): string => header(headers, AGENT_HEADER) || dialect;

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HookdError("too_large", `the body exceeds ${limit} bytes`));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export async function startHookHttpServer(options: HookHttpOptions): Promise<HookHttpServer> {
  const { evaluate, log } = options;
  const limit = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const resolveAgent = options.resolveAgent ?? defaultAgent;
  const deps = { evaluate, log, bypassesAgentPermissions: options.bypassesAgentPermissions ?? (() => false) };
  const stops = new StopCounter();
  const inflight = new Set<LazyAbort>();

  const send = (res: ServerResponse, status: number, body: unknown): void => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    if (req.method === "GET" && path === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      return;
    }
    if (req.method !== "POST") throw new HookdError("method_not_allowed", "POST a hook's JSON to / or /hooks/<Event>");
    const eventInPath = EVENT_PATH.exec(path)?.[1];
    if (eventInPath === undefined && path !== "/" && path !== "/hooks" && path !== "/hooks/") throw new HookdError("not_found", `no such endpoint ${path}`);
    const agent = dialectOf(req.headers);
    const agentId = resolveAgent(req.headers, agent.name);
    // Before the body is read: a refusal costs the daemon next to nothing.
    const release = options.admit?.(agentId);
    if (release !== undefined) res.once("close", release);
    const traced = tracedEvaluator(evaluate, req.headers);
    const text = await readBody(req, limit);
    const steeredContinuations = (sessionId: string, active: boolean): number => stops.next(`${agentId}\u0000${sessionId}`, active);
    // Read before anything is evaluated, so a bad body is a 400 naming the field.
    const request = readHookRequest(agent, text, { agentId, ...(eventInPath === undefined ? {} : { expectedEvent: eventInPath }), steeredContinuations });
    if (TOOL_POINTS.has(request.point)) stops.toolRan(`${agentId}\u0000${request.session.sessionId}`);
    const told = { session: request.session, passThrough: request.passThrough, ends: request.point !== "agent-event" && (POINT_TABLE[request.point] as PointSpec).endsSession === true };
    log.debug("hook request", { event: request.event, dialect: agent.name, sessionId: request.session.sessionId, agentId, ...request.passThrough });
    // Remembered before deciding, so the hooks this very event runs see it too.
    options.facts?.remember(told.session, told.passThrough);
    options.onAgent?.(agentId);
    // The agent hanging up cancels the evaluation (plugins see their signal abort). Lazy: most
    // evaluations never read a signal, and an AbortSignal per request is a visible share of its cost.
    const controller = new LazyAbort();
    inflight.add(controller);
    res.on("close", () => {
      if (!res.writableFinished) controller.abort(new HookdError("cancelled", "the client closed the request"));
    });
    try {
      const answer = await answerHook(traced === evaluate ? deps : { ...deps, evaluate: traced }, agent, request, controller).finally(() => {
        if (told.ends) options.facts?.forget(told.session);
      });
      if (header(req.headers, FORWARD_HEADER) !== "1") return send(res, 200, answer);
      const output = agent.forwarded(answer);
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(output.text), [EXIT_HEADER]: String(output.exitCode) });
      res.end(output.text);
    } finally {
      inflight.delete(controller);
    }
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const status = httpStatusOf(error);
      const message = error instanceof Error ? error.message : String(error);
      if (status >= 500) log.error("hook request failed", { error: message, status });
      else log.debug("hook request refused", { error: message, status });
      if (res.headersSent || res.destroyed) return;
      // Overload is answered as a load balancer would: 503, and when to try again.
      const overloaded = refusedBy(error) !== undefined;
      if (overloaded) res.setHeader("retry-after", "1");
      send(res, overloaded ? 503 : status, { error: message });
    });
  });

  const target = listenTarget(options.listen);
  const socket = "path" in target ? target.path : undefined;
  if (socket !== undefined) await removeStaleSocket(socket);
  await listen(server, target);
  if (socket !== undefined) await chmod(socket, options.socketMode ?? 0o600);
  const info = server.address();
  const address =
    socket !== undefined ? `unix:${socket}` : `http://${(info as AddressInfo).family === "IPv6" ? `[${(info as AddressInfo).address}]` : (info as AddressInfo).address}:${(info as AddressInfo).port}`;
  log.info("hook endpoint listening", { address });

  let closing: Promise<void> | undefined;
  return {
    address,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        for (const controller of inflight) controller.abort(new HookdError("unavailable", "hookd is shutting down"));
        server.close(() => resolve());
        server.closeIdleConnections();
      })),
  };
}
