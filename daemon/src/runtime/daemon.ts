// The composition root: from a validated config to a serving daemon. Loads the plugins, keeps the
// frozen registry (rebuilt and swapped whole when a plugin's listeners change), serves HookHost
// and health on every listener, and stops gracefully. Each concern it wires lives elsewhere.
import { Server } from "@grpc/grpc-js";
import { HookdError } from "@hookd/sdk";
import type { Config } from "../config/schema.js";
import { EventBus } from "../engine/events.js";
import type { EngineObserver } from "../engine/events.js";
import { PluginRegistry } from "../engine/registry.js";
import { WorkerPool } from "../engine/worker/index.js";
import { EvaluateService } from "../host/evaluate.js";
import { HealthState } from "../host/health.js";
import { StreamTracker, addHostService } from "../host/host-service.js";
import type { HostedSessionDeps } from "../host/hosted-session.js";
import { AgentIdentities } from "../host/identity.js";
import { bindListener } from "../host/listeners.js";
import { SessionStore } from "../host/session-store.js";
import type { Logger } from "../ops/log.js";
import { loadPlugin } from "./load-plugins.js";
import type { LoadContext, OtherKindLoader } from "./load-plugins.js";
import type { PluginSource } from "./plugin-source.js";

export const DAEMON_VERSION = "0.1.0";

export interface DaemonOptions {
  readonly config: Config;
  /** The config file, or undefined for the embedded default. */
  readonly configPath: string | undefined;
  readonly log: Logger;
  /** Remote, managed and command plugins. */
  readonly loadOther?: OtherKindLoader;
  /** Extra observers of every engine event (audit, metrics, tests). */
  readonly observers?: readonly EngineObserver[];
}

const unsupported: OtherKindLoader = async (plugin) => {
  throw new HookdError("invalid_plugin", `plugin ${plugin.name}: kind "${plugin.kind}" is not available in this build`);
};

export class Daemon {
  readonly bus: EventBus;
  readonly health = new HealthState();
  readonly streams = new StreamTracker();
  readonly startedAt = Date.now();
  readonly #options: DaemonOptions;
  readonly #log: Logger;
  readonly #server: Server;
  readonly #store: SessionStore;
  #sources: readonly PluginSource[] = [];
  #registry = PluginRegistry.EMPTY;
  #pool: WorkerPool | undefined;
  #addresses: string[] = [];
  #stopping: Promise<void> | undefined;

  private constructor(options: DaemonOptions) {
    this.#options = options;
    this.#log = options.log;
    this.bus = new EventBus((error) => this.#log.error("an engine observer threw", { error }));
    for (const observer of options.observers ?? []) this.bus.subscribe(observer);
    const { config } = options;
    this.#server = new Server({
      "grpc.max_receive_message_length": config.limits.maxMessageBytes,
      "grpc.max_send_message_length": config.limits.maxMessageBytes,
    });
    this.#store = new SessionStore(this.#storeLimits(config), this.#sessionDeps(config));
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
    return this.#options.config;
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

  async #start(): Promise<void> {
    const { config } = this.#options;
    const context: LoadContext = {
      defaultDeadlineMs: config.defaults.deadlineMs,
      workerPool: () => (this.#pool ??= new WorkerPool({ size: config.workers.size, onError: (error) => this.#log.error("worker pool error", { error }) })),
    };
    const sources: PluginSource[] = [];
    this.#sources = sources;
    for (const plugin of config.plugins) {
      sources.push(await loadPlugin(plugin, context, this.#options.loadOther ?? unsupported));
    }
    for (const source of sources) source.onChange(() => this.#rebuildRegistry());
    this.#rebuildRegistry();

    const identities = new AgentIdentities(config.access.tokens);
    const evaluate = new EvaluateService({
      registry: this.registry,
      bus: this.bus,
      identities,
      store: this.#store,
      limits: () => ({
        pointBudgetMs: config.defaults.pointBudgetMs,
        maxSteeredContinuations: config.limits.maxSteeredContinuations,
        maxInflightPerAgent: config.limits.maxInflightPerAgent,
      }),
    });
    addHostService(this.#server, { store: this.#store, identities, evaluate, log: this.#log, streams: this.streams });
    this.health.register(this.#server);
    for (const listener of config.listeners) this.#addresses.push(await bindListener(this.#server, listener));
    for (const service of ["", "hookd.v1.HookHost"]) this.health.set(service, true);
    this.#log.info("hookd serving", { version: DAEMON_VERSION, listeners: this.#addresses, config: this.configPath ?? "(embedded default)" });
  }

  #rebuildRegistry(): void {
    const registry = new PluginRegistry(this.#sources.flatMap((source) => source.listeners()));
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
    this.streams.endAll("hookd is shutting down; reconnect and resume");
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#server.forceShutdown();
        resolve();
      }, graceMs);
      this.#server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.#store.closeAll("hookd stopped");
    await Promise.allSettled(this.#sources.map((source) => source.close()));
    await this.#pool?.close();
    this.#log.info("hookd stopped");
  }
}
