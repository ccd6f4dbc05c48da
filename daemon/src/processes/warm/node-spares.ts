// Pre-started Node processes for one node executable and start-up environment: each has started
// node and waits in its preload for exactly one run; a spare handed out is replaced off the
// critical path. Bounded: at most `count` spares; none ready means the run is spawned.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";

/** A started spare: its streams are the run's stdin, stdout and stderr; `control` takes the request. */
export interface NodeSpare {
  readonly process: ChildProcess;
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly control: Writable;
}

interface Pending {
  readonly spare: NodeSpare;
  ready: boolean;
}

/** Spares that died before they were ready this many times in a row are not started again. */
const MAX_FAILED_STARTS = 3;

export class NodeSpares {
  readonly #idle: Pending[] = [];
  #nextSlot = 0;
  #failedStarts = 0;
  #closed = false;
  /** Callers of whenReady waiting for a spare. */
  #waiters: Array<{ readonly resolve: () => void; readonly reject: (error: Error) => void }> = [];

  /**
   * `dir` is private to the daemon's user and holds the preload and the spares' slots; `startEnv`
   * holds only what node reads at its start (each run gets its own environment).
   */
  constructor(
    readonly interpreter: string,
    readonly argv0: string,
    readonly startEnv: Readonly<Record<string, string>>,
    readonly count: number,
    readonly dir: string,
    readonly preload: string,
    readonly onExit: (why: string) => void,
  ) {
    this.#fill();
  }

  /** Gave up after spares kept dying before they were ready. */
  get failed(): boolean {
    return this.#failedStarts >= MAX_FAILED_STARTS;
  }

  /** Settles once a spare is ready to take a run, or rejects when spares cannot start. */
  whenReady(): Promise<void> {
    if (this.#idle.some((pending) => pending.ready)) return Promise.resolve();
    if (this.failed) return Promise.reject(new Error(`node spares for ${this.interpreter} failed to start ${MAX_FAILED_STARTS} times`));
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** A ready spare for one run, or undefined (none ready: the run is spawned); a replacement starts. */
  take(): NodeSpare | undefined {
    const index = this.#idle.findIndex((pending) => pending.ready);
    const [taken] = index < 0 ? [] : this.#idle.splice(index, 1);
    setImmediate(() => this.#fill());
    return taken?.spare;
  }

  /** The idle spares' process ids (tests inspect and crash them). */
  pids(): number[] {
    return this.#idle.map((pending) => pending.spare.pid);
  }

  close(): void {
    this.#closed = true;
    for (const { spare } of this.#idle.splice(0)) killSpare(spare);
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new Error(`node spares for ${this.interpreter} were closed`));
  }

  #fill(): void {
    while (!this.#closed && !this.failed && this.#idle.length < this.count) this.#start();
  }

  #start(): void {
    const slot = join(this.dir, `slot-${process.pid}-${this.#nextSlot++}`);
    // detached: the spare leads its own process group, so the timeout's kill of the group reaches its children.
    const child = spawn(this.interpreter, ["--require", this.preload, slot], { argv0: this.argv0, cwd: "/", env: this.startEnv, detached: true, stdio: ["pipe", "pipe", "pipe", "pipe"] });
    const [stdin, stdout, stderr, control] = child.stdio;
    if (child.pid === undefined || stdin === null || stdout === null || stderr === null || !isDuplex(control)) {
      child.kill("SIGKILL");
      this.#died(undefined, `could not start ${this.interpreter}`);
      return;
    }
    const pending: Pending = { spare: { process: child, pid: child.pid, stdin, stdout, stderr, control }, ready: false };
    this.#idle.push(pending);
    stdin.on("error", () => {});
    control.on("error", () => {});
    control.once("data", () => {
      pending.ready = true;
      this.#failedStarts = 0;
      for (const waiter of this.#waiters.splice(0)) waiter.resolve();
    });
    child.once("exit", (code, signal) => {
      rmSync(slot, { force: true });
      const index = this.#idle.indexOf(pending);
      if (index < 0) return;
      // An idle spare died (killed from outside, or node failed to start): the next take refills.
      this.#idle.splice(index, 1);
      this.#died(pending, signal === null ? `exited with code ${String(code)}` : `was killed by ${signal}`);
    });
    child.once("error", () => {});
  }

  #died(pending: Pending | undefined, why: string): void {
    if (pending?.ready !== true) {
      this.#failedStarts += 1;
      if (this.failed) for (const waiter of this.#waiters.splice(0)) waiter.reject(new Error(`node spares for ${this.interpreter} failed to start ${MAX_FAILED_STARTS} times: ${why}`));
    }
    if (!this.#closed) this.onExit(why);
  }
}

function isDuplex(stream: Readable | Writable | null | undefined): stream is Readable & Writable {
  return stream !== null && stream !== undefined && "write" in stream && "on" in stream;
}

/** Ends a spare and whatever it started. */
export function killSpare(spare: NodeSpare): void {
  try {
    process.kill(-spare.pid, "SIGKILL");
  } catch {
    // ESRCH: already gone.
  }
}
