// RemotePlugin: one out-of-process plugin reached over gRPC, as the daemon holds it (a
// PluginSource). Connects, checks grpc.health.v1, calls Describe, and yields one Listener (kind
// "remote") per subscribed point. Owns the manifest, the listeners and the status; the health
// state machine (ejection, probing, re-admission) is admission.ts's, the calls are calls.ts's, the
// wire is connection.ts, and a process behind the socket is the ManagedPlugin's.
//
// How the daemon learns about changes: `listeners()` is the plugin's current set, and
// `onChange(cb)` fires whenever it is replaced: when a plugin unreachable at start is described
// for the first time, and when a re-admitted or restarted plugin describes a different manifest.
// The plugin set then rebuilds its frozen PluginRegistry from every source's `listeners()` and
// swaps it (../plugin-set.ts); calls in flight keep the chain they started with.
import type { ChannelCredentials, ChannelOptions } from "@grpc/grpc-js";
import { credentials } from "@grpc/grpc-js";
import { DEFAULT_DEADLINE_MS } from "../../engine/listener.js";
import type { Listener } from "../../engine/listener.js";
import type { Logger } from "../../log.js";
import { silentLogger } from "../../log.js";
import type { PluginHealth, PluginStatus } from "../source.js";
import type { PluginSource } from "../source.js";
import { Admission } from "./admission.js";
import { DEFAULT_HEALTH_POLICY, notify } from "./health.js";
import type { HealthChange, HealthPolicy } from "./health.js";
import { DEFAULT_ATTACH_WINDOW } from "./attach-link.js";
import { remoteListeners } from "./calls.js";
import type { CallSite } from "./calls.js";
import { describeSource, fallbackSubscriptions } from "./fallback.js";
import type { SubscriptionSource } from "./fallback.js";
import { manifestSettings, sameManifest } from "./manifest.js";
import type { PointOverrides, RemoteManifest } from "./manifest.js";
import type { KnownManifest, ManifestStore } from "./manifest-store.js";
import { CallStats } from "./stats.js";
import type { CallCounters } from "./stats.js";
import { channelOptions } from "./target.js";

/** A remote plugin's status: the contract's, plus its call counters, manifest and process. */
export interface RemoteStatus extends PluginStatus, CallCounters {
  readonly kind: "remote" | "managed";
  /** The manifest's own name and version, once described. */
  readonly manifest?: { readonly name: string; readonly version: string };
  /** The managed process, while one runs. */
  readonly pid?: number;
  /** Where its subscriptions come from (fallback.ts describeSource). */
  readonly subscriptions: string;
  /** What its calls go over now: the Attach stream, or one unary RPC each. */
  readonly transport: "stream" | "unary";
  readonly refusedAnswers: number;
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
  /** The most calls in flight on the plugin's Attach stream (default DEFAULT_ATTACH_WINDOW). */
  readonly attachWindow?: number;
  /** Sent in DescribeRequest. */
  readonly daemonVersion?: string;
  readonly log?: Logger;
  /** What it last described (persisted): its subscriptions until described, when the config names no points. */
  readonly lastKnown?: KnownManifest;
  /** Where each new manifest it describes is persisted; absent persists nothing. */
  readonly manifests?: ManifestStore;
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

export class RemotePlugin implements PluginSource {
  readonly name: string;
  readonly target: string;
  readonly #overrides: PointOverrides;
  readonly #defaultDeadlineMs: number;
  readonly #log: Logger;
  readonly #managed: boolean;
  readonly #admission: Admission;
  readonly #site: CallSite;
  readonly #stats = new CallStats();
  readonly #changeCallbacks = new Set<() => void>();
  readonly #manifests: ManifestStore | undefined;
  #manifest: RemoteManifest | undefined;
  #source: SubscriptionSource;
  #persisting: Promise<void> = Promise.resolve();
  #listeners: readonly Listener[];
  #restarts = 0;
  #pid: number | undefined;

  constructor(options: RemotePluginOptions) {
    this.name = options.name;
    this.target = options.target;
    const policy: HealthPolicy = { ...DEFAULT_HEALTH_POLICY, ...options.health };
    this.#overrides = options.overrides ?? {};
    this.#defaultDeadlineMs = options.defaultDeadlineMs ?? DEFAULT_DEADLINE_MS;
    this.#managed = options.managed !== undefined;
    this.#log = (options.log ?? silentLogger).child({ plugin: this.name, target: this.target });
    this.#admission = new Admission({
      name: this.name,
      target: this.target,
      credentials: options.credentials ?? credentials.createInsecure(),
      channelOptions: { ...channelOptions(policy), ...options.channelOptions },
      policy,
      probeTimeoutMs: options.probeTimeoutMs ?? 2_000,
      daemonVersion: options.daemonVersion ?? "",
      log: this.#log,
      managed: this.#managed,
      attachWindow: options.attachWindow ?? DEFAULT_ATTACH_WINDOW,
      refused: () => this.#stats.refused(),
      described: (manifest) => {
        this.#install(manifest);
        this.#stats.resetConsecutive();
      },
    });
    this.#manifests = options.manifests;
    this.#site = { plugin: this.name, kind: this.#managed ? "managed" : "remote", admission: this.#admission, stats: this.#stats, ...(options.managed === undefined ? {} : { crashed: options.managed.crashed }) };
    const fallback = fallbackSubscriptions(this.#overrides, options.lastKnown, this.#defaultDeadlineMs);
    this.#source = fallback.source;
    this.#listeners = remoteListeners(this.#site, fallback.settings);
  }

  get health(): PluginHealth {
    return this.#admission.health;
  }

  /** Where the current listeners come from: described, or a fallback until then. */
  get subscriptionSource(): SubscriptionSource {
    return this.#source;
  }

  /** Resolves once the last described manifest is on disk (or its write failed and was logged). */
  whenPersisted(): Promise<void> {
    return this.#persisting;
  }

  /** The last valid manifest, once described. */
  get manifest(): RemoteManifest | undefined {
    return this.#manifest;
  }

  /**
   * One attempt to connect and describe; never rejects. On failure the plugin is "unavailable":
   * its fallback subscriptions (fallback.ts) fail fast as "unavailable", and a background probe
   * keeps trying with backoff; onChange announces the listeners once it is described.
   */
  async start(): Promise<void> {
    await this.#admission.start();
    this.noteFallback();
  }

  listeners(): readonly Listener[] {
    return this.#listeners;
  }

  onChange(callback: () => void): () => void {
    this.#changeCallbacks.add(callback);
    return () => this.#changeCallbacks.delete(callback);
  }

  onHealth(callback: (change: HealthChange) => void): () => void {
    return this.#admission.onHealth(callback);
  }

  status(): RemoteStatus {
    return {
      name: this.name,
      kind: this.#managed ? "managed" : "remote",
      target: this.target,
      health: this.#admission.health,
      points: this.#listeners.map((listener) => listener.point),
      ...(this.#manifest === undefined ? {} : { manifest: { name: this.#manifest.name, version: this.#manifest.version } }),
      ...this.#stats.snapshot(),
      restarts: this.#restarts,
      lastError: this.#admission.lastError ?? "",
      ...(this.#pid === undefined ? {} : { pid: this.#pid }),
      subscriptions: describeSource(this.#source),
      transport: this.#admission.transport,
    };
  }

  ready(): boolean {
    return this.#admission.health === "serving";
  }

  /** Stops probing; later calls fail fast as unavailable. */
  async close(): Promise<void> {
    this.#admission.close();
  }

  // ---- for ManagedPlugin ---------------------------------------------------------------------

  /**
   * Probes with backoff until the plugin is healthy and described (true), or until `timeoutMs`
   * passes or `signal` aborts (false). Replaces a running background probe.
   */
  admit(options: { readonly signal: AbortSignal; readonly timeoutMs: number }): Promise<boolean> {
    return this.#admission.admit(options);
  }

  /**
   * The process behind the socket is gone (or being replaced): drop the channel, stop probing,
   * and fail calls fast as "unavailable" until the next admit(). `reason` becomes the last
   * error unless the plugin is merely (re)starting.
   */
  suspend(reason: string, health: "unavailable" | "starting" = "unavailable"): void {
    this.#admission.suspend(reason, health);
  }

  /** Logs, once it is known that the plugin was not described at start, what it is subscribed by instead. */
  noteFallback(): void {
    if (this.#source.from === "described") return;
    this.#log.warn("plugin not described; subscribed by its fallback until it is", {
      subscriptions: describeSource(this.#source),
      points: this.#listeners.map((l) => `${l.point}@${l.priority}`),
    });
  }

  /** Process facts a ManagedPlugin reports through status(). */
  noteProcess(facts: { readonly pid?: number; readonly restarted?: boolean }): void {
    this.#pid = facts.pid;
    if (facts.restarted === true) this.#restarts++;
  }

  #install(manifest: RemoteManifest): void {
    if (sameManifest(this.#manifest, manifest)) return;
    const { settings, ignored } = manifestSettings(manifest, this.#overrides, this.#defaultDeadlineMs);
    if (ignored.length > 0) this.#log.warn("config overrides points the plugin does not subscribe to; ignored", { points: ignored });
    if (manifest.name !== this.name) this.#log.info("plugin describes itself under another name; the configured name is used", { manifestName: manifest.name });
    this.#manifest = manifest;
    this.#source = { from: "described" };
    this.#listeners = remoteListeners(this.#site, settings);
    // Persisting never delays the registry swap; a failed write is the store's to log.
    if (this.#manifests !== undefined) this.#persisting = this.#manifests.save(this.name, manifest);
    this.#log.info("plugin described", {
      version: manifest.version,
      points: settings.map((s) => `${s.point}@${s.priority}`),
    });
    for (const callback of this.#changeCallbacks) notify(this.#log, () => callback());
  }
}
