// One run of a managed plugin's process: spawned with the socket path in its environment and a
// parent-death signal (parent-death.ts), its stdout and stderr handed on line by line, and
// stopped with SIGTERM, then SIGKILL after a grace period. Owns the child process and nothing
// else: restarts and health are the ManagedPlugin's.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { childEnv } from "../../child-env.js";
import { withParentDeathSignal } from "./parent-death.js";

export type OutputStream = "stdout" | "stderr";
/** Receives each line the plugin writes (without the newline). */
export type OutputSink = (line: string, stream: OutputStream) => void;

export interface ProcessSpec {
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the daemon's environment (without its service-manager variables: child-env.ts). */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all (e.g. ENOENT). */
  readonly error?: string;
}

/** Longer lines are cut here, so a plugin printing a huge blob cannot flood the log. */
const MAX_LINE = 16 * 1024;

export class PluginProcess {
  readonly #child: ChildProcess;
  readonly exited: Promise<ExitInfo>;
  #exit: ExitInfo | undefined;

  private constructor(child: ChildProcess) {
    this.#child = child;
    this.exited = new Promise<ExitInfo>((resolve) => {
      const done = (info: ExitInfo): void => {
        if (this.#exit !== undefined) return;
        this.#exit = info;
        resolve(info);
      };
      child.once("exit", (code, signal) => done({ code, signal }));
      // A spawn failure emits "error" without "exit"; after a start, "error" is only about kill() and is not an exit.
      child.once("error", (error) => {
        if (child.pid === undefined) done({ code: null, signal: null, error: error.message });
      });
    });
  }

  /** Spawns `spec` with `env` added, to be killed when the daemon dies; each output line goes to `sink`. */
  static spawn(spec: ProcessSpec, env: Readonly<Record<string, string>>, sink: OutputSink): PluginProcess {
    const environment = childEnv(process.env, { ...spec.env, ...env });
    const launch = withParentDeathSignal(spec.command, spec.args, environment, spec.cwd);
    const child = spawn(launch.command, launch.args, { cwd: spec.cwd, env: environment, stdio: ["ignore", "pipe", "pipe"] });
    const plugin = new PluginProcess(child);
    if (child.stdout) lines(child.stdout, (line) => sink(line, "stdout"));
    if (child.stderr) lines(child.stderr, (line) => sink(line, "stderr"));
    return plugin;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** True once the process has exited (or never started). */
  get gone(): boolean {
    return this.#exit !== undefined;
  }

  kill(signal: NodeJS.Signals): void {
    if (!this.gone) this.#child.kill(signal);
  }

  /** SIGTERM, then SIGKILL when it is still running after `graceMs`; resolves once it exited. */
  async stop(graceMs: number): Promise<ExitInfo> {
    if (this.#exit !== undefined) return this.#exit;
    this.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<"grace-over">((resolve) => {
      timer = setTimeout(() => resolve("grace-over"), graceMs);
    });
    const first = await Promise.race([this.exited, graceOver]);
    clearTimeout(timer);
    if (first === "grace-over") this.kill("SIGKILL");
    return this.exited;
  }
}

function lines(stream: Readable, onLine: (line: string) => void): void {
  stream.setEncoding("utf8");
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  reader.on("line", (line: string) => onLine(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line));
  // A read error on a dying child's pipe is not worth crashing the daemon for.
  stream.on("error", () => {});
}

/** "exit code 1", "signal SIGKILL" or "could not start: …", for logs and fault details. */
export function describeExit(info: ExitInfo): string {
  if (info.error !== undefined) return `could not start: ${info.error}`;
  if (info.signal !== null) return `killed by ${info.signal}`;
  return `exit code ${String(info.code)}`;
}
