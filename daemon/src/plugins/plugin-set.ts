// The set of loaded plugin sources and the frozen registry built from them. Builds the set from
// a config, plans a reload (unchanged entries keep their running source, compared deeply, unless
// their module file changed; changed and removed ones are retired; new ones are loaded before
// the swap), applies it by swapping in a
// new registry whole (a running point keeps the chain it started with), closes retired sources
// once their in-flight calls finished, waits for required plugins, and records managed plugin
// processes so a later daemon can sweep what a killed one left. A plugin's `mode` (enforce or
// shadow) is not part of what makes an entry "changed": a reload that only flips it keeps the
// running source and marks its listeners in the new registry. Owns no other config: the
// daemon applies the rest of a reload (runtime/daemon.ts).
import { isDeepStrictEqual } from "node:util";
import { runtimeDir } from "../config/load.js";
import { configuredBudgets } from "../config/budgets.js";
import type { Config, PluginConfig } from "../config/schema.js";
import type { Listener, ListenerMode } from "../engine/listener.js";
import { PluginRegistry } from "../engine/registry.js";
import { SessionFacts } from "../engine/session-facts.js";
import type { Logger } from "../log.js";
import { InflightCalls } from "./inflight.js";
import { loadPlugin } from "./load.js";
import type { LoadContext } from "./load.js";
import { requiredPluginsReady } from "./required.js";
import { ProcessLedger, sweepLeftovers } from "./managed/ledger.js";
import { ManifestStore } from "./remote/manifest-store.js";
import type { PluginSource, PluginStatus } from "./source.js";
import { WorkerPool } from "./worker/index.js";

/** How long a retired plugin's calls may run past its deadlines before it is closed anyway. */
export const RETIRE_GRACE_MS = 1_000;

export interface PluginPlan {
  /** Names whose config entry is deeply equal and whose code did not change: their sources keep running. */
  readonly keep: readonly string[];
  /** Names removed or changed: their old sources are closed once drained. */
  readonly retire: readonly string[];
  /** Entries added or changed: loaded before the swap. */
  readonly load: readonly PluginConfig[];
}

/** `codeChanged(name)`: the running plugin's module file changed on disk (PluginSource.codeChanged). */
export function planPlugins(current: readonly PluginConfig[], next: readonly PluginConfig[], codeChanged: (name: string) => boolean = () => false): PluginPlan {
  const before = new Map(current.map((plugin) => [plugin.name, plugin]));
  const keep: string[] = [];
  const load: PluginConfig[] = [];
  for (const plugin of next) {
    const old = before.get(plugin.name);
    if (old !== undefined && isDeepStrictEqual(withoutMode(old), withoutMode(plugin)) && !codeChanged(plugin.name)) keep.push(plugin.name);
    else load.push(plugin);
  }
  const retire = current.filter((plugin) => !keep.includes(plugin.name)).map((plugin) => plugin.name);
  return { keep, retire, load };
}

/** The entry as the plan compares it: the mode is applied to the registry, never by reloading the plugin. */
function withoutMode(plugin: PluginConfig): Omit<PluginConfig, "mode"> {
  const { mode: _mode, ...rest } = plugin;
  return rest;
}

/** The names of the config's shadow plugins. */
export function shadowPlugins(plugins: readonly PluginConfig[]): ReadonlySet<string> {
  return new Set(plugins.filter((plugin) => plugin.mode === "shadow").map((plugin) => plugin.name));
}

/** A source's listeners in the mode its config entry gives them (also for `hookd check`). */
export function inMode(listeners: readonly Listener[], shadow: boolean): readonly Listener[] {
  const mode: ListenerMode = shadow ? "shadow" : "enforce";
  // Absent is enforce: an enforcing plugin's listeners are used as they are.
  return listeners.map((listener) => ((listener.mode ?? "enforce") === mode ? listener : { ...listener, mode }));
}

export interface PluginSetOptions {
  readonly log: Logger;
  /** Passed to the loader (load.ts). */
  readonly pluginSocketDir?: string;
  readonly daemonVersion?: string;
  /** Where managed plugin processes are recorded (managed/ledger.ts); default: the runtime dir. */
  readonly stateDir?: string;
  /** The daemon's state directory: remote and managed plugins' last known manifests live there. */
  readonly manifestDir?: string;
}

/** A reload's plugins, loaded and checked but not in force yet. */
export interface PreparedPlugins {
  readonly plan: PluginPlan;
  /** The sources of the next config, in its order: kept ones and the newly loaded. */
  readonly sources: readonly PluginSource[];
  readonly loaded: readonly PluginSource[];
  /** The next config's shadow plugins. */
  readonly shadows: ReadonlySet<string>;
  /** The next config leaves the point budget to its default (plugins' own needs stretch it). */
  readonly stretchBudgets: boolean;
}

export class PluginSet {
  readonly #options: PluginSetOptions;
  readonly #log: Logger;
  readonly #inflight = new InflightCalls();
  readonly #retiring = new Set<Promise<void>>();
  /** Aborted by close: retired plugins stop waiting for their drain and are closed with the rest. */
  readonly #stopped = new AbortController();
  #sources: readonly PluginSource[] = [];
  #shadows: ReadonlySet<string> = new Set();
  #stretchBudgets = false;
  #registry = PluginRegistry.EMPTY;
  /** What agents told about their sessions (the HTTP endpoint fills it): the command plugins' hooks read it. */
  readonly sessionFacts = new SessionFacts();
  #pool: WorkerPool | undefined;
  readonly #stateDir: string;
  readonly #ledger: ProcessLedger;
  readonly #manifests: ManifestStore | undefined;

  constructor(options: PluginSetOptions) {
    this.#options = options;
    this.#log = options.log;
    this.#stateDir = options.stateDir ?? runtimeDir();
    this.#manifests = options.manifestDir === undefined ? undefined : new ManifestStore(options.manifestDir, this.#log);
    this.#ledger = new ProcessLedger(this.#stateDir, (error) => this.#log.warn("cannot record managed plugin processes", { path: this.#ledger.path, error }));
  }

  /**
   * Kills managed plugin processes that a daemon no longer running left behind (it was killed
   * before it could stop them) and forgets them. Call once, before load(). Returns their pids.
   */
  sweepLeftovers(): number[] {
    return sweepLeftovers(this.#stateDir, this.#log);
  }

  get sources(): readonly PluginSource[] {
    return this.#sources;
  }

  /** The registry in force; a running point keeps the one it started with. */
  readonly registry = (): PluginRegistry => this.#registry;

  statuses(): PluginStatus[] {
    return this.#sources.map((source) => source.status());
  }

  /**
   * Loads every plugin of `config`, in order, and builds the first registry. A plugin that fails
   * to load rejects; those loaded before it stay in the set, so close() stops them.
   */
  async load(config: Config): Promise<void> {
    const context = this.#context(config);
    const sources: PluginSource[] = [];
    this.#sources = sources;
    this.#shadows = shadowPlugins(config.plugins);
    this.#stretchBudgets = config.defaults.pointBudgetIsDefault;
    for (const plugin of config.plugins) sources.push(await loadPlugin(plugin, context));
    for (const source of sources) source.onChange(() => this.#rebuildOnChange(source.name));
    this.#rebuild();
  }

  /**
   * Plans the move from `current` to `next`, loads what it adds and checks that the next sources
   * form a registry. Changes nothing in force. Rejects (after closing what it loaded) when a
   * plugin fails to load or the registry cannot be built: the whole reload is refused.
   */
  async prepare(current: readonly PluginConfig[], next: Config): Promise<PreparedPlugins> {
    const codeChanged = (name: string): boolean => this.#sources.find((source) => source.name === name)?.codeChanged?.() === true;
    const plan = planPlugins(current, next.plugins, codeChanged);
    for (const { name } of plan.load.filter((plugin) => codeChanged(plugin.name))) {
      this.#log.info("plugin module changed on disk: loading its new code (modules it imports are not reloaded)", { plugin: name });
    }
    const context = this.#context(next);
    const loaded = new Map<string, PluginSource>();
    try {
      for (const plugin of plan.load) loaded.set(plugin.name, await loadPlugin(plugin, context));
      const kept = new Map(this.#sources.map((source) => [source.name, source]));
      const sources = next.plugins.map((plugin) => loaded.get(plugin.name) ?? kept.get(plugin.name)).filter((s): s is PluginSource => s !== undefined);
      const shadows = shadowPlugins(next.plugins);
      const stretchBudgets = next.defaults.pointBudgetIsDefault;
      new PluginRegistry(sources.flatMap((source) => inMode(source.listeners(), shadows.has(source.name))), { stretchBudgets });
      return { plan, sources, loaded: [...loaded.values()], shadows, stretchBudgets };
    } catch (error) {
      await Promise.allSettled([...loaded.values()].map((source) => source.close()));
      throw error;
    }
  }

  /**
   * Swaps a prepared reload in: the next sources and a new frozen registry. Sources the plan
   * retires are closed once nothing can still call them: a point that began before the swap may
   * reach them until `pointBudgetMs` is spent, so that long and then their in-flight calls.
   */
  apply(prepared: PreparedPlugins, pointBudgetMs: number): void {
    const retired = this.#sources.filter((source) => prepared.plan.retire.includes(source.name));
    this.#sources = prepared.sources;
    this.#shadows = prepared.shadows;
    this.#stretchBudgets = prepared.stretchBudgets;
    for (const source of prepared.loaded) source.onChange(() => this.#rebuildOnChange(source.name));
    this.#rebuild();
    for (const source of retired) {
      const task = retireWhenDrained(source, { pointBudgetMs, inflight: this.#inflight, stopped: this.#stopped.signal, log: this.#log });
      this.#retiring.add(task);
      void task.finally(() => this.#retiring.delete(task));
    }
  }

  /** Resolves once every plugin `required()` names can answer; rejects when `signal` aborts. */
  whenReady(required: () => readonly string[], signal: AbortSignal): Promise<void> {
    const waiting = (): string[] => required().filter((name) => this.#sources.find((source) => source.name === name)?.ready() !== true);
    return requiredPluginsReady(waiting, this.#log, signal);
  }

  /** Closes retired sources at once, then every source, then the worker pool. */
  async close(): Promise<void> {
    this.#stopped.abort();
    await Promise.allSettled([...this.#retiring]);
    await Promise.allSettled(this.#sources.map((source) => source.close()));
    await this.#pool?.close();
  }

  #context(config: Config): LoadContext {
    const { log, pluginSocketDir, daemonVersion } = this.#options;
    return {
      defaultDeadlineMs: config.defaults.deadlineMs,
      budgets: configuredBudgets(config),
      pointBudgetIsDefault: config.defaults.pointBudgetIsDefault,
      workerPool: () => (this.#pool ??= new WorkerPool({ size: config.workers.size, onError: (error) => log.error("worker pool error", { error }) })),
      log,
      ledger: this.#ledger,
      ...(this.#manifests === undefined ? {} : { manifests: this.#manifests }),
      ...(pluginSocketDir === undefined ? {} : { pluginSocketDir }),
      ...(daemonVersion === undefined ? {} : { daemonVersion }),
      sessionFacts: this.sessionFacts,
    };
  }

  /** A plugin's listeners changed (it came up, or described another manifest): swap, or keep the old registry. */
  #rebuildOnChange(plugin: string): void {
    try {
      this.#rebuild();
    } catch (error) {
      this.#log.error("plugin registry not rebuilt; the previous one stays in force", { plugin, error });
    }
  }

  #rebuild(): void {
    const registry = new PluginRegistry(this.#sources.flatMap((source) => inMode(this.#inflight.listeners(source), this.#shadows.has(source.name))), { stretchBudgets: this.#stretchBudgets });
    this.#registry = registry;
    // The order plugins run in, per point, so an operator can see it at start and after changes;
    // a plugin not described yet is named with the fallback it is subscribed by.
    const fallbacks = new Map<string, string>();
    for (const source of this.#sources) {
      const { subscriptions } = source.status();
      if (subscriptions !== undefined && subscriptions !== "described") fallbacks.set(source.name, subscriptions);
    }
    for (const { point, plugins } of registry.describe()) {
      if (plugins.length === 0) continue;
      const fallback = Object.fromEntries(plugins.filter((name) => fallbacks.has(name)).map((name) => [name, fallbacks.get(name)]));
      this.#log.info("plugin order", { point, plugins, ...(Object.keys(fallback).length === 0 ? {} : { fallback }) });
    }
    for (const { point, shadows } of registry.describeShadows()) this.#log.info("shadow plugins (called and audited, never applied)", { point, plugins: shadows });
  }
}

export interface RetireOptions {
  /** The point budget in force: a point that began before the swap may call the plugin until it is spent. */
  readonly pointBudgetMs: number;
  readonly inflight: InflightCalls;
  /** The daemon is stopping: close at once. */
  readonly stopped: AbortSignal;
  readonly log: Logger;
}

/**
 * Closes a plugin the new config dropped or changed, once nothing can still call it: waits out
 * the point budget, then for its in-flight calls (bounded by its deadlines). Never rejects.
 */
export async function retireWhenDrained(source: PluginSource, options: RetireOptions): Promise<void> {
  const { stopped, inflight, log } = options;
  const deadline = Math.max(0, ...source.listeners().map((l) => l.deadlineMs));
  const onStop = (resolve: () => void): void => stopped.addEventListener("abort", () => resolve(), { once: true });
  try {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, options.pointBudgetMs);
      onStop(() => (clearTimeout(timer), resolve()));
    });
    const drained = await Promise.race([inflight.drained(source, deadline + RETIRE_GRACE_MS), new Promise<boolean>((resolve) => onStop(() => resolve(false)))]);
    if (!drained && !stopped.aborted) log.warn("closing a retired plugin with calls still in flight", { plugin: source.name, inflight: inflight.count(source) });
    await source.close();
    log.info("retired plugin closed", { plugin: source.name });
  } catch (error) {
    log.error("closing a retired plugin failed", { plugin: source.name, error });
  }
}
