// The admission state machine of a remote plugin: its health (starting, serving, connecting,
// ejected, unavailable), the channel, ejection after consecutive failures, and the background
// probe with exponential backoff that (re-)admits it once grpc.health.v1 says SERVING and Describe
// answers. Every connection is admitted that way before its first call: a serving plugin whose
// connection drops is "connecting" and gets no call until it is checked and described again.
// Owns health, the channel and the last error; what a manifest turns into (listeners) is
// plugin.ts's, and how a call fails is calls.ts's.
import type { ChannelCredentials, ChannelOptions } from "@grpc/grpc-js";
import type { PointName } from "@hookd/sdk";
import { type PluginFault, pluginFault } from "../../engine/faults.js";
import type { Logger } from "../../log.js";
import type { PluginHealth } from "../source.js";
import { RemoteConnection } from "./connection.js";
import { notify, sleep } from "./health.js";
import type { HealthChange, HealthPolicy } from "./health.js";
import type { RemoteManifest } from "./manifest.js";

export interface AdmissionOptions {
  /** The configured name: faults use it and DescribeRequest.plugin_name carries it. */
  readonly name: string;
  readonly target: string;
  readonly credentials: ChannelCredentials;
  readonly channelOptions: ChannelOptions;
  readonly policy: HealthPolicy;
  /** Deadline of one health check or Describe, in milliseconds. */
  readonly probeTimeoutMs: number;
  /** Sent in DescribeRequest. */
  readonly daemonVersion: string;
  readonly log: Logger;
  /** A managed plugin's supervisor admits it: no background probe after a failed start. */
  readonly managed: boolean;
  /** The most calls in flight on the plugin's Attach stream. */
  readonly attachWindow: number;
  /** An Attach answer was refused (an id never sent or answered twice). */
  readonly refused: (detail: string) => void;
  /** A valid manifest arrived; called before the plugin reports serving. */
  readonly described: (manifest: RemoteManifest) => void;
}

export class Admission {
  readonly #options: AdmissionOptions;
  readonly #healthCallbacks = new Set<(change: HealthChange) => void>();
  #conn: RemoteConnection | undefined;
  #health: PluginHealth = "starting";
  #lastError: string | undefined;
  /** Ejections since the last usable answer: each one starts the probe at a longer delay. */
  #ejections = 0;
  #probe: AbortController | undefined;
  /** The connection whose loss is being watched (at most one watch each). */
  #watched: RemoteConnection | undefined;
  /** Bumped by suspend() and close(): an admission that started before is discarded. */
  #epoch = 0;
  #closed = false;

  constructor(options: AdmissionOptions) {
    this.#options = options;
  }

  get health(): PluginHealth {
    return this.#health;
  }

  get lastError(): string | undefined {
    return this.#lastError;
  }

  /** What calls go over now ("unary" until the plugin is described). */
  get transport(): "stream" | "unary" {
    return this.#conn?.transport ?? "unary";
  }

  /** The channel calls go out on, while serving; undefined otherwise (calls then fail fast). */
  serving(): RemoteConnection | undefined {
    return this.#health === "serving" ? this.#conn : undefined;
  }

  onHealth(callback: (change: HealthChange) => void): () => void {
    this.#healthCallbacks.add(callback);
    return () => this.#healthCallbacks.delete(callback);
  }

  /**
   * One attempt to connect and describe. On failure the plugin is "unavailable" and, unless it is
   * managed, a background probe keeps trying with backoff.
   */
  async start(): Promise<void> {
    if (this.#closed || this.#probe !== undefined) return;
    const controller = new AbortController(); // close() aborts it like a probe
    this.#probe = controller;
    const why = await this.#attempt(controller.signal);
    if (this.#probe === controller) this.#probe = undefined;
    if (why === undefined || this.#closed || controller.signal.aborted) return;
    this.failed(why);
    this.#setHealth("unavailable", why);
    if (!this.#options.managed) this.#startProbe(this.#options.policy.initialBackoffMs);
  }

  /**
   * Probes with backoff until the plugin is healthy and described (true), or until `timeoutMs`
   * passes or `signal` aborts (false). Replaces a running background probe.
   */
  async admit(options: { readonly signal: AbortSignal; readonly timeoutMs: number }): Promise<boolean> {
    if (this.#closed) return false;
    this.#probe?.abort();
    this.#probe = undefined;
    // Not AbortSignal.timeout(): AbortSignal.any holds its sources weakly, so a timeout signal
    // nothing else references can be collected before it fires, and a plugin that starts but never
    // listens then held the daemon's start forever. The timer holds this controller strongly.
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new DOMException(`no answer within ${options.timeoutMs} ms`, "TimeoutError")), options.timeoutMs);
    const signal = AbortSignal.any([options.signal, timeout.signal]);
    // Start-up polls stay frequent: a freshly spawned process binds its socket within moments.
    const { initialBackoffMs, maxBackoffMs } = this.#options.policy;
    try {
      return await this.#probeLoop(signal, initialBackoffMs, Math.min(maxBackoffMs, 1_000), true);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Drops the channel and stops probing; calls fail fast until the next admit(). */
  suspend(reason: string, health: "unavailable" | "starting"): void {
    if (this.#closed) return;
    this.#disconnect();
    if (health === "unavailable") this.#lastError = reason;
    this.#setHealth(health, reason);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#disconnect();
    this.#lastError = "the plugin was stopped";
    this.#setHealth("unavailable", "stopped");
  }

  // ---- what calls report ---------------------------------------------------------------------

  /** A call got a usable answer: the next ejection starts its probe at the shortest delay. */
  answered(): void {
    this.#ejections = 0;
  }

  failed(message: string): void {
    this.#lastError = message;
  }

  /** A call failed; `consecutive` failures in a row eject a serving plugin. */
  callFailed(message: string, consecutive: number): void {
    this.failed(message);
    if (consecutive >= this.#options.policy.ejectAfterFailures && this.#health === "serving") this.#eject(consecutive);
  }

  /** Why a call is not sent at all. */
  failFast(point: PointName): PluginFault {
    const last = this.#lastError === undefined ? "" : ` (last error: ${this.#lastError})`;
    if (this.#health === "ejected") {
      return pluginFault(this.#options.name, point, "ejected", `ejected after repeated failures until its health check passes${last}`);
    }
    return pluginFault(this.#options.name, point, "unavailable", `${this.#options.target} is ${this.#health}${last}`);
  }

  #eject(consecutive: number): void {
    const { initialBackoffMs, maxBackoffMs } = this.#options.policy;
    this.#ejections++;
    this.#setHealth("ejected", `${consecutive} consecutive failures`);
    this.#startProbe(Math.min(maxBackoffMs, initialBackoffMs * 2 ** Math.min(this.#ejections - 1, 30)));
  }

  // ---- probing -------------------------------------------------------------------------------

  #connection(): RemoteConnection {
    const { target, credentials, channelOptions, log, policy, refused } = this.#options;
    this.#conn ??= new RemoteConnection(target, credentials, channelOptions, { log, refused, backoff: policy });
    return this.#conn;
  }

  #disconnect(): void {
    this.#epoch++;
    this.#probe?.abort();
    this.#probe = undefined;
    this.#conn?.close();
    this.#conn = undefined;
    this.#watched = undefined;
  }

  /** One health check and Describe; resolves with why it failed, or undefined once serving. */
  async #attempt(signal: AbortSignal): Promise<string | undefined> {
    const { probeTimeoutMs, daemonVersion, name, log } = this.#options;
    const epoch = this.#epoch;
    const conn = this.#connection();
    const unhealthy = await conn.unhealthy(probeTimeoutMs, signal);
    if (unhealthy !== undefined) return unhealthy;
    let manifest: RemoteManifest;
    try {
      manifest = await conn.describe(probeTimeoutMs, signal, { daemonVersion, pluginName: name });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error("plugin manifest refused", { error: message });
      return message;
    }
    if (epoch !== this.#epoch || this.#closed || signal.aborted) return "superseded";
    this.#options.described(manifest);
    conn.attach({ transport: manifest.transport ?? "default", daemonVersion, pluginName: name, window: this.#options.attachWindow });
    this.#setHealth("serving", "healthy and described");
    this.#watch(conn, epoch);
    return undefined;
  }

  /** One watch per admitted connection: its loss takes the plugin out until admitted again. */
  #watch(conn: RemoteConnection, epoch: number): void {
    if (this.#watched === conn) return; // re-admitted after an ejection on the same connection
    this.#watched = conn;
    conn.watchLoss(() => {
      if (this.#watched === conn) this.#watched = undefined;
      if (epoch !== this.#epoch || this.#closed || this.#health !== "serving") return;
      this.#lastError = "the connection to the plugin was lost";
      this.#setHealth("connecting", "connection lost: health and Describe are checked again before the next call");
      this.#startProbe(0);
    });
  }

  #startProbe(firstDelayMs: number): void {
    if (this.#probe !== undefined || this.#closed) return;
    const controller = new AbortController();
    this.#probe = controller;
    const { initialBackoffMs, maxBackoffMs } = this.#options.policy;
    void (async () => {
      if (await sleep(firstDelayMs, controller.signal)) await this.#probeLoop(controller.signal, initialBackoffMs, maxBackoffMs);
      if (this.#probe === controller) this.#probe = undefined;
    })();
  }

  /**
   * Never throws; false when the signal aborted first. While `starting` (a process binding its
   * socket), a failed attempt is expected and becomes the last error only if admission gives up.
   */
  async #probeLoop(signal: AbortSignal, firstDelayMs: number, maxDelayMs: number, starting = false): Promise<boolean> {
    let wait = firstDelayMs;
    const epoch = this.#epoch;
    let unrecorded: string | undefined;
    try {
      for (;;) {
        if (signal.aborted || this.#closed || epoch !== this.#epoch) return false;
        let why: string | undefined;
        try {
          why = await this.#attempt(signal);
        } catch (error) {
          why = error instanceof Error ? error.message : String(error);
        }
        if (why === undefined) {
          unrecorded = undefined;
          return true;
        }
        if (signal.aborted || epoch !== this.#epoch) return false;
        if (starting) unrecorded = why;
        else this.failed(why);
        // A lost connection that cannot be re-admitted at once is unavailable, with why.
        if (this.#health === "connecting") this.#setHealth("unavailable", why);
        this.#options.log.debug("plugin probe failed", { error: why, retryInMs: wait });
        if (!(await sleep(wait, signal))) return false;
        wait = Math.min(wait * 2, maxDelayMs);
      }
    } finally {
      if (unrecorded !== undefined) this.failed(unrecorded);
    }
  }


  #setHealth(health: PluginHealth, reason: string): void {
    const previous = this.#health;
    if (previous === health) return;
    this.#health = health;
    const { log, name } = this.#options;
    const fields = { health, previous, reason };
    if (health === "serving" || health === "starting") log.info("plugin health changed", fields);
    else log.warn("plugin health changed", { ...fields, ...(this.#lastError === undefined ? {} : { lastError: this.#lastError }) });
    const change: HealthChange = { plugin: name, health, previous, reason };
    for (const callback of this.#healthCallbacks) notify(log, () => callback(change));
  }
}
