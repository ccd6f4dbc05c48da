// The daemon's listening side: the gRPC server for HookHost (and HookAdmin, unless config.admin
// puts it on a server of its own, out of agents' reach), health and reflection on each, the bound
// and systemd-inherited sockets, the Prometheus endpoint and the HTTP hook endpoint. Started once
// everything they serve exists, stopped gracefully. Owns servers and sockets, no daemon state.
import { Server } from "@grpc/grpc-js";
import { pb } from "@hookd/sdk/internal";
import type { Config } from "../config/schema.js";
import { startConsoleServer } from "../console/server.js";
import type { ConsoleServer } from "../console/server.js";
import type { PluginRegistry } from "../engine/registry.js";
import type { SessionFacts } from "../engine/session-facts.js";
import type { Admission } from "../host/admission.js";
import type { EvaluateService } from "../host/evaluate.js";
import { HealthState } from "../host/health.js";
import type { AcceptingListener, ClosedReason, ConnectionLimits } from "../host/connections.js";
import { StreamTracker, addHostService } from "../host/host-service.js";
import type { AgentIdentities } from "../host/identity.js";
import { bindListener } from "../host/listeners.js";
import type { SessionStore } from "../host/session-store.js";
import { ActiveAgents, agentResolver, startHookHttpServer } from "../http/index.js";
import type { HookHttpServer } from "../http/index.js";
import type { Logger } from "../log.js";
import { addAdminService } from "../ops/admin-service.js";
import type { AdminDeps } from "../ops/admin-service.js";
import { startMetricsServer } from "../ops/metrics-server.js";
import type { MetricsServer } from "../ops/metrics-server.js";
import { addReflection } from "../ops/reflection.js";
import { selectSockets, serveInherited } from "../ops/socket-activation.js";
import type { InheritedSocket } from "../ops/socket-activation.js";

/** What the servers serve, built by the daemon before they start. */
export interface Served {
  readonly store: SessionStore;
  readonly identities: AgentIdentities;
  readonly evaluate: EvaluateService;
  /** Admits each HTTP hook request once, at its entry. */
  readonly admission: Admission;
  readonly admin: Omit<AdminDeps, "tails" | "log">;
  /** The Prometheus text for /metrics. */
  readonly metrics: () => string | Promise<string>;
  /** Whether a plugin's allow may bypass an agent's own permission rules (its config, as in force). */
  readonly bypassesAgentPermissions: (plugin: string) => boolean;
  /** Where the HTTP endpoint remembers what agents told about their sessions. */
  readonly facts?: SessionFacts;
  /** The registry in force: the console shows each point's plugins in order. */
  readonly registry: () => PluginRegistry;
  /** This daemon's instance id, told to agents in SessionOpened. */
  readonly instanceId?: string;
}

export class Servers {
  readonly health = new HealthState();
  readonly streams = new StreamTracker();
  /** Open Evaluate streams (agents' own loops), ended on stop like hosted-loop streams. */
  readonly evaluateStreams = new StreamTracker();
  /** Open `hookd tail` streams, ended like hosted-loop streams on stop. */
  readonly tails = new StreamTracker();
  readonly #config: Config;
  readonly #log: Logger;
  readonly #server: Server;
  #adminServer: Server | undefined;
  /** Every gRPC listener, bound or inherited: hookd's own accept loops (host/connections.ts). */
  readonly #listeners: AcceptingListener[] = [];
  /** Connections hookd closed itself, by reason. */
  readonly connectionsRefused = new Map<ClosedReason, number>();
  #metricsServer: MetricsServer | undefined;
  #console: ConsoleServer | undefined;
  #hookHttp: HookHttpServer | undefined;
  /** Agents heard from over the HTTP hook endpoint. */
  readonly #httpAgents = new ActiveAgents();
  readonly #addresses: string[] = [];

  /** `config` is the one at start: a reload cannot change listeners or servers. */
  constructor(config: Config, log: Logger) {
    this.#config = config;
    this.#log = log;
    this.#server = newServer(config);
  }

  /** Agents with an open hosted session, and those whose HTTP hooks arrived lately (each once). */
  agentsConnected(store: SessionStore): number {
    return store.agents + this.#httpAgents.count(Date.now(), (id) => store.hasAgent(id));
  }

  get addresses(): readonly string[] {
    return this.#addresses;
  }

  /** Adds the services, binds every listener and reports SERVING; inherited sockets come last. */
  async start(served: Served, inherited: readonly InheritedSocket[]): Promise<void> {
    const config = this.#config;
    const { store, identities, evaluate } = served;
    addHostService(this.#server, { store, identities, evaluate, admission: served.admission, log: this.#log, streams: this.streams, evaluateStreams: this.evaluateStreams, maxMessageBytes: config.limits.maxMessageBytes, instanceId: served.instanceId ?? "" });
    this.health.register(this.#server);
    // HookAdmin on its own server when config.admin names a socket: then agents cannot reach it.
    const admin = config.admin === undefined ? this.#server : (this.#adminServer = newServer(config));
    addAdminService(admin, { ...served.admin, tails: this.tails, log: this.#log });
    if (admin !== this.#server) this.health.register(admin);
    addReflection(this.#server, admin === this.#server ? [pb.HookHost, pb.HookAdmin, pb.health.Health] : [pb.HookHost, pb.health.Health]);
    if (admin !== this.#server) addReflection(admin, [pb.HookAdmin, pb.health.Health]);

    // Until everything is bound, a health check (possibly on a connection systemd queued before we
    // started) answers NOT_SERVING rather than "unknown service".
    for (const service of ["", "hookd.v1.HookHost", "hookd.v1.HookAdmin"]) this.health.set(service, false);
    // Inherited sockets: the one config.admin names goes to the admin server; the agent listeners
    // take those they name, or every other one when they name none.
    const adminName = config.admin !== undefined && "systemd" in config.admin ? config.admin.systemd : undefined;
    const agentSockets = selectSockets(config.listeners, adminName === undefined ? inherited : inherited.filter((s) => s.name !== adminName));
    const adminSockets = config.admin === undefined || adminName === undefined ? [] : selectSockets([config.admin], inherited, () => "admin");
    for (const listener of config.listeners) if (!("systemd" in listener)) this.#accept(await bindListener(this.#server, listener, this.#limits(), this.#onClosed));
    if (config.admin !== undefined && !("systemd" in config.admin)) this.#accept(await bindListener(admin, config.admin, this.#limits(), this.#onClosed));
    if (config.metrics !== undefined) {
      this.#metricsServer = await startMetricsServer(config.metrics.listen, served.metrics);
      this.#log.info("metrics serving", { address: this.#metricsServer.address, path: "/metrics" });
    }
    if (config.console !== undefined) {
      this.#console = await startConsoleServer({ ...config.console, ...served.admin, registry: served.registry, log: this.#log.child({ component: "console" }) });
      this.#log.info("console serving", { address: this.#console.address, url: `http://${this.#console.address}/` });
    }
    if (config.http !== undefined) {
      this.#hookHttp = await startHookHttpServer({
        listen: config.http.listen,
        evaluate: evaluate.admitted,
        admit: (agentId) => served.admission.enter(agentId),
        log: this.#log.child({ component: "http-hooks" }),
        resolveAgent: agentResolver(identities),
        bypassesAgentPermissions: served.bypassesAgentPermissions,
        ...(served.facts === undefined ? {} : { facts: served.facts }),
        maxBodyBytes: config.limits.maxMessageBytes,
        onAgent: (agentId) => this.#httpAgents.seen(agentId),
      });
      this.#log.info("http hooks serving", { address: this.#hookHttp.address });
    }
    for (const service of ["", "hookd.v1.HookHost", "hookd.v1.HookAdmin"]) this.health.set(service, true);
    // Inherited sockets are accepted on last: connections systemd queued while hookd started are
    // served by a daemon that is complete (and reports SERVING).
    await this.#serveInherited(this.#server, agentSockets);
    await this.#serveInherited(admin, adminSockets);
  }

  /**
   * Reports NOT_SERVING, serves on for `drainDelayMs`, and stops accepting (systemd keeps an inherited socket and queues new
   * agents for the next instance), ends hosted-loop and tail streams with UNAVAILABLE
   * (retryable), lets in-flight unary calls finish within `graceMs`, forces the rest, and
   * destroys the connections still open. Never waits for a listener to close before its
   * connections are ended: net.Server#close waits for every accepted connection.
   */
  async stop(graceMs: number, drainDelayMs = 0): Promise<void> {
    this.health.setAll(false);
    // Still serving while health says NOT_SERVING: balancers that check it take this instance out
    // before its listeners close (limits.drainDelayMs).
    if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
    for (const listener of this.#listeners) listener.stopAccepting();
    this.streams.endAll("hookd is shutting down; reconnect and resume");
    this.evaluateStreams.endAll("hookd is shutting down; reconnect");
    this.tails.endAll("hookd is shutting down");
    const servers = this.#adminServer === undefined ? [this.#server] : [this.#server, this.#adminServer];
    const drained = Promise.all(this.#listeners.map((listener) => listener.drained()));
    await Promise.all([this.#hookHttp?.close(), ...servers.map((server) => shutdown(server, drained, graceMs))]);
    await Promise.all(this.#listeners.map((listener) => listener.destroy()));
    await Promise.all([this.#metricsServer?.close(), this.#console?.close()]);
  }

  /** Serves sockets inherited from systemd through connection injectors. */
  async #serveInherited(server: Server, sockets: readonly InheritedSocket[]): Promise<void> {
    for (const socket of sockets) this.#accept(await serveInherited(server, socket, this.#limits(), this.#onClosed));
  }

  #accept(listener: AcceptingListener): void {
    this.#listeners.push(listener);
    this.#addresses.push(listener.address);
  }

  #limits(): ConnectionLimits {
    return { handshakeTimeoutMs: this.#config.limits.handshakeTimeoutMs, maxConnections: this.#config.limits.maxConnectionsPerListener };
  }

  readonly #onClosed = (reason: ClosedReason): void => {
    this.connectionsRefused.set(reason, (this.connectionsRefused.get(reason) ?? 0) + 1);
  };
}

function newServer(config: Config): Server {
  return new Server({
    // grpc-js's hard cap sits above the configured limit, which HookHost enforces itself so an
    // oversized message is an INVALID_ARGUMENT naming its size, not a bare RESOURCE_EXHAUSTED.
    "grpc.max_receive_message_length": 2 * config.limits.maxMessageBytes + 64 * 1024,
    "grpc.max_send_message_length": config.limits.maxMessageBytes,
  });
}

/**
 * tryShutdown sends GOAWAY and lets unary calls finish; past `graceMs` the rest are cancelled.
 * Its callback alone is not the end of the calls: on Node 24 it fires at once for a server fed by
 * connection injectors, so the connections closing (`drained`) is awaited too.
 */
function shutdown(server: Server, drained: Promise<unknown>, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    const triedShutdown = new Promise<void>((done) => server.tryShutdown(() => done()));
    void Promise.all([triedShutdown, drained]).then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
