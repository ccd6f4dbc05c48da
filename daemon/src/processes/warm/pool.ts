// A command plugin's warm interpreters: one Python fork server, or a few Node spares, per
// interpreter and start-up environment (bounded), and the counts (warm runs, spawns by reason,
// restarts). `run` answers undefined when a hook must be spawned instead, and says the reason
// once per command. A fork server that dies is started again on the next run.
import { mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunResult } from "../hook-run.js";
import type { RunSpec } from "../runner.js";
import { ForkServer } from "./fork-server.js";
import { runOnSpare } from "./node-run.js";
import { NODE_SPARE_PRELOAD } from "./node-spare-source.js";
import { NodeSpares } from "./node-spares.js";
import { planCommand } from "./plan.js";
import type { NodePlan, PythonPlan, SpawnCode } from "./plan.js";
import { StreamBroker } from "./stream-broker.js";
import { runWarm, shellEnv } from "./warm-run.js";

export interface WarmOptions {
  /** Fork servers at most (one per interpreter and start-up environment); default 4. */
  readonly maxServers?: number;
  /** Node spares kept ready per node executable and start-up environment; default 2. */
  readonly nodeSpares?: number;
  /** Told once per command and reason when a hook runs as a spawn instead. */
  readonly onFallback?: (command: string, reason: string) => void;
  /** Told when a fork server died (it is started again on the next run). */
  readonly onServerExit?: (interpreter: string, why: string) => void;
}

/** Why a run was spawned: its command's plan, or the state of its fork server. */
export type FallbackCode = SpawnCode | "starting" | "server_limit" | "start_failed" | "interpreter_unreadable" | "no_spare";

export interface WarmStats {
  readonly warmRuns: number;
  /** Runs spawned instead, by why. */
  readonly fallbacks: Readonly<Partial<Record<FallbackCode, number>>>;
  /** Fork servers started again after one died. */
  readonly restarts: number;
}

interface Refusal {
  readonly code: FallbackCode;
  readonly reason: string;
}

/** What an interpreter's start depends on beyond its path: it reads these once, at start. */
const START_VARIABLE = /^(PYTHON.*|LANG|LC_.*|HOME)$/;
/** What node reads once at its start (its module paths, locale, thread pool, certificates). */
const NODE_START_VARIABLE = /^(NODE_.*|UV_.*|LANG|LANGUAGE|LC_.*|HOME|TZ|SSL_CERT_.*|OPENSSL_.*)$/;
/** Fork servers that never became ready this many times in a row are not started again. */
const MAX_FAILED_STARTS = 3;

interface Entry {
  readonly server: ForkServer;
  readonly broker: StreamBroker;
  readonly identity: string;
  ready: boolean;
  /** Settles once runs can go to it (ready is then true). */
  serving: Promise<void>;
}

/** The file's identity: a replaced or upgraded interpreter gets a new fork server. */
function identityOf(path: string): string | undefined {
  try {
    const stat = statSync(realpathSync(path));
    return `${stat.dev}:${stat.ino}:${stat.mtimeMs}:${stat.size}`;
  } catch {
    return undefined;
  }
}

export class WarmPool {
  /** Made with the first fork server: a plugin without Python hooks holds no socket. */
  #broker: StreamBroker | undefined;
  readonly #servers = new Map<string, Entry>();
  readonly #spares = new Map<string, { readonly identity: string; readonly spares: NodeSpares }>();
  /** Holds the Node spares' preload and slots; made with the first spares. */
  #sparesDir: string | undefined;
  readonly #failedStarts = new Map<string, number>();
  readonly #dead = new Set<string>();
  readonly #said = new Set<string>();
  readonly #fallbacks: Partial<Record<FallbackCode, number>> = {};
  #warmRuns = 0;
  #restarts = 0;
  #closed = false;

  constructor(readonly options: WarmOptions = {}) {}

  stats(): WarmStats {
    return { warmRuns: this.#warmRuns, fallbacks: { ...this.#fallbacks }, restarts: this.#restarts };
  }

  /** Why `command` would be spawned in `cwd`, or undefined when it can run warm. */
  static spawnReason(command: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
    const plan = planCommand(command, cwd, env);
    return plan.kind === "spawn" ? plan.reason : undefined;
  }

  /** Starts the fork server `command` would run in, and waits until it serves (or says why it cannot). */
  async prepare(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
    const plan = planCommand(command, cwd, env);
    if (plan.kind === "spawn") throw new Error(`${command} runs as a spawn: ${plan.reason}`);
    if (plan.kind === "node") {
      const spares = this.#nodeSpares(plan, startEnvOf(env, NODE_START_VARIABLE));
      if ("code" in spares) throw new Error(`${command} runs as a spawn: ${spares.reason}`);
      return spares.whenReady();
    }
    const entry = this.#entry(plan, startEnvOf(env));
    if ("code" in entry) throw new Error(`${command} runs as a spawn: ${entry.reason}`);
    await entry.serving;
  }

  /** The hook run warm, or undefined when it must be spawned (the reason is counted and said once). */
  run(spec: RunSpec): Promise<RunResult> | undefined {
    if (this.#closed) return undefined;
    const plan = planCommand(spec.command, spec.cwd, spec.env);
    if (plan.kind === "spawn") return this.#fallback(spec.command, plan);
    if (plan.kind === "node") return this.#runNode(plan, spec);
    const entry = this.#entry(plan, startEnvOf(spec.env));
    if ("code" in entry) return this.#fallback(spec.command, entry);
    if (!entry.ready) return this.#fallback(spec.command, { code: "starting", reason: "its interpreter is still starting" });
    this.#warmRuns += 1;
    return runWarm(entry.server, entry.broker, plan, spec, shellEnv(spec.env, spec.cwd));
  }

  /** Settles when every fork server started so far serves or has failed (prepared ahead of the events). */
  async whenStarted(): Promise<void> {
    await Promise.allSettled([...[...this.#servers.values()].map((entry) => entry.serving), ...[...this.#spares.values()].map((entry) => entry.spares.whenReady())]);
  }

  /** The fork servers' process ids (tests crash them). */
  serverPids(): number[] {
    return [...this.#servers.values()].flatMap((entry) => (entry.server.pid === undefined ? [] : [entry.server.pid]));
  }

  /** The idle Node spares' process ids (tests inspect and crash them). */
  sparePids(): number[] {
    return [...this.#spares.values()].flatMap((entry) => entry.spares.pids());
  }

  close(): void {
    this.#closed = true;
    for (const entry of this.#servers.values()) entry.server.stop();
    this.#servers.clear();
    this.#broker?.close();
    for (const { spares } of this.#spares.values()) spares.close();
    this.#spares.clear();
    if (this.#sparesDir !== undefined) rmSync(this.#sparesDir, { recursive: true, force: true });
  }

  #runNode(plan: NodePlan, spec: RunSpec): Promise<RunResult> | undefined {
    const spares = this.#nodeSpares(plan, startEnvOf(spec.env, NODE_START_VARIABLE));
    if ("code" in spares) return this.#fallback(spec.command, spares);
    const spare = spares.take();
    // Under a burst beyond the spares (or before the first is ready) the run is spawned, as before.
    if (spare === undefined) return this.#fallback(spec.command, { code: "no_spare", reason: `no Node spare of ${plan.interpreter} is ready (all ${this.options.nodeSpares ?? 2} in use or starting)` });
    this.#warmRuns += 1;
    return runOnSpare(spare, plan, spec, shellEnv(spec.env, spec.cwd));
  }

  /** The spares for this node and start-up environment, started if need be; or why there are none. */
  #nodeSpares(plan: NodePlan, startEnv: Record<string, string>): NodeSpares | Refusal {
    const key = `${plan.interpreter}\0${plan.argv0}\0${JSON.stringify(startEnv)}`;
    const identity = identityOf(plan.interpreter);
    if (identity === undefined) return { code: "interpreter_unreadable", reason: `${plan.interpreter} cannot be read` };
    const existing = this.#spares.get(key);
    if (existing !== undefined && existing.identity === identity) {
      return existing.spares.failed ? { code: "start_failed", reason: `node spares of ${plan.interpreter} failed to start` } : existing.spares;
    }
    // A replaced or upgraded node gets new spares; the old ones are never used again.
    existing?.spares.close();
    this.#spares.delete(key);
    if (this.#spares.size >= (this.options.maxServers ?? 4)) return { code: "server_limit", reason: `the limit of ${this.options.maxServers ?? 4} warm node interpreters is reached` };
    const dir = (this.#sparesDir ??= privateSparesDir());
    const spares = new NodeSpares(plan.interpreter, plan.argv0, startEnv, this.options.nodeSpares ?? 2, dir, join(dir, "preload.cjs"), (why) => {
      this.#restarts += 1;
      this.options.onServerExit?.(plan.interpreter, why);
    });
    this.#spares.set(key, { identity, spares });
    return spares;
  }

  #fallback(command: string, { code, reason }: Refusal): undefined {
    this.#fallbacks[code] = (this.#fallbacks[code] ?? 0) + 1;
    const key = `${command}\0${reason}`;
    if (!this.#said.has(key)) {
      this.#said.add(key);
      this.options.onFallback?.(command, reason);
    }
    return undefined;
  }

  /** The fork server for this interpreter and start-up environment, started if need be; or why there is none. */
  #entry(plan: PythonPlan, startEnv: Record<string, string>): Entry | Refusal {
    const key = `${plan.interpreter}\0${JSON.stringify(startEnv)}`;
    const identity = identityOf(plan.interpreter);
    if (identity === undefined) return { code: "interpreter_unreadable", reason: `${plan.interpreter} cannot be read` };
    const existing = this.#servers.get(key);
    if (existing !== undefined && existing.identity === identity) return existing;
    if (existing !== undefined) {
      // The interpreter changed on disk: runs from now on get one started from the new file;
      // the old one finishes the runs it has.
      existing.server.retire();
      this.#servers.delete(key);
    }
    if ((this.#failedStarts.get(key) ?? 0) >= MAX_FAILED_STARTS) return { code: "start_failed", reason: `the fork server for ${plan.interpreter} failed to start ${MAX_FAILED_STARTS} times` };
    if (this.#servers.size >= (this.options.maxServers ?? 4)) return { code: "server_limit", reason: `the limit of ${this.options.maxServers ?? 4} warm interpreters is reached` };
    if (this.#dead.delete(key)) this.#restarts += 1;
    const broker = (this.#broker ??= new StreamBroker());
    const server = new ForkServer(plan.interpreter, startEnv, (why) => {
      if (this.#servers.get(key)?.server === server) this.#servers.delete(key);
      this.#dead.add(key);
      if (!entry.ready) this.#failedStarts.set(key, (this.#failedStarts.get(key) ?? 0) + 1);
      this.options.onServerExit?.(plan.interpreter, why);
    });
    const entry: Entry = { server, broker, identity, ready: false, serving: Promise.resolve() };
    entry.serving = Promise.all([server.ready, broker.listening]).then(() => {
      entry.ready = true;
      this.#failedStarts.delete(key);
    });
    // A server that never serves is counted by its exit; nobody need be waiting for it.
    entry.serving.catch(() => {});
    this.#servers.set(key, entry);
    return entry;
  }
}

function startEnvOf(env: NodeJS.ProcessEnv, variables = START_VARIABLE): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && variables.test(name)) out[name] = value;
  return out;
}

/** A directory only the daemon's user can enter (mkdtemp makes it 0700), with the spares' preload. */
function privateSparesDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "hookd-node-"));
  writeFileSync(join(dir, "preload.cjs"), NODE_SPARE_PRELOAD, { mode: 0o600 });
  return dir;
}
