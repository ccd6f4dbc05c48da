// RemotePlugin: one out-of-process plugin reached over gRPC, as the engine sees it. Connects,
// checks grpc.health.v1, calls Describe, and yields one Listener (kind "remote") per subscribed
// point. Tracks the plugin's health: consecutive failures eject it (its calls then fail fast as
// "ejected" and go through the failure policy), and a background probe with exponential backoff
// re-admits it once the health service says SERVING again. Owns health, listeners and status;
// the wire is connection.ts, and a process behind the socket is the ManagedPlugin's.
//
// How the daemon learns about changes: `listeners()` is the plugin's current set, and
// `onChange(cb)` fires whenever it is replaced: when a plugin unreachable at start is described
// for the first time, and when a re-admitted or restarted plugin describes a different manifest.
// The daemon then rebuilds its frozen PluginRegistry from every plugin's `listeners()` and swaps
// it (see `liveRegistry` in ../index.ts); calls in flight keep the chain they started with.
import { setTimeout as delay } from "node:timers/promises";
import type { ChannelCredentials, ChannelOptions } from "@grpc/grpc-js";
import { credentials } from "@grpc/grpc-js";
import type { PointName } from "@hookd/sdk";
import { CallContext } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import { PluginFault } from "../../engine/faults.js";
import type { FaultCause } from "../../engine/faults.js";
import { DEFAULT_DEADLINE_MS } from "../../engine/listener.js";
import type { ContextOf, EventOf, Listener } from "../../engine/listener.js";
import type { Logger } from "../../log.js";
import { silentLogger } from "../../log.js";
import { RemoteConnection, RpcFailure } from "./connection.js";
import { configSettings, manifestSettings, sameManifest } from "./manifest.js";
import type { ListenerSettings, PointOverrides, RemoteManifest } from "./manifest.js";
import { CallStats } from "./stats.js";
import type { CallCounters } from "./stats.js";
import { channelOptions } from "./target.js";
import type { BackoffPolicy } from "./target.js";

/**
 * starting: connecting (or a managed process is starting); serving: calls go out;
 * ejected: repeated failures, calls fail fast until the probe sees SERVING;
 * unavailable: not reachable (or its process is down), calls fail fast while it is probed.
 */
export type PluginHealth = "starting" | "serving" | "ejected" | "unavailable";

export interface HealthPolicy extends BackoffPolicy {
  /** Consecutive failed calls after which the plugin is ejected until healthy again. */
  readonly ejectAfterFailures: number;
}

export const DEFAULT_HEALTH_POLICY: HealthPolicy = Object.freeze({ ejectAfterFailures: 5, initialBackoffMs: 100, maxBackoffMs: 10_000 });

/** What the admin service reports about a plugin (hookd.v1.PluginStatus, plus a few extras). */
export interface PluginStatus extends CallCounters {
  readonly name: string;
  readonly kind: "remote" | "managed";
  readonly target: string;
  readonly health: PluginHealth;
  /** The points its listeners are at (from the manifest, or from the config until described). */
  readonly points: readonly PointName[];
  /** The manifest's own name and version, once described. */
  readonly manifest?: { readonly name: string; readonly version: string };
  readonly restarts: number;
  readonly lastError?: string;
  /** The managed process, while one runs. */
  readonly pid?: number;
}

export interface HealthChange {
  readonly plugin: string;
  readonly health: PluginHealth;
  readonly previous: PluginHealth;
  readonly reason: string;
}

/** What the daemon needs of any out-of-process plugin runtime. */
export interface PluginRuntime {
  readonly name: string;
  /** Connects (or spawns) and describes; never rejects: an unreachable plugin keeps being probed. */
  start(): Promise<void>;
  /** The current listeners; replaced as a whole, announced by onChange. */
  listeners(): readonly Listener[];
  /** Called after listeners() changed. Returns an unsubscribe function. */
  onChange(callback: () => void): () => void;
  onHealth(callback: (change: HealthChange) => void): () => void;
  status(): PluginStatus;
  /** Stops probing (and the process, for managed plugins); later calls fail fast as unavailable. */
  close(): Promise<void>;
}

export interface RemotePluginOptions {
  /** The configured name: listeners, faults and audit records use it. */
  readonly name: string;
  /** "unix:///abs/path", "unix:/abs/path" or "host:port". */
  readonly target: string;
  /** Default insecure (Unix sockets, loopback); see channelCredentials() for TLS and mTLS. */
  readonly credentials?: ChannelCredentials;
  /** Extra grpc-js channel options (e.g. the TLS server name override). */
  readonly channelOptions?: ChannelOptions;
  /** The config's per-point overrides; before the plugin is described they name its points. */
  readonly overrides?: PointOverrides;
  readonly defaultDeadlineMs?: number;
  readonly health?: Partial<HealthPolicy>;
  /** Deadline of one health check or Describe, in milliseconds. */
  readonly probeTimeoutMs?: number;
  /** Sent in DescribeRequest. */
  readonly daemonVersion?: string;
  readonly log?: Logger;
  /** Set by ManagedPlugin: reported kind, and no probing of its own while the process is down. */
  readonly managed?: {
    /**
     * Asked when a call fails as UNAVAILABLE: resolves true when the process behind the socket
     * died (the call is then "crashed"). The dropped connection usually arrives just before the
     * exit, so this may wait briefly for it.
     */
    readonly crashed: () => Promise<boolean>;
  };
}

export class RemotePlugin implements PluginRuntime {
  readonly name: string;
  readonly target: string;
  readonly #credentials: ChannelCredentials;
  readonly #channelOptions: ChannelOptions;
  readonly #overrides: PointOverrides;
  readonly #defaultDeadlineMs: number;
  readonly #policy: HealthPolicy;
  readonly #probeTimeoutMs: number;
  readonly #daemonVersion: string;
  readonly #log: Logger;
  readonly #managed: RemotePluginOptions["managed"];
  readonly #stats = new CallStats();
  readonly #changeCallbacks = new Set<() => void>();
  readonly #healthCallbacks = new Set<(change: HealthChange) => void>();

  #conn: RemoteConnection | undefined;
  #health: PluginHealth = "starting";
  #manifest: RemoteManifest | undefined;
  #listeners: readonly Listener[];
  #lastError: string | undefined;
  #restarts = 0;
  #pid: number | undefined;
  /** Ejections since the last usable answer: each one starts the probe at a longer delay. */
  #ejections = 0;
  #probe: AbortController | undefined;
  /** Bumped by suspend() and close(): an admission that started before is discarded. */
  #epoch = 0;
  #closed = false;

  constructor(options: RemotePluginOptions) {
    this.name = options.name;
    this.target = options.target;
    this.#policy = { ...DEFAULT_HEALTH_POLICY, ...options.health };
    this.#credentials = options.credentials ?? credentials.createInsecure();
    this.#channelOptions = { ...channelOptions(this.#policy), ...options.channelOptions };
    this.#overrides = options.overrides ?? {};
    this.#defaultDeadlineMs = options.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS;
    this.#probeTimeoutMs = options.probeTimeoutMs ?? 2_000;
    this.#daemonVersion = options.daemonVersion ?? "";
    this.#managed = options.managed;
    this.#log = (options.log ?? silentLogger).child({ plugin: this.name, target: this.target });
    this.#listeners = this.#build(configSettings(this.#overrides, this.#defaultDeadlineMs));
  }

  get health(): PluginHealth {
    return this.#health;
  }

  /** The last valid manifest, once described. */
  get manifest(): RemoteManifest | undefined {
    return this.#manifest;
  }

  /**
   * One attempt to connect and describe. On failure the plugin is "unavailable": its
   * config-declared points fail fast as "unavailable", and a background probe keeps trying with
   * backoff; onChange announces the listeners once it is described.
   */
  async start(): Promise<void> {
    if (this.#closed || this.#probe !== undefined) return;
    const controller = new AbortController(); // close() aborts it like a probe
    this.#probe = controller;
    const why = await this.#attempt(controller.signal);
    if (this.#probe === controller) this.#probe = undefined;
    if (why === undefined || this.#closed || controller.signal.aborted) return;
    this.#fail(why);
    this.#setHealth("unavailable", why);
    if (!this.#managed) this.#startProbe(this.#policy.initialBackoffMs);
  }

  listeners(): readonly Listener[] {
    return this.#listeners;
  }

  onChange(callback: () => void): () => void {
    this.#changeCallbacks.add(callback);
    return () => this.#changeCallbacks.delete(callback);
  }

  onHealth(callback: (change: HealthChange) => void): () => void {
    this.#healthCallbacks.add(callback);
    return () => this.#healthCallbacks.delete(callback);
  }

  status(): PluginStatus {
    return {
      name: this.name,
      kind: this.#managed ? "managed" : "remote",
      target: this.target,
      health: this.#health,
      points: this.#listeners.map((listener) => listener.point),
      ...(this.#manifest === undefined ? {} : { manifest: { name: this.#manifest.name, version: this.#manifest.version } }),
      ...this.#stats.snapshot(),
      restarts: this.#restarts,
      ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }),
      ...(this.#pid === undefined ? {} : { pid: this.#pid }),
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#disconnect();
    this.#lastError = "the plugin was stopped";
    this.#setHealth("unavailable", "stopped");
  }

  // ---- for ManagedPlugin ---------------------------------------------------------------------

  /**
   * Probes with backoff until the plugin is healthy and described (true), or until `timeoutMs`
   * passes or `signal` aborts (false). Replaces a running background probe.
   */
  async admit(options: { readonly signal: AbortSignal; readonly timeoutMs: number }): Promise<boolean> {
    if (this.#closed) return false;
    this.#probe?.abort();
    this.#probe = undefined;
    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
    // Start-up polls stay frequent: a freshly spawned process binds its socket within moments.
    return this.#probeLoop(signal, this.#policy.initialBackoffMs, Math.min(this.#policy.maxBackoffMs, 1_000));
  }

  /**
   * The process behind the socket is gone (or being replaced): drop the channel, stop probing,
   * and fail calls fast as "unavailable" until the next admit(). `reason` becomes the last
   * error unless the plugin is merely (re)starting.
   */
  suspend(reason: string, health: "unavailable" | "starting" = "unavailable"): void {
    if (this.#closed) return;
    this.#disconnect();
    if (health === "unavailable") this.#lastError = reason;
    this.#setHealth(health, reason);
  }

  /** Process facts a ManagedPlugin reports through status(). */
  noteProcess(facts: { readonly pid?: number; readonly restarted?: boolean }): void {
    this.#pid = facts.pid;
    if (facts.restarted === true) this.#restarts++;
  }

  // ---- calls ---------------------------------------------------------------------------------

  #build(settings: readonly ListenerSettings[]): readonly Listener[] {
    return Object.freeze(
      settings.map((s): Listener => {
        const { point, deadlineMs } = s;
        return Object.freeze({
          plugin: this.name,
          point,
          kind: "remote",
          priority: s.priority,
          matches: s.matches,
          deadlineMs,
          failurePolicy: s.failurePolicy,
          sideEffectFree: s.sideEffectFree,
          call: (event: EventOf<PointName>, ctx: ContextOf<PointName>) => this.#call(point, deadlineMs, event, CallContext.cancellationOf(ctx)),
        });
      }),
    );
  }

  /** Every failure is a PluginFault, so the listener's failure policy decides. */
  async #call(point: PointName, deadlineMs: number, event: EventOf<PointName>, signal: Cancellation): Promise<unknown> {
    this.#stats.called();
    const conn = this.#conn;
    if (this.#health !== "serving" || conn === undefined) {
      this.#stats.failedFast();
      throw this.#failFast(point);
    }
    const started = performance.now();
    try {
      const answer = await conn.call(point, event, deadlineMs, signal);
      this.#stats.sample(performance.now() - started);
      this.#stats.succeeded();
      this.#ejections = 0;
      return answer;
    } catch (error) {
      this.#stats.sample(performance.now() - started);
      const failure = error instanceof RpcFailure ? error : new RpcFailure("error_status", String(error));
      if (failure.byCaller) {
        this.#stats.cancelledByCaller();
        throw new PluginFault(this.name, point, failure.fault, failure.message);
      }
      const crashed = failure.fault === "unavailable" && this.#managed !== undefined && (await this.#managed.crashed());
      const cause: FaultCause = crashed ? "crashed" : failure.fault;
      const fault = new PluginFault(this.name, point, cause, failure.message);
      this.#fail(`${point}: ${cause.replace(/_/g, " ")}: ${failure.message}`);
      const consecutive = this.#stats.failed();
      if (consecutive >= this.#policy.ejectAfterFailures && this.#health === "serving") this.#eject(consecutive);
      throw fault;
    }
  }

  #failFast(point: PointName): PluginFault {
    const last = this.#lastError === undefined ? "" : ` (last error: ${this.#lastError})`;
    if (this.#health === "ejected") {
      return new PluginFault(this.name, point, "ejected", `ejected after repeated failures until its health check passes${last}`);
    }
    return new PluginFault(this.name, point, "unavailable", `${this.target} is ${this.#health}${last}`);
  }

  #eject(consecutive: number): void {
    this.#ejections++;
    this.#setHealth("ejected", `${consecutive} consecutive failures`);
    const first = Math.min(this.#policy.maxBackoffMs, this.#policy.initialBackoffMs * 2 ** Math.min(this.#ejections - 1, 30));
    this.#startProbe(first);
  }

  // ---- admission -----------------------------------------------------------------------------

  #connection(): RemoteConnection {
    this.#conn ??= new RemoteConnection(this.target, this.#credentials, this.#channelOptions);
    return this.#conn;
  }

  #disconnect(): void {
    this.#epoch++;
    this.#probe?.abort();
    this.#probe = undefined;
    this.#conn?.close();
    this.#conn = undefined;
  }

  /** One health check and Describe; resolves with why it failed, or undefined once serving. */
  async #attempt(signal: AbortSignal): Promise<string | undefined> {
    const epoch = this.#epoch;
    const conn = this.#connection();
    const unhealthy = await conn.unhealthy(this.#probeTimeoutMs, signal);
    if (unhealthy !== undefined) return unhealthy;
    let manifest: RemoteManifest;
    try {
      manifest = await conn.describe(this.#probeTimeoutMs, signal, this.#daemonVersion);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.#log.error("plugin manifest refused", { error: message });
      return message;
    }
    if (epoch !== this.#epoch || this.#closed || signal.aborted) return "superseded";
    this.#install(manifest);
    this.#stats.resetConsecutive();
    this.#setHealth("serving", "healthy and described");
    return undefined;
  }

  #startProbe(firstDelayMs: number): void {
    if (this.#probe !== undefined || this.#closed) return;
    const controller = new AbortController();
    this.#probe = controller;
    void (async () => {
      if (await sleep(firstDelayMs, controller.signal)) await this.#probeLoop(controller.signal, this.#policy.initialBackoffMs, this.#policy.maxBackoffMs);
      if (this.#probe === controller) this.#probe = undefined;
    })();
  }

  /** Never throws; false when the signal aborted first. */
  async #probeLoop(signal: AbortSignal, firstDelayMs: number, maxDelayMs: number): Promise<boolean> {
    let wait = firstDelayMs;
    const epoch = this.#epoch;
    for (;;) {
      if (signal.aborted || this.#closed || epoch !== this.#epoch) return false;
      let why: string | undefined;
      try {
        why = await this.#attempt(signal);
      } catch (error) {
        why = error instanceof Error ? error.message : String(error);
      }
      if (why === undefined) return true;
      if (signal.aborted || epoch !== this.#epoch) return false;
      this.#fail(why);
      this.#log.debug("plugin probe failed", { error: why, retryInMs: wait });
      if (!(await sleep(wait, signal))) return false;
      wait = Math.min(wait * 2, maxDelayMs);
    }
  }

  #install(manifest: RemoteManifest): void {
    if (sameManifest(this.#manifest, manifest)) return;
    const { settings, ignored } = manifestSettings(manifest, this.#overrides, this.#defaultDeadlineMs);
    if (ignored.length > 0) this.#log.warn("config overrides points the plugin does not subscribe to; ignored", { points: ignored });
    if (manifest.name !== this.name) this.#log.info("plugin describes itself under another name; the configured name is used", { manifestName: manifest.name });
    this.#manifest = manifest;
    this.#listeners = this.#build(settings);
    this.#log.info("plugin described", {
      version: manifest.version,
      points: settings.map((s) => `${s.point}@${s.priority}`),
    });
    for (const callback of this.#changeCallbacks) this.#notify(() => callback());
  }

  // ---- bookkeeping ---------------------------------------------------------------------------

  #fail(message: string): void {
    this.#lastError = message;
  }

  #setHealth(health: PluginHealth, reason: string): void {
    const previous = this.#health;
    if (previous === health) return;
    this.#health = health;
    const fields = { health, previous, reason };
    if (health === "serving" || health === "starting") this.#log.info("plugin health changed", fields);
    else this.#log.warn("plugin health changed", { ...fields, ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }) });
    const change: HealthChange = { plugin: this.name, health, previous, reason };
    for (const callback of this.#healthCallbacks) this.#notify(() => callback(change));
  }

  #notify(run: () => void): void {
    try {
      run();
    } catch (error) {
      this.#log.error("plugin change callback threw", { error });
    }
  }
}

/** Resolves true after `ms`, false when `signal` aborts first (backoff waits that a close ends). */
export async function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}
