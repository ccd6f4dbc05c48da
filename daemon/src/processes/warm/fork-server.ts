// One Python fork server: the interpreter process started with PYTHON_FORK_SERVER, and its control
// pipe. Hands out run requests and routes back each run's process id and exit status. When the
// process dies, every run still waiting hears it (their process groups are the caller's to kill).
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";
import { PYTHON_FORK_SERVER } from "./python-server-source.js";

export interface ForkRequest {
  readonly socket: string;
  readonly token: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly argv: readonly string[];
  readonly script: string;
  readonly executable: string;
}

export interface ForkEvents {
  /** The child leads its own process group now. */
  readonly started: (pid: number) => void;
  /** Exit code, or minus the signal number. */
  readonly ended: (status: number) => void;
  /** The fork server died before the run ended. */
  readonly lost: (why: string) => void;
}

interface ControlMessage {
  readonly ready?: number;
  readonly id?: number;
  readonly pid?: number;
  readonly status?: number;
}

function controlMessage(line: string): ControlMessage | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

export class ForkServer {
  readonly #process: ChildProcessWithoutNullStreams;
  readonly #runs = new Map<number, ForkEvents>();
  #nextId = 1;
  #stderr = "";
  #stopping = false;
  alive = true;
  /** Resolves once the interpreter has imported its modules and serves; rejects if it dies first. */
  readonly ready: Promise<void>;

  /** `startEnv` holds only what the interpreter's start depends on; each run gets its own environment. */
  constructor(readonly interpreter: string, startEnv: Readonly<Record<string, string>>, onExit: (why: string) => void) {
    this.#process = spawn(interpreter, ["-c", PYTHON_FORK_SERVER, Object.keys(startEnv).join(",")], { cwd: "/", env: startEnv, stdio: ["pipe", "pipe", "pipe"] });
    let markReady: () => void = () => {};
    let markFailed: (error: Error) => void = () => {};
    this.ready = new Promise((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    // Nobody may be awaiting ready when the server dies: the rejection is still handled.
    this.ready.catch(() => {});
    this.#process.stderr.on("data", (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString("utf8")).slice(-2000);
    });
    this.#process.stdin.on("error", () => {});
    createInterface({ input: this.#process.stdout }).on("line", (line) => {
      const message = controlMessage(line);
      // Output before the server took its stdout for itself (a sitecustomize that prints) is not ours.
      if (message === undefined) return;
      if (message.ready !== undefined) return markReady();
      const run = message.id === undefined ? undefined : this.#runs.get(message.id);
      if (run === undefined || message.id === undefined) return;
      if (message.pid !== undefined) run.started(message.pid);
      if (message.status !== undefined) {
        this.#runs.delete(message.id);
        run.ended(message.status);
      }
    });
    const died = (why: string): void => {
      if (!this.alive) return;
      this.alive = false;
      const detail = `${why}${this.#stderr === "" ? "" : `: ${this.#stderr.trim()}`}`;
      markFailed(new Error(`the Python fork server ${interpreter} ${detail}`));
      for (const run of this.#runs.values()) run.lost(detail);
      this.#runs.clear();
      if (!this.#stopping) onExit(detail);
    };
    this.#process.on("error", (error) => died(`could not start: ${error.message}`));
    this.#process.on("exit", (code, signal) => died(signal === null ? `exited with code ${String(code)}` : `was killed by ${signal}`));
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  fork(request: ForkRequest, events: ForkEvents): void {
    const id = this.#nextId++;
    this.#runs.set(id, events);
    this.#process.stdin.write(`${JSON.stringify({ id, ...request })}\n`);
  }

  /** Takes no more runs; the server ends once the runs it has report their end. */
  retire(): void {
    this.#stopping = true;
    this.#process.stdin.end();
  }

  /** Stops the server; runs already forked go on (their process groups are their own). */
  stop(): void {
    this.#stopping = true;
    this.#process.stdin.end();
    this.#process.kill("SIGKILL");
  }
}
