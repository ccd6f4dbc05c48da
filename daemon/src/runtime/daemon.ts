// The composition root: from a validated config to a serving daemon. Loads the plugins, keeps the
// frozen registry (rebuilt and swapped whole when a plugin's listeners change), serves HookHost,
// HookAdmin (on its own socket when configured), health and reflection on every listener
// (systemd-inherited sockets included), keeps the audit trail and metrics, reloads the config
// without dropping agents, and stops gracefully. Each concern it wires lives elsewhere.
import { Server } from "@grpc/grpc-js";
import { HookdError } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";
import { ConfigError, loadConfig } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { EventBus } from "../engine/events.js";
import type { EngineObserver } from "../engine/events.js";
import { PluginRegistry } from "../engine/registry.js";
import { WorkerPool } from "../plugins/worker/index.js";
import { EvaluateService } from "../host/evaluate.js";
import { HealthState } from "../host/health.js";
import { StreamTracker, addHostService } from "../host/host-service.js";
import type { HostedSessionDeps } from "../host/hosted-session.js";
import { AgentIdentities } from "../host/identity.js";
import { bindListener } from "../host/listeners.js";
import { SessionStore } from "../host/session-store.js";
import { addAdminService } from "../ops/admin-service.js";
import type { ReloadResult } from "../ops/admin-service.js";
import { AuditTrail } from "../ops/audit.js";
import type { Logger } from "../log.js";
import { EngineMetrics } from "../ops/metrics.js";
import { startMetricsServer } from "../ops/metrics-server.js";
import { agentResolver, startHookHttpServer } from "../http/index.js";
import type { HookHttpServer } from "../http/index.js";
import type { MetricsServer } from "../ops/metrics-server.js";
import { renderMetrics } from "../ops/prometheus.js";
import { addReflection } from "../ops/reflection.js";
import { InflightCalls, SwappableIdentities, planPlugins, requiredPluginsReady, restartOnlyChanges, retireWhenDrained } from "../plugins/plugin-set.js";
import { selectSockets, serveInherited } from "../ops/socket-activation.js";
import type { ActivatedListener, InheritedSocket } from "../ops/socket-activation.js";
import { loadPlugin } from "../plugins/load.js";
import type { LoadContext, OtherKindLoader } from "../plugins/load.js";
import type { PluginSource } from "../plugins/source.js";

export const DAEMON_VERSION = "0.1.0";

export interface DaemonOptions {
  readonly config: Config;
  /** The config file, or undefined for the embedded default. */
  readonly configPath: string | undefined;
  readonly log: Logger;
  /** Remote, managed and command plugins. */
  readonly loadOther?: OtherKindLoader;
  /** Extra observers of every engine event (tests); the audit trail and metrics are built in. */
  readonly observers?: readonly EngineObserver[];
  /** Sockets inherited from systemd (ops/socket-activation.ts takeInheritedSockets). */
  readonly inherited?: readonly InheritedSocket[];
}

const unsupported: OtherKindLoader = async (plugin) => {
  throw new HookdError("invalid_plugin", `plugin ${plugin.name}: kind "${plugin.kind}" is not available in this build`);
};

export class Daemon {
  readonly bus: EventBus;
  readonly health = new HealthState();
  readonly streams = new StreamTracker();
  /** Open `hookd tail` streams, ended like hosted-loop streams on stop. */
  readonly tails = new StreamTracker();
  readonly startedAt = Date.now();
  readonly audit: AuditTrail;
  readonly metrics = new EngineMetrics();
  readonly #options: DaemonOptions;
  readonly #log: Logger;
  readonly #server: Server;
  readonly #store: SessionStore;
  #config: Config;
  #generation = 0;
  readonly #reloads = { applied: 0, refused: 0 };
  #reloading: Promise<unknown> = Promise.resolve();
  readonly #retiring = new Set<Promise<void>>();
  /** Aborted by stop: retired plugins stop waiting for their drain and are closed with the rest. */
  readonly #stopped = new AbortController();
  readonly #inflight = new InflightCalls();
  #identities: SwappableIdentities | undefined;
  #adminServer: Server | undefined;
  #activated: ActivatedListener[] = [];
  #metricsServer: MetricsServer | undefined;
  #hookHttp: HookHttpServer | undefined;
  #sources: readonly PluginSource[] = [];
  #registry = PluginRegistry.EMPTY;
  #pool: WorkerPool | undefined;
  #addresses: string[] = [];
  #stopping: Promise<void> | undefined;

  private constructor(options: DaemonOptions) {
    this.#options = options;
    this.#log = options.log;
    this.#config = options.config;
    this.bus = new EventBus((error) => this.#log.error("an engine observer threw", { error }));
    const { config } = options;
    // The audit trail observes first: a decision is on disk before anything else sees it.
    this.audit = new AuditTrail(config.audit, this.#log);
    this.bus.subscribe(this.audit.observe);
    this.bus.subscribe(this.metrics.observe);
    for (const observer of options.observers ?? []) this.bus.subscribe(observer);
    this.#server = this.#newServer(config);
    this.#store = new SessionStore(this.#storeLimits(config), this.#sessionDeps(config));
  }

  #newServer(config: Config): Server {
    return new Server({
      // grpc-js's hard cap sits above the configured limit, which HookHost enforces itself so an
      // oversized message is an INVALID_ARGUMENT naming its size, not a bare RESOURCE_EXHAUSTED.
      "grpc.max_receive_message_length": 2 * config.limits.maxMessageBytes + 64 * 1024,
      "grpc.max_send_message_length": config.limits.maxMessageBytes,
    });
  }

  /** Loads plugins, binds every listener and reports SERVING. Cleans up if any step fails. */
  static async start(options: DaemonOptions): Promise<Daemon> {
    const daemon = new Daemon(options);
    try {
      await daemon.#start();
      return daemon;
    } catch (error) {
      await daemon.stop(0);
      throw error;
    }
  }

  get config(): Config {
    return this.#config;
  }

  /** Incremented by every applied reload. */
  get configGeneration(): number {
    return this.#generation;
  }

  get configPath(): string | undefined {
    return this.#options.configPath;
  }

  get addresses(): readonly string[] {
    return this.#addresses;
  }

  get sessions(): SessionStore {
    return this.#store;
  }

  get sources(): readonly PluginSource[] {
    return this.#sources;
  }

  /** The registry in force; a running point keeps the one it started with. */
  readonly registry = (): PluginRegistry => this.#registry;

  #loadContext(config: Config): LoadContext {
    return {
      defaultDeadlineMs: config.defaults.deadlineMs,
      workerPool: () => (this.#pool ??= new WorkerPool({ size: config.workers.size, onError: (error) => this.#log.error("worker pool error", { error }) })),
    };
  }

  async #start(): Promise<void> {
    const { config } = this.#options;
    const context = this.#loadContext(config);
    const sources: PluginSource[] = [];
    this.#sources = sources;
    for (const plugin of config.plugins) {
      sources.push(await loadPlugin(plugin, context, this.#options.loadOther ?? unsupported));
    }
    for (const source of sources) source.onChange(() => this.#rebuildOnChange(source.name));
    this.#rebuildRegistry();

    const identities = (this.#identities = new SwappableIdentities(new AgentIdentities(config.access.tokens)));
    const evaluate = new EvaluateService({
      registry: this.registry,
      bus: this.bus,
      identities,
      store: this.#store,
      limits: () => ({
        pointBudgetMs: this.#config.defaults.pointBudgetMs,
        maxSteeredContinuations: this.#config.limits.maxSteeredContinuations,
        maxInflightPerAgent: this.#config.limits.maxInflightPerAgent,
      }),
    });
    addHostService(this.#server, { store: this.#store, identities, evaluate, log: this.#log, streams: this.streams, maxMessageBytes: config.limits.maxMessageBytes });
    this.health.register(this.#server);
    // HookAdmin on its own server when config.admin names a socket: then agents cannot reach it.
    const admin = config.admin === undefined ? this.#server : (this.#adminServer = this.#newServer(config));
    this.#addAdmin(admin);
    if (admin !== this.#server) this.health.register(admin);
    addReflection(this.#server, admin === this.#server ? [pb.HookHost, pb.HookAdmin, pb.health.Health] : [pb.HookHost, pb.health.Health]);
    if (admin !== this.#server) addReflection(admin, [pb.HookAdmin, pb.health.Health]);

    // Until everything is bound, a health check (possibly on a connection systemd queued before we
    // started) answers NOT_SERVING rather than "unknown service".
    for (const service of ["", "hookd.v1.HookHost", "hookd.v1.HookAdmin"]) this.health.set(service, false);
    // Inherited sockets: the one config.admin names goes to the admin server; the agent listeners
    // take those they name, or every other one when they name none.
    const inherited = this.#options.inherited ?? [];
    const adminName = config.admin !== undefined && "systemd" in config.admin ? config.admin.systemd : undefined;
    const agentSockets = selectSockets(config.listeners, adminName === undefined ? inherited : inherited.filter((s) => s.name !== adminName));
    const adminSockets = config.admin === undefined || adminName === undefined ? [] : selectSockets([config.admin], inherited, () => "admin");
    for (const listener of config.listeners) if (!("systemd" in listener)) this.#addresses.push(await bindListener(this.#server, listener));
    if (config.admin !== undefined && !("systemd" in config.admin)) this.#addresses.push(await bindListener(admin, config.admin));
    if (config.metrics !== undefined) {
      this.#metricsServer = await startMetricsServer(config.metrics.listen, () => renderMetrics(this.metrics, this.#gauges()));
      this.#log.info("metrics serving", { address: this.#metricsServer.address, path: "/metrics" });
    }
    if (config.http !== undefined) {
      this.#hookHttp = await startHookHttpServer({
        listen: config.http.listen,
        evaluate,
        log: this.#log.child({ component: "http-hooks" }),
        resolveAgent: agentResolver(identities),
        maxBodyBytes: config.limits.maxMessageBytes,
      });
      this.#log.info("http hooks serving", { address: this.#hookHttp.address });
    }
    for (const service of ["", "hookd.v1.HookHost", "hookd.v1.HookAdmin"]) this.health.set(service, true);
    // Inherited sockets are accepted on last: connections systemd queued while hookd started are
    // served by a daemon that is complete (and reports SERVING).
    await this.#serveInherited(this.#server, agentSockets);
    await this.#serveInherited(admin, adminSockets);
    this.#log.info("hookd serving", { version: DAEMON_VERSION, listeners: this.#addresses, config: this.configPath ?? "(embedded default)", audit: this.audit.path ?? "(none)" });
  }

  /** Serves sockets inherited from systemd through connection injectors. */
  async #serveInherited(server: Server, sockets: readonly InheritedSocket[]): Promise<void> {
    for (const socket of sockets) {
      const activated = await serveInherited(server, socket);
      this.#activated.push(activated);
      this.#addresses.push(activated.address);
    }
  }

  #addAdmin(server: Server): void {
    addAdminService(server, {
      status: () => ({
        version: DAEMON_VERSION,
        startedAt: this.startedAt,
        agentsConnected: this.#store.agents,
        sessionsOpen: this.#store.size,
        listeners: this.#addresses,
        configPath: this.configPath,
        configGeneration: this.#generation,
      }),
      plugins: () => this.#sources.map((source) => source.status()),
      metrics: this.metrics,
      audit: this.audit,
      reload: () => this.reload(),
      tails: this.tails,
      log: this.#log,
    });
  }

  #gauges(): Parameters<typeof renderMetrics>[1] {
    return {
      agentsConnected: this.#store.agents,
      sessionsOpen: this.#store.size,
      streamsOpen: this.streams.size,
      plugins: this.#sources.map((source) => source.status()),
      configGeneration: this.#generation,
      reloads: this.#reloads,
      auditRecords: this.audit.records,
      auditWriteErrors: this.audit.writeErrors,
      startedAt: this.startedAt,
    };
  }

  /** Resolves once every `required` plugin can answer (readiness for systemd); rejects when `signal` aborts. */
  whenReady(signal: AbortSignal): Promise<void> {
    return requiredPluginsReady(
      () => this.#config.plugins.filter((p) => p.required && this.#sources.find((s) => s.name === p.name)?.ready() !== true).map((p) => p.name),
      this.#log,
      signal,
    );
  }

  /**
   * Re-reads the config file and applies it without dropping agents: plugins whose entry is
   * unchanged keep running; changed and removed ones are closed once their in-flight calls
   * finished; new ones are loaded first (a plugin that fails to load refuses the whole reload).
   * An invalid config is refused, logged with every problem, and the running one kept.
   */
  reload(): Promise<ReloadResult> {
    const next = this.#reloading.then(() => this.#reload());
    this.#reloading = next.catch(() => {});
    return next;
  }

  async #reload(): Promise<ReloadResult> {
    const refuse = (problems: readonly string[]): ReloadResult => {
      this.#reloads.refused++;
      this.#log.error("config reload refused; the running config stays in force", { config: this.configPath ?? "(embedded default)", problems });
      return { applied: false, error: problems.join("\n"), configGeneration: this.#generation };
    };
    if (this.#stopping !== undefined) return refuse(["hookd is stopping"]);
    let next: Config;
    try {
      next = loadConfig(this.configPath).config;
    } catch (error) {
      return refuse(error instanceof ConfigError ? error.problems.map((p) => `${error.source}: ${p}`) : [String(error)]);
    }
    const current = this.#config;
    const plan = planPlugins(current.plugins, next.plugins);
    const context = this.#loadContext(next);
    const loaded = new Map<string, PluginSource>();
    let identities: AgentIdentities;
    try {
      identities = new AgentIdentities(next.access.tokens);
      for (const plugin of plan.load) loaded.set(plugin.name, await loadPlugin(plugin, context, this.#options.loadOther ?? unsupported));
    } catch (error) {
      await Promise.allSettled([...loaded.values()].map((source) => source.close()));
      return refuse([error instanceof Error ? error.message : String(error)]);
    }
    const kept = new Map(this.#sources.map((source) => [source.name, source]));
    const sources = next.plugins.map((plugin) => loaded.get(plugin.name) ?? kept.get(plugin.name)).filter((s): s is PluginSource => s !== undefined);
    try {
      new PluginRegistry(sources.flatMap((source) => source.listeners()));
    } catch (error) {
      await Promise.allSettled([...loaded.values()].map((source) => source.close()));
      return refuse([error instanceof Error ? error.message : String(error)]);
    }
    const retired = this.#sources.filter((source) => plan.retire.includes(source.name));
    this.#sources = sources;
    this.#config = { ...next, listeners: current.listeners, admin: current.admin, metrics: current.metrics, http: current.http, workers: current.workers };
    for (const source of loaded.values()) source.onChange(() => this.#rebuildOnChange(source.name));
    this.#rebuildRegistry();
    this.#identities?.replace(identities);
    this.#store.reconfigure(this.#storeLimits(next), this.#sessionDeps(next));
    this.audit.reconfigure(next.audit);
    for (const source of retired) this.#retire(source, next.defaults.pointBudgetMs);
    this.#generation++;
    this.#reloads.applied++;
    const restart = restartOnlyChanges(current, next);
    if (restart.length > 0) this.#log.warn("config changes that need a restart were not applied", { keys: restart });
    this.#log.info("config reloaded", { generation: this.#generation, kept: plan.keep, loaded: plan.load.map((p) => p.name), retired: plan.retire });
    return { applied: true, error: "", configGeneration: this.#generation };
  }

  /**
   * Closes a plugin the new config dropped or changed, once nothing can still call it: a point
   * that began before the swap may reach it until its budget is spent, so wait that long and then
   * for its in-flight calls (bounded by its deadlines).
   */
  #retire(source: PluginSource, pointBudgetMs: number): void {
    const task = retireWhenDrained(source, { pointBudgetMs, inflight: this.#inflight, stopped: this.#stopped.signal, log: this.#log });
    this.#retiring.add(task);
    void task.finally(() => this.#retiring.delete(task));
  }

  /** A plugin's listeners changed (it came up, or described another manifest): swap, or keep the old registry. */
  #rebuildOnChange(plugin: string): void {
    try {
      this.#rebuildRegistry();
    } catch (error) {
      this.#log.error("plugin registry not rebuilt; the previous one stays in force", { plugin, error });
    }
  }

  #rebuildRegistry(): void {
    const registry = new PluginRegistry(this.#sources.flatMap((source) => this.#inflight.listeners(source)));
    this.#registry = registry;
    // The order plugins run in, per point, so an operator can see it at start and after changes.
    for (const { point, plugins } of registry.describe()) {
      if (plugins.length > 0) this.#log.info("plugin order", { point, plugins });
    }
  }

  #storeLimits(config: Config): ConstructorParameters<typeof SessionStore>[0] {
    return { maxSessions: config.limits.maxSessions, maxSessionsPerAgent: config.limits.maxSessionsPerAgent, resumeWindowMs: config.limits.resumeWindowMs };
  }

  #sessionDeps(config: Config): HostedSessionDeps {
    return {
      registry: this.registry,
      bus: this.bus,
      log: this.#log,
      limits: {
        maxSteeredContinuations: config.limits.maxSteeredContinuations,
        maxStepsPerTurn: config.limits.maxStepsPerTurn,
        pointBudgetMs: config.defaults.pointBudgetMs,
        toolConcurrency: config.limits.toolConcurrency,
        approvalTimeoutMs: config.limits.approvalTimeoutMs,
      },
    };
  }

  /**
   * Graceful stop: report NOT_SERVING, end hosted-loop streams with UNAVAILABLE (retryable) so
   * agents reconnect elsewhere or later, let in-flight unary calls finish within `graceMs`, then
   * force the rest; close sessions and plugins.
   */
  stop(graceMs = 5_000): Promise<void> {
    this.#stopping ??= this.#stop(graceMs);
    return this.#stopping;
  }

  async #stop(graceMs: number): Promise<void> {
    this.health.setAll(false);
    // Stop accepting on inherited sockets first: systemd keeps the socket and queues new agents
    // for the next instance.
    await Promise.allSettled(this.#activated.map((listener) => listener.close()));
    this.streams.endAll("hookd is shutting down; reconnect and resume");
    this.tails.endAll("hookd is shutting down");
    await this.#hookHttp?.close();
    const servers = this.#adminServer === undefined ? [this.#server] : [this.#server, this.#adminServer];
    await Promise.all(servers.map((server) => shutdown(server, graceMs)));
    await this.#metricsServer?.close();
    await this.#store.closeAll("hookd stopped");
    this.#stopped.abort();
    await Promise.allSettled([...this.#retiring]);
    await Promise.allSettled(this.#sources.map((source) => source.close()));
    await this.#pool?.close();
    this.audit.close();
    this.#log.info("hookd stopped");
  }
}

/** tryShutdown lets unary calls finish; past `graceMs` the rest are cancelled. */
function shutdown(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
