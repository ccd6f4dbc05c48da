// ManagedPlugin: a remote plugin whose process the daemon owns. It spawns `command` + `args`
// with HOOKD_PLUGIN_SOCKET set to a socket path under the runtime directory (one per plugin),
// killed by the kernel if the daemon dies (parent-death.ts) and recorded in the ledger,
// waits for health SERVING within the start timeout, hands the process's output lines to a sink,
// restarts it with exponential backoff whenever it exits, and on close() stops it with SIGTERM,
// then SIGKILL after the grace period. Calls, health, ejection and status are the RemotePlugin's
// it wraps: while the process is down its calls fail fast as "unavailable", a call cut off by the
// process dying is "crashed", and the failure policy decides either way.
import { mkdir, rm, rmdir } from "node:fs/promises";
import { join } from "node:path";
import { HookdError, PLUGIN_SOCKET_ENV } from "@hookd/sdk";
import type { Listener } from "../../engine/listener.js";
import type { Logger } from "../../log.js";
import { silentLogger } from "../../log.js";
import type { PluginSource } from "../source.js";
import { DEFAULT_HEALTH_POLICY, sleep } from "../remote/health.js";
import type { HealthChange, HealthPolicy } from "../remote/health.js";
import type { SubscriptionSource } from "../remote/fallback.js";
import { RemotePlugin } from "../remote/plugin.js";
import type { RemotePluginOptions, RemoteStatus } from "../remote/plugin.js";
import type { ProcessLedger } from "./ledger.js";
import { setprivPath } from "./parent-death.js";
import { PluginProcess, describeExit } from "./process.js";
import type { OutputSink, ProcessSpec } from "./process.js";

/** HOOKD_PLUGIN_SOCKET: tells a managed plugin where to listen (a socket path). */
export { PLUGIN_SOCKET_ENV };

/**
 * How long a call whose connection dropped waits for the process's exit to tell a crash from a
 * network failure. The kernel closes a dead process's socket moments before its exit is reaped.
 */
const CRASH_GRACE_MS = 250;

/** sun_path is 108 bytes on Linux, including the terminating NUL. */
const MAX_SOCKET_PATH = 107;

export interface ManagedPluginOptions extends Omit<RemotePluginOptions, "target" | "credentials" | "channelOptions" | "managed"> {
  readonly command: string;
  readonly args?: readonly string[];
  /** Added to the daemon's environment for the process. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /**
   * A directory only the daemon writes to; the plugin listens on `<runtimeDir>/<name>-<n>.sock`,
   * numbered per instance so a reloaded plugin can start while the one it replaces drains.
   */
  readonly runtimeDir: string;
  /** The runtime directory is the daemon's own: close() removes it once no socket is left in it. */
  readonly removeRuntimeDir?: boolean;
  /** How long the process gets to exit after SIGTERM before SIGKILL, in milliseconds. */
  readonly stopGraceMs?: number;
  /** How long a start may take to report SERVING before the process is stopped and retried. */
  readonly startTimeoutMs?: number;
  /** Each line of the process's stdout and stderr; default: logged at info with its stream. */
  readonly output?: OutputSink;
  /** Where each running process is recorded, so a daemon started after this one was killed can end it. */
  readonly ledger?: ProcessLedger;
}

/** Instances made by this process, numbering their sockets. */
let instances = 0;

export class ManagedPlugin implements PluginSource {
  readonly name: string;
  readonly socketPath: string;
  /** The RemotePlugin that talks to the process; its listeners are this plugin's. */
  readonly remote: RemotePlugin;
  readonly #spec: ProcessSpec;
  readonly #policy: HealthPolicy;
  readonly #stopGraceMs: number;
  readonly #startTimeoutMs: number;
  readonly #output: OutputSink;
  readonly #log: Logger;
  readonly #runtimeDir: string;
  readonly #removeRuntimeDir: boolean;
  readonly #ledger: ProcessLedger | undefined;
  readonly #stop = new AbortController();
  #process: PluginProcess | undefined;
  #supervisor: Promise<void> | undefined;
  #closing: Promise<void> | undefined;

  constructor(options: ManagedPluginOptions) {
    this.name = options.name;
    this.#runtimeDir = options.runtimeDir;
    this.#removeRuntimeDir = options.removeRuntimeDir === true;
    this.socketPath = join(options.runtimeDir, `${options.name}-${++instances}.sock`);
    if (Buffer.byteLength(this.socketPath) > MAX_SOCKET_PATH) {
      throw new HookdError("invalid_argument", `plugin ${options.name}: socket path ${this.socketPath} is longer than ${MAX_SOCKET_PATH} bytes; use a shorter runtime directory`);
    }
    this.#spec = { command: options.command, args: options.args ?? [], env: options.env ?? {}, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) };
    this.#policy = { ...DEFAULT_HEALTH_POLICY, ...options.health };
    this.#stopGraceMs = options.stopGraceMs ?? 3_000;
    this.#startTimeoutMs = options.startTimeoutMs ?? 10_000;
    this.#log = (options.log ?? silentLogger).child({ plugin: options.name });
    const output = this.#log.child({ source: "plugin-output" });
    this.#output = options.output ?? ((line, stream) => output.info(line, { stream }));
    this.#ledger = options.ledger;
    if (setprivPath() === undefined) this.#log.warn("setpriv (util-linux) is not on PATH: this plugin will outlive the daemon if it is killed; the next start sweeps it");
    this.remote = new RemotePlugin({
      ...options,
      target: `unix://${this.socketPath}`,
      managed: { crashed: () => this.#crashed() },
    });
  }

  /**
   * Spawns the process and resolves once it first reports SERVING and is described, or once the
   * first start failed (timeout, early exit). Never rejects: the supervisor keeps restarting it
   * with backoff until close().
   */
  async start(): Promise<void> {
    if (this.#supervisor !== undefined || this.#stop.signal.aborted) return;
    let firstStart!: () => void;
    const started = new Promise<void>((resolve) => (firstStart = resolve));
    this.#supervisor = this.#supervise(firstStart).catch((error: unknown) => {
      // A bug here must not leave the plugin silently dead: it is logged and visible in status.
      this.#log.error("plugin supervisor failed", { error });
      this.remote.suspend(`supervisor failed: ${error instanceof Error ? error.message : String(error)}`);
      firstStart();
    });
    await started;
    this.remote.noteFallback();
  }

  listeners(): readonly Listener[] {
    return this.remote.listeners();
  }

  onChange(callback: () => void): () => void {
    return this.remote.onChange(callback);
  }

  onHealth(callback: (change: HealthChange) => void): () => void {
    return this.remote.onHealth(callback);
  }

  status(): RemoteStatus {
    return this.remote.status();
  }

  ready(): boolean {
    return this.remote.ready();
  }

  /** Where its subscriptions come from: described, or a fallback until then. */
  get subscriptionSource(): SubscriptionSource {
    return this.remote.subscriptionSource;
  }

  /** The running process's id, if one runs. */
  get pid(): number | undefined {
    return this.#process?.gone === false ? this.#process.pid : undefined;
  }

  /** Stops supervising, then SIGTERM, SIGKILL after the grace period, and waits for the exit. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#stop.abort();
      this.remote.suspend("stopping");
      const running = this.#process;
      if (running !== undefined) {
        const exit = await running.stop(this.#stopGraceMs);
        this.#log.info("plugin process stopped", { exit: describeExit(exit) });
      }
      await this.#supervisor;
      await this.remote.close();
      await rm(this.socketPath, { force: true });
      // Fails while another plugin's socket is still in it: the last one to close removes it.
      if (this.#removeRuntimeDir) await rmdir(this.#runtimeDir).catch(() => {});
    })();
    return this.#closing;
  }

  /** True when the current process has exited, or exits within CRASH_GRACE_MS. */
  async #crashed(): Promise<boolean> {
    const running = this.#process;
    if (running === undefined || running.gone) return true;
    let timer: NodeJS.Timeout | undefined;
    const alive = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), CRASH_GRACE_MS);
    });
    const exited = await Promise.race([running.exited.then(() => true), alive]);
    clearTimeout(timer);
    return exited;
  }

  async #supervise(firstStart: () => void): Promise<void> {
    await mkdir(this.#runtimeDir, { recursive: true, mode: 0o700 });
    let backoff = this.#policy.initialBackoffMs;
    let restart = false;
    while (!this.#stop.signal.aborted) {
      // The previous process is gone, so a socket file left behind is stale.
      await rm(this.socketPath, { force: true });
      if (this.#stop.signal.aborted) break;
      this.remote.suspend(restart ? "restarting" : "starting", "starting");
      const running = PluginProcess.spawn(this.#spec, { [PLUGIN_SOCKET_ENV]: this.socketPath }, this.#output);
      this.#process = running;
      const pid = running.pid;
      if (pid !== undefined) {
        this.#ledger?.add(this.name, pid);
        void running.exited.then(() => this.#ledger?.remove(pid));
      }
      this.remote.noteProcess({ ...(running.pid === undefined ? {} : { pid: running.pid }), restarted: restart });
      this.#log.info(restart ? "plugin process restarted" : "plugin process started", { pid: running.pid, command: this.#spec.command });
      const startedAt = Date.now();
      const exitedEarly = new AbortController();
      void running.exited.then(() => exitedEarly.abort());
      const admitted = await this.remote.admit({
        signal: AbortSignal.any([this.#stop.signal, exitedEarly.signal]),
        timeoutMs: this.#startTimeoutMs,
      });
      if (!restart) firstStart();
      restart = true;
      if (!admitted && !running.gone && !this.#stop.signal.aborted) {
        this.#log.error("plugin did not become healthy in time; stopping it", { startTimeoutMs: this.#startTimeoutMs });
        this.remote.suspend(`not healthy within ${this.#startTimeoutMs} ms of its start`);
        await running.stop(this.#stopGraceMs);
      }
      const exit = await running.exited;
      this.remote.noteProcess({});
      if (this.#stop.signal.aborted) break;
      const why = `process ${describeExit(exit)}`;
      this.#log.warn("plugin process exited; restarting", { exit: describeExit(exit), restartInMs: backoff });
      this.remote.suspend(why);
      // A process that ran for a while earns a fresh backoff; a crash loop keeps doubling it.
      if (admitted && Date.now() - startedAt >= this.#policy.maxBackoffMs) backoff = this.#policy.initialBackoffMs;
      if (!(await sleep(backoff, this.#stop.signal))) break;
      backoff = Math.min(backoff * 2, this.#policy.maxBackoffMs);
    }
    firstStart(); // closed before the first start completed
  }
}
