// The worker pool for isolated in-process plugins: a piscina pool whose workers load plugin
// modules and run one handler call at a time. A call's deadline or cancellation first aborts the
// handler's ctx.signal in the worker; if the worker has not answered within a short grace, the
// piscina task is aborted, which terminates the worker (nothing else stops a spinning handler)
// and piscina boots a replacement. Owns the piscina options, the worker entry's location and the
// classification of pool failures into plugin faults; knows nothing of points or decisions.
import { existsSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ResourceLimits } from "node:worker_threads";
import { ERROR_CODES, HookdError } from "@hookd/sdk";
import type { ErrorCode, PointName } from "@hookd/sdk";
import { Piscina } from "piscina";
import { isPluginFault, pluginFault } from "../../engine/faults.js";
import type { PluginFault } from "../../engine/faults.js";
import { CALL_STATE, decodeValue, encodeValue } from "./protocol.js";
import type { PluginManifest, ThrownError, WorkerReply, WorkerTask } from "./protocol.js";

export interface WorkerPoolOptions {
  /** Maximum worker threads; default: the machine's available parallelism (2 here). At least 1. */
  readonly size?: number;
  /** Workers kept alive even when idle; default 1, at most `size`. */
  readonly minThreads?: number;
  /** A worker above minThreads exits after this many idle milliseconds; default 30 000. */
  readonly idleTimeoutMs?: number;
  /**
   * After a call is aborted (deadline or cancellation), how many milliseconds its handler gets to
   * honour ctx.signal before its worker is terminated; default 50. 0 terminates at once.
   */
  readonly abortGraceMs?: number;
  /** Calls waiting for a free worker beyond this many fault as unavailable; default unbounded (each waits at most its deadline). */
  readonly maxQueue?: number;
  /** How long close() lets running calls finish before terminating the workers, in ms; default 10 000. */
  readonly closeTimeoutMs?: number;
  /** V8 heap limits per worker: a plugin that exceeds them crashes its worker, not the daemon. */
  readonly resourceLimits?: ResourceLimits;
  /** Pool errors not tied to a call (e.g. a worker dying between calls). Default: a process warning. */
  readonly onError?: (error: Error) => void;
}

/** Which handler a call runs: a plugin module, the plugin it must define, and the point. */
export interface WorkerTarget {
  /** Absolute path of the plugin module. */
  readonly module: string;
  readonly plugin: string;
  readonly point: PointName;
  /** The module's content version it was described at (module-version.ts); none: its plain file URL. */
  readonly version?: string;
}

export interface WorkerPoolStats {
  /** Live worker threads. */
  readonly threads: number;
  /** Calls waiting for a free worker. */
  readonly queued: number;
  /** Tasks finished since the pool started, including aborted and failed ones. */
  readonly completed: number;
}

const DEFAULT_ABORT_GRACE_MS = 50;
const DEFAULT_IDLE_TIMEOUT_MS = 30_000;
const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;

export class WorkerPool {
  readonly #piscina: Piscina<WorkerTask, WorkerReply>;
  readonly #abortGraceMs: number;
  #closing: Promise<void> | undefined;

  constructor(options: WorkerPoolOptions = {}) {
    const size = options.size ?? Math.max(1, availableParallelism());
    if (!Number.isInteger(size) || size < 1) throw new HookdError("invalid_argument", `worker pool size: expected an integer of at least 1, got ${size}`);
    const minThreads = Math.min(options.minThreads ?? 1, size);
    if (!Number.isInteger(minThreads) || minThreads < 0) throw new HookdError("invalid_argument", `worker pool minThreads: expected a non-negative integer`);
    this.#abortGraceMs = nonNegative(options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS, "abortGraceMs");
    this.#piscina = new Piscina<WorkerTask, WorkerReply>({
      filename: workerEntryPath(),
      maxThreads: size,
      minThreads,
      idleTimeout: nonNegative(options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, "idleTimeoutMs"),
      maxQueue: options.maxQueue ?? Infinity,
      closeTimeout: nonNegative(options.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS, "closeTimeoutMs"),
      // One call per worker (piscina also runs abortable tasks one per worker): terminating a
      // worker to stop a stuck call then never takes a neighbour's call with it.
      concurrentTasksPerWorker: 1,
      // Tasks arrive as port messages, so an idle worker's event loop keeps running (a plugin's
      // timers, the abort watcher) instead of blocking in Atomics.wait between tasks.
      atomics: "disabled",
      ...workerExecArgv(process.execArgv),
      ...(options.resourceLimits === undefined ? {} : { resourceLimits: options.resourceLimits }),
    });
    const onError = options.onError ?? ((error: Error) => process.emitWarning(error.message, { type: "HookdWorkerPool" }));
    // Without a listener, piscina's 'error' event would throw in the daemon.
    this.#piscina.on("error", (error: unknown) => onError(error instanceof Error ? error : new Error(String(error))));
  }

  get stats(): WorkerPoolStats {
    return { threads: this.#piscina.threads.length, queued: this.#piscina.queueSize, completed: this.#piscina.completed };
  }

  /**
   * Loads a plugin module in a worker (at `version`'s URL, see module-version.ts) and returns its
   * manifest. Throws HookdError("invalid_plugin") naming the module.
   */
  async describe(modulePath: string | URL, options: { readonly signal?: AbortSignal; readonly version?: string } = {}): Promise<PluginManifest> {
    const { signal, version } = options;
    const module = resolveModulePath(modulePath);
    if (this.#closing !== undefined) throw new HookdError("unavailable", "the worker pool is closed");
    let reply: WorkerReply;
    try {
      reply = await this.#piscina.run({ op: "describe", module, ...(version === undefined ? {} : { version }) }, signal === undefined ? {} : { signal });
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      throw new HookdError("unavailable", `cannot describe ${module}: ${messageOf(error)}`, { cause: error });
    }
    if (reply.type === "manifest") return reply.manifest;
    if (reply.type === "unavailable") throw new HookdError("invalid_plugin", reply.message);
    throw new HookdError("internal", `worker answered ${reply.type} to describe`);
  }

  /**
   * Runs the handler of `target` in a worker with a structured-clone copy of `event` and returns
   * its answer (unvalidated). Rejects with a plugin fault when the worker could not answer
   * (crashed, module unavailable, pool closed or full), with `signal.reason` once `signal` is
   * aborted, and with the handler's own error when it threw.
   */
  async call(target: WorkerTarget, event: unknown, signal: AbortSignal): Promise<unknown> {
    signal.throwIfAborted();
    if (this.#closing !== undefined) throw pluginFault(target.plugin, target.point, "unavailable", "the worker pool is closed");
    let encoded;
    try {
      encoded = encodeValue(event, "event");
    } catch (error) {
      throw new HookdError("internal", `cannot send the ${target.point} event to a worker: ${messageOf(error)}`, { cause: error });
    }
    const state = new Int32Array(new SharedArrayBuffer(4));
    const terminate = new AbortController();
    let grace: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      const reason: unknown = signal.reason;
      const deadline = (isPluginFault(reason) && reason.details.fault === "deadline_exceeded") || (reason instanceof Error && reason.name === "TimeoutError");
      Atomics.compareExchange(state, 0, CALL_STATE.RUNNING, deadline ? CALL_STATE.DEADLINE : CALL_STATE.CANCELLED);
      Atomics.notify(state, 0);
      if (this.#abortGraceMs === 0) terminate.abort(reason);
      else grace = setTimeout(() => terminate.abort(reason), this.#abortGraceMs);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    let reply: WorkerReply;
    try {
      reply = await this.#piscina.run({ op: "call", ...target, event: encoded, state }, { signal: terminate.signal });
    } catch (error) {
      if (signal.aborted) throw signal.reason;
      throw poolFault(target, error);
    } finally {
      signal.removeEventListener("abort", onAbort);
      clearTimeout(grace);
    }
    if (signal.aborted) throw signal.reason;
    switch (reply.type) {
      case "answer":
        return decodeValue(reply.answer);
      case "error":
        throw rebuildError(reply.error);
      case "unavailable":
        throw pluginFault(target.plugin, target.point, "unavailable", reply.message);
      case "aborted":
      case "manifest":
        throw new HookdError("internal", `worker answered ${reply.type} to a call that was not aborted`);
    }
  }

  /** Stops taking calls, lets running ones finish (up to closeTimeoutMs), and waits for every worker to exit. */
  close(): Promise<void> {
    this.#closing ??= this.#piscina.close();
    return this.#closing;
  }
}

/** A piscina rejection that was not our abort: the worker died, or the pool could not take the task. */
function poolFault(target: WorkerTarget, error: unknown): PluginFault {
  const message = messageOf(error);
  const refused =
    (error instanceof Error && error.name === "AbortError") || // the pool was closed under the task
    /^(Task queue is at limit|No task queue available|Terminating worker thread)/.test(message);
  return pluginFault(target.plugin, target.point, refused ? "unavailable" : "crashed", message);
}

function rebuildError(error: ThrownError): Error {
  if (error.code !== undefined && Object.hasOwn(ERROR_CODES, error.code)) return new HookdError(error.code as ErrorCode, error.message);
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  return rebuilt;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function nonNegative(value: number, field: string): number {
  if (!(value >= 0)) throw new HookdError("invalid_argument", `worker pool ${field}: expected a non-negative number, got ${value}`);
  return value;
}

/**
 * The worker's Node flags: inherited from the parent unless the parent has resolution conditions.
 * A worker runs plain JavaScript and must resolve @hookd/sdk to its build; a parent started with
 * `--conditions source` (as vitest starts the tests) would point it at TypeScript it cannot load.
 * Only then are the flags passed explicitly, without the conditions: Node refuses process-wide
 * flags (--max-old-space-size, --stack-size) in an explicit list but not in an inherited one.
 */
export function workerExecArgv(execArgv: readonly string[]): { execArgv?: string[] } {
  const kept: string[] = [];
  for (let index = 0; index < execArgv.length; index++) {
    const arg = execArgv[index] as string;
    if (arg === "--conditions" || arg === "-C") index++;
    else if (!arg.startsWith("--conditions=") && !arg.startsWith("-C=")) kept.push(arg);
  }
  return kept.length === execArgv.length ? {} : { execArgv: kept };
}

/** A plugin module path: a file URL, or a path resolved against the working directory. */
export function resolveModulePath(modulePath: string | URL): string {
  if (modulePath instanceof URL || modulePath.startsWith("file:")) return fileURLToPath(modulePath);
  return resolve(modulePath);
}

/**
 * The worker entry, as JavaScript. From daemon/dist it is entry.js beside this file. Under vitest
 * this module runs from daemon/src as TypeScript, which a worker thread (plain Node) cannot load:
 * the entry then comes from daemon/dist, built by `npm run build` (which `npm test` runs first).
 * A missing or older build is a loud error, never a silently stale worker.
 */
export function workerEntryPath(): string {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith(".ts")) return join(dirname(here), "entry.js");
  const srcDir = dirname(here);
  const distDir = srcDir.replace(/([\\/])src([\\/]plugins[\\/]worker)$/, "$1dist$2");
  for (const name of ["entry", "protocol", "../module-version", "../sdk-resolution"]) {
    const built = join(distDir, `${name}.js`);
    if (distDir === srcDir || !existsSync(built)) {
      throw new HookdError("internal", `the plugin worker entry ${built} is missing: run \`npm run build\``);
    }
    if (statSync(built).mtimeMs < statSync(join(srcDir, `${name}.ts`)).mtimeMs) {
      throw new HookdError("internal", `the plugin worker entry ${built} is older than its source: run \`npm run build\``);
    }
  }
  return join(distDir, "entry.js");
}
