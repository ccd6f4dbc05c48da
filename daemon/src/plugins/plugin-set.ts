// What a config reload changes and how retired plugins are let go: the plugin plan (unchanged
// entries keep their running source, compared deeply; changed and removed ones are retired; new
// ones are loaded), in-flight call counts per source so a retired plugin is closed only after its
// calls finished, the settings that need a restart, agent identities that can be swapped under
// running services, and the wait for required plugins. The daemon applies the plan
// (runtime/daemon.ts).
import { isDeepStrictEqual } from "node:util";
import type { Metadata } from "@grpc/grpc-js";
import type { Config, PluginConfig } from "../config/schema.js";
import type { Listener } from "../engine/listener.js";
import { isThenable } from "../engine/invoke.js";
import { HookdError } from "@hookd/sdk";
import { AgentIdentities } from "../host/identity.js";
import type { PluginSource } from "./source.js";
import type { Logger } from "../log.js";

/** How long a retired plugin's calls may run past its deadlines before it is closed anyway. */
export const RETIRE_GRACE_MS = 1_000;

export interface PluginPlan {
  /** Names whose config entry is deeply equal: their sources keep running. */
  readonly keep: readonly string[];
  /** Names removed or changed: their old sources are closed once drained. */
  readonly retire: readonly string[];
  /** Entries added or changed: loaded before the swap. */
  readonly load: readonly PluginConfig[];
}

export function planPlugins(current: readonly PluginConfig[], next: readonly PluginConfig[]): PluginPlan {
  const before = new Map(current.map((plugin) => [plugin.name, plugin]));
  const keep: string[] = [];
  const load: PluginConfig[] = [];
  for (const plugin of next) {
    const old = before.get(plugin.name);
    if (old !== undefined && isDeepStrictEqual(old, plugin)) keep.push(plugin.name);
    else load.push(plugin);
  }
  const retire = current.filter((plugin) => !keep.includes(plugin.name)).map((plugin) => plugin.name);
  return { keep, retire, load };
}

/** Top-level settings a reload cannot apply to a running process; a change is logged, not applied. */
export function restartOnlyChanges(current: Config, next: Config): string[] {
  const keys = ["listeners", "admin", "metrics", "http", "workers"] as const;
  const changed: string[] = keys.filter((key) => !isDeepStrictEqual(current[key], next[key]));
  if (current.limits.maxMessageBytes !== next.limits.maxMessageBytes) changed.push("limits.maxMessageBytes");
  return changed;
}

/**
 * Calls in flight per plugin source. The daemon builds its registry from tracked listeners, so
 * a retired source can wait for its own calls to finish before it is closed.
 */
export class InflightCalls {
  readonly #counts = new WeakMap<PluginSource, { n: number; idle: (() => void)[] }>();

  #entry(source: PluginSource): { n: number; idle: (() => void)[] } {
    let entry = this.#counts.get(source);
    if (entry === undefined) this.#counts.set(source, (entry = { n: 0, idle: [] }));
    return entry;
  }

  /** The source's listeners, each counting its calls while they run. */
  listeners(source: PluginSource): Listener[] {
    const entry = this.#entry(source);
    const done = (): void => {
      if (--entry.n === 0) for (const wake of entry.idle.splice(0)) wake();
    };
    return source.listeners().map((listener) => ({
      ...listener,
      call: (event, ctx) => {
        entry.n++;
        let answer: unknown;
        try {
          answer = listener.call(event, ctx);
        } catch (error) {
          done();
          throw error;
        }
        if (isThenable(answer)) return Promise.resolve(answer).finally(done);
        done();
        return answer;
      },
    }));
  }

  count(source: PluginSource): number {
    return this.#counts.get(source)?.n ?? 0;
  }

  /** Resolves when the source has no call in flight, or after `timeoutMs`; true when drained. */
  drained(source: PluginSource, timeoutMs: number): Promise<boolean> {
    const entry = this.#entry(source);
    if (entry.n === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        entry.idle.splice(entry.idle.indexOf(wake) >>> 0, 1);
        resolve(false);
      }, timeoutMs);
      timer.unref();
      entry.idle.push(wake);
    });
  }
}

/**
 * Agent identities the host and evaluate services hold once and a reload can replace: every call
 * resolves against the tokens in force when it arrives.
 */
export class SwappableIdentities extends AgentIdentities {
  #current: AgentIdentities;

  constructor(initial: AgentIdentities) {
    super([]);
    this.#current = initial;
  }

  replace(next: AgentIdentities): void {
    this.#current = next;
  }

  override get requiresToken(): boolean {
    return this.#current.requiresToken;
  }

  override resolve(metadata: Metadata, declared = ""): string {
    return this.#current.resolve(metadata, declared);
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

/**
 * Resolves once `waiting()` (the required plugins not ready yet) is empty, checking every 100 ms;
 * rejects when `signal` aborts. Readiness for systemd waits on it.
 */
export function requiredPluginsReady(waiting: () => string[], log: Logger, signal: AbortSignal): Promise<void> {
  if (waiting().length === 0) return Promise.resolve();
  log.info("waiting for required plugins", { plugins: waiting() });
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (waiting().length > 0) return;
      clearInterval(timer);
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, 100);
    const onAbort = (): void => {
      clearInterval(timer);
      reject(new HookdError("unavailable", `required plugins not ready: ${waiting().join(", ")}`));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
