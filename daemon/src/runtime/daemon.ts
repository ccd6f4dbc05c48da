// The composition root: from a validated config to a serving daemon. Wires the engine's event bus
// to the audit trail and metrics, the plugin set (plugins/plugin-set.ts: loaded sources and the
// frozen registry), the session store and services, and the servers (servers.ts); reloads the
// config without dropping agents, and stops gracefully. Each concern it wires lives elsewhere.
import { isConfigError, loadConfig, stateDir } from "../config/load.js";
import { agentPermissionBypass } from "../config/bypass.js";
import { configVersion, resolveInstanceId } from "../config/instance.js";
import { restartOnlyChanges } from "../config/reload.js";
import type { Config } from "../config/schema.js";
import { EventBus, type EngineObserver } from "../engine/events.js";
import type { PluginRegistry } from "../engine/registry.js";
import { Admission } from "../host/admission.js";
import { EvaluateService } from "../host/evaluate.js";
import type { HealthState } from "../host/health.js";
import type { StreamTracker } from "../host/host-service.js";
import { AgentIdentities, SwappableIdentities } from "../host/identity.js";
import { RetryAnswers } from "../host/retries.js";
import { SessionStore } from "../host/session-store.js";
import type { Logger } from "../log.js";
import type { ReloadResult } from "../ops/admin-service.js";
import { AuditTrail } from "../ops/audit.js";
import { EngineMetrics } from "../ops/metrics.js";
import { renderMetrics } from "../ops/prometheus.js";
import type { InheritedSocket } from "../ops/socket-activation.js";
import { PluginSet } from "../plugins/plugin-set.js";
import type { PreparedPlugins } from "../plugins/plugin-set.js";
import type { PluginSource } from "../plugins/source.js";
import { Servers } from "./servers.js";
import { evaluateLimits, sessionDeps, storeLimits } from "./session-limits.js";
import { Telemetry } from "./telemetry.js";
import { DAEMON_VERSION } from "./version.js";

export { DAEMON_VERSION };

export interface DaemonOptions {
  readonly config: Config;
  /** The config file, or undefined for the embedded default. */
  readonly configPath: string | undefined;
  readonly log: Logger;
  /** Extra observers of every engine event (tests); the audit trail and metrics are built in. */
  readonly observers?: readonly EngineObserver[];
  /** Sockets inherited from systemd (ops/socket-activation.ts takeInheritedSockets). */
  readonly inherited?: readonly InheritedSocket[];
  /** The instance id `hookd serve` resolved (config/instance.ts); resolved here when absent. */
  readonly instanceId?: string;
}

export class Daemon {
  readonly bus: EventBus;
  readonly startedAt = Date.now();
  readonly audit: AuditTrail;
  readonly metrics = new EngineMetrics();
  /** The in-flight caps of evaluate calls (per agent and daemon-wide); read per call, so a reload applies. */
  readonly admission = new Admission(() => ({ maxInflightPerAgent: this.#config.limits.maxInflightPerAgent, maxInflight: this.#config.limits.maxInflight, adaptive: this.#config.limits.adaptive }));
  /** This daemon in a fleet: on every audit record, log line, status and the metrics' info series; retries.ts answers retried evaluates. */
  readonly instanceId: string;
  readonly retries = new RetryAnswers(() => ({ windowMs: this.#config.limits.retryWindowMs, maxEntries: this.#config.limits.retryEntries, epoch: this.#generation }), (_point, decisions) => this.audit.retried(decisions));
  #configVersion: string;
  readonly #options: DaemonOptions;
  readonly #log: Logger;
  readonly #servers: Servers;
  readonly #plugins: PluginSet;
  readonly #store: SessionStore;
  readonly #telemetry: Telemetry;
  #config: Config;
  #generation = 0;
  readonly #reloads = { applied: 0, refused: 0 };
  #reloading: Promise<unknown> = Promise.resolve();
  #identities: SwappableIdentities | undefined;
  #stopping: Promise<void> | undefined;

  private constructor(options: DaemonOptions, telemetry: Telemetry) {
    this.#options = options;
    this.#telemetry = telemetry;
    this.instanceId = options.instanceId ?? resolveInstanceId(options.config);
    this.#log = options.log.child({ instanceId: this.instanceId });
    this.#config = options.config;
    this.#configVersion = configVersion(options.config);
    this.bus = new EventBus((error) => this.#log.error("an engine observer threw", { error }));
    const { config } = options;
    // The audit trail observes first: a decision is on disk before anything else sees it.
    this.audit = new AuditTrail(config.audit, this.#log, () => ({ instanceId: this.instanceId, configVersion: this.#configVersion }));
    this.bus.subscribe(this.audit.observe);
    this.bus.subscribe(this.metrics.observe);
    for (const observer of options.observers ?? []) this.bus.subscribe(observer);
    this.#servers = new Servers(config, this.#log);
    this.#plugins = new PluginSet({ log: this.#log, daemonVersion: DAEMON_VERSION, manifestDir: stateDir(config, options.configPath) });
    this.#store = new SessionStore(storeLimits(config), this.#sessionDeps(config));
  }

  /** Loads plugins, binds every listener and reports SERVING. Cleans up if any step fails. */
  static async start(options: DaemonOptions): Promise<Daemon> {
    const daemon = new Daemon(options, await Telemetry.start(options.config, options.log));
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

  /** The digest of the config in force (config/instance.ts); changes with every reload that changes it. */
  get configVersion(): string {
    return this.#configVersion;
  }

  /** Incremented by every applied reload. */
  get configGeneration(): number {
    return this.#generation;
  }

  get configPath(): string | undefined {
    return this.#options.configPath;
  }

  get addresses(): readonly string[] {
    return this.#servers.addresses;
  }

  get health(): HealthState {
    return this.#servers.health;
  }

  get streams(): StreamTracker {
    return this.#servers.streams;
  }

  /** Open `hookd tail` streams, ended like hosted-loop streams on stop. */
  get tails(): StreamTracker {
    return this.#servers.tails;
  }

  get sessions(): SessionStore {
    return this.#store;
  }

  get sources(): readonly PluginSource[] {
    return this.#plugins.sources;
  }

  /** The registry in force; a running point keeps the one it started with. */
  readonly registry = (): PluginRegistry => this.#plugins.registry();

  async #start(): Promise<void> {
    const { config } = this.#options;
    this.#plugins.sweepLeftovers();
    await this.#plugins.load(config);
    const identities = (this.#identities = new SwappableIdentities(new AgentIdentities(config.access.tokens)));
    const evaluate = new EvaluateService({
      registry: this.registry,
      bus: this.bus,
      identities,
      store: this.#store,
      limits: () => evaluateLimits(this.#config),
      admission: this.admission,
      tracing: this.#telemetry.tracing,
      retries: this.retries,
    });
    const admin = {
      status: () => ({
        version: DAEMON_VERSION,
        startedAt: this.startedAt,
        agentsConnected: this.#servers.agentsConnected(this.#store),
        sessionsOpen: this.#store.size,
        listeners: this.#servers.addresses,
        configPath: this.configPath,
        configGeneration: this.#generation,
        instanceId: this.instanceId,
        configVersion: this.#configVersion,
      }),
      plugins: () => this.#plugins.statuses(),
      metrics: this.metrics,
      audit: this.audit,
      // `hookd reload` (ExecReload) does what SIGHUP does: `systemctl reload` must reopen the audit log.
      reload: () => {
        this.reopenAudit();
        return this.reload();
      },
    };
    const served = { store: this.#store, identities, evaluate, admission: this.admission, admin, metrics: () => this.#telemetry.exposition(renderMetrics(this.metrics, this.#gauges())), bypassesAgentPermissions: agentPermissionBypass(() => this.#config), facts: this.#plugins.sessionFacts, registry: this.registry, instanceId: this.instanceId };
    await this.#servers.start(served, this.#options.inherited ?? []);
    this.#log.info("hookd serving", { version: DAEMON_VERSION, configVersion: this.#configVersion, listeners: this.addresses, config: this.configPath ?? "(embedded default)", audit: this.audit.path ?? "(none)" });
  }

  #gauges(): Parameters<typeof renderMetrics>[1] {
    return {
      agentsConnected: this.#servers.agentsConnected(this.#store),
      sessionsOpen: this.#store.size,
      streamsOpen: this.streams.size, evaluateStreamsOpen: this.#servers.evaluateStreams.size,
      plugins: this.#plugins.statuses(),
      configGeneration: this.#generation,
      reloads: this.#reloads,
      auditRecords: this.audit.records,
      auditWriteErrors: this.audit.writeErrors,
      startedAt: this.startedAt,
      evaluateRefused: this.admission.refused, admission: { limit: this.admission.limit, inflight: this.admission.inflight, admitted: this.admission.admitted, ...this.admission.latency },
      connectionsRefused: this.#servers.connectionsRefused,
      instanceId: this.instanceId,
      configVersion: this.#configVersion,
      evaluateRetries: this.retries.answered,
    };
  }

  /** Plugins not described (yet) and the fallback they gate by, for readiness and `hookd admin plugins`. */
  fallbacks(): { readonly plugin: string; readonly subscriptions: string }[] {
    return this.#plugins.statuses().flatMap((p) => (p.subscriptions === undefined || p.subscriptions === "described" ? [] : [{ plugin: p.name, subscriptions: p.subscriptions }]));
  }

  /** Resolves once every `required` plugin can answer (readiness for systemd); rejects when `signal` aborts. */
  whenReady(signal: AbortSignal): Promise<void> {
    return this.#plugins.whenReady(() => this.#config.plugins.filter((p) => p.required).map((p) => p.name), signal);
  }

  /**
   * Re-reads the config file and applies it without dropping agents: plugins whose entry is
   * unchanged keep running; changed and removed ones are closed once their in-flight calls
   * finished; new ones are loaded first (a plugin that fails to load refuses the whole reload).
   * An invalid config is refused, logged with every problem, and the running one kept.
   */
  /** Reopens the audit log (after logrotate moved it); a failure is logged, the old file kept. */
  reopenAudit(): void {
    try {
      this.audit.reopen();
    } catch (error) {
      this.#log.error("audit log reopen failed", { error });
    }
  }

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
      return refuse(isConfigError(error) ? error.details.problems.map((p) => `${error.details.source}: ${p}`) : [String(error)]);
    }
    const current = this.#config;
    let identities: AgentIdentities;
    let prepared: PreparedPlugins;
    try {
      identities = new AgentIdentities(next.access.tokens);
      prepared = await this.#plugins.prepare(current.plugins, next);
    } catch (error) {
      return refuse([error instanceof Error ? error.message : String(error)]);
    }
    this.#config = { ...next, listeners: current.listeners, admin: current.admin, metrics: current.metrics, console: current.console, http: current.http, workers: current.workers };
    this.#plugins.apply(prepared, next.defaults.pointBudgetMs);
    this.#identities?.replace(identities);
    this.#store.reconfigure(storeLimits(next), this.#sessionDeps(next));
    this.audit.reconfigure(next.audit);
    this.#configVersion = configVersion(this.#config);
    this.#generation++;
    this.#reloads.applied++;
    const restart = restartOnlyChanges(current, next);
    if (restart.length > 0) this.#log.warn("config changes that need a restart were not applied", { keys: restart });
    const { plan } = prepared;
    this.#log.info("config reloaded", { generation: this.#generation, configVersion: this.#configVersion, kept: plan.keep, loaded: plan.load.map((p) => p.name), retired: plan.retire, shadow: [...prepared.shadows] });
    return { applied: true, error: "", configGeneration: this.#generation };
  }

  #sessionDeps(config: Config): ReturnType<typeof sessionDeps> {
    return sessionDeps(config, { registry: this.registry, bus: this.bus, log: this.#log, tracing: this.#telemetry.tracing });
  }

  /**
   * Graceful stop: report NOT_SERVING, end hosted-loop streams with UNAVAILABLE (retryable) so
   * agents reconnect elsewhere or later, let in-flight unary calls finish within `graceMs`, then
   * force the rest; end every open session (session-end with DAEMON_STOPPING, each bounded by
   * defaults.sessionEndBudgetMs) while its plugins still run; then stop the plugins.
   */
  stop(graceMs = 5_000): Promise<void> {
    this.#stopping ??= this.#stop(graceMs);
    return this.#stopping;
  }

  async #stop(graceMs: number): Promise<void> {
    await this.#servers.stop(graceMs, this.#config.limits.drainDelayMs);
    await this.#store.closeAll("hookd is stopping", "daemon_stopping");
    await this.#plugins.close();
    await this.#telemetry.stop();
    this.audit.close();
    this.#log.info("hookd stopped");
  }
}
