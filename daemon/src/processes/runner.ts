// Runs one command hook: `/bin/sh -c command` in the session's cwd, in its own process group,
// with the payload on stdin, stdout and stderr captured (bounded). On timeout or cancellation the
// whole group gets SIGKILL (`kill(-pgid)`), so a hook's background children die with it. Total:
// every outcome, including a failed spawn, comes back as a RunResult. Knows nothing of what the
// output means (each agent's output contract, agents/<agent>/output.ts, does).
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { Captured, RunResult } from "./hook-run.js";

export type { RunResult } from "./hook-run.js";

export interface RunSpec {
  readonly command: string;
  readonly cwd: string;
  /** The complete environment of the hook. */
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: string;
  readonly timeoutMs: number;
  /** Aborting kills the process group; the result is then "cancelled". */
  readonly signal: AbortSignal;
  /** Bytes kept of each of stdout and stderr; the rest is dropped. Default 1 MiB. */
  readonly maxOutputBytes?: number;
  /**
   * How long to wait for stdout/stderr to close after the shell exited (a background child may
   * hold them open). Default 250 ms; the child is left alone, only its pipes are let go.
   */
  readonly closeGraceMs?: number;
  /** Called once the process is running, with its process group id (tests use it). */
  readonly onSpawn?: (pgid: number) => void;
}


export const MIB = 1024 * 1024;

/** One stream's output, kept up to `max` bytes (the rest is dropped and marked). */
export class Capture {
  readonly #chunks: Buffer[] = [];
  #size = 0;
  truncated = false;
  constructor(readonly max: number) {}

  push(chunk: Buffer): void {
    const room = this.max - this.#size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept !== chunk) this.truncated = true;
    this.#chunks.push(kept);
    this.#size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }
}

/** SIGKILL to the whole group; a group that is already gone is fine. */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, "SIGKILL");
  } catch {
    // ESRCH: nothing left to kill.
  }
}

/** One run's bounded stdout and stderr, and what they hold with the time since the run began. */
export function runCapture(spec: Pick<RunSpec, "maxOutputBytes">): { readonly stdout: Capture; readonly stderr: Capture; readonly captured: (pgid: number | undefined) => Captured } {
  const started = performance.now();
  const stdout = new Capture(spec.maxOutputBytes ?? MIB);
  const stderr = new Capture(spec.maxOutputBytes ?? MIB);
  const captured = (pgid: number | undefined): Captured => ({
    stdout: stdout.text(),
    stderr: stderr.text(),
    truncated: stdout.truncated || stderr.truncated,
    durationMs: Math.round(performance.now() - started),
    ...(pgid === undefined ? {} : { pgid }),
  });
  return { stdout, stderr, captured };
}

/** Arms a run's timeout and its cancellation, each calling `stop` with why; the result disarms both. */
export function armStops(spec: Pick<RunSpec, "timeoutMs" | "signal">, stop: (why: "timeout" | "cancelled") => void): () => void {
  const timer = setTimeout(() => stop("timeout"), spec.timeoutMs);
  const onAbort = (): void => stop("cancelled");
  spec.signal.addEventListener("abort", onAbort, { once: true });
  return () => {
    clearTimeout(timer);
    spec.signal.removeEventListener("abort", onAbort);
  };
}

/** A run's resolver that settles once: the first result wins, after `cleanup` (timers, streams) has run. */
export function settleOnce(resolve: (result: RunResult) => void, cleanup: () => void): { readonly settled: () => boolean; readonly finish: (result: RunResult) => void } {
  let settled = false;
  return {
    settled: () => settled,
    finish: (result) => {
      if (settled) return;
      settled = true;
      cleanup();
      resolve(result);
    },
  };
}

/**
 * A run's stops and its end: its timeout and cancellation kill the process group (once it has
 * one) and are remembered; `finish` settles once, after disarming them and `cleanup`.
 */
export function stopsAndEnd(spec: Pick<RunSpec, "timeoutMs" | "signal">, group: () => number | undefined, resolve: (result: RunResult) => void, cleanup: () => void): { readonly stoppedBy: () => "timeout" | "cancelled" | undefined; readonly finish: (result: RunResult) => void } {
  let stoppedBy: "timeout" | "cancelled" | undefined;
  const disarm = armStops(spec, (why) => {
    stoppedBy ??= why;
    const pgid = group();
    if (pgid !== undefined) killGroup(pgid);
  });
  const { finish } = settleOnce(resolve, () => {
    disarm();
    cleanup();
  });
  return { stoppedBy: () => stoppedBy, finish };
}

/** The result of a run hookd stopped: its timeout, or its cancellation. */
export function stoppedResult(why: "timeout" | "cancelled", captured: Captured, timeoutMs: number): RunResult {
  return why === "timeout" ? { ...captured, end: "timeout", timeoutMs } : { ...captured, end: "cancelled" };
}

export function runHook(spec: RunSpec): Promise<RunResult> {
  const { stdout, stderr, captured } = runCapture(spec);
  if (spec.signal.aborted) return Promise.resolve({ ...captured(undefined), end: "cancelled" });

  return new Promise<RunResult>((resolve) => {
    let child: ChildProcessWithoutNullStreams;
    try {
      // detached: the shell becomes the leader of a new process group (setsid), so -pid reaches
      // every process the hook starts, and a terminal's signals do not reach the hook.
      child = spawn("/bin/sh", ["-c", spec.command], { cwd: spec.cwd, env: spec.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    } catch (error) {
      resolve({ ...captured(undefined), end: "spawn_error", message: (error as Error).message });
      return;
    }
    const pgid = child.pid;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const { stoppedBy, finish } = stopsAndEnd(spec, () => pgid, resolve, () => clearTimeout(graceTimer));
    const conclude = (): void => {
      const stopped = stoppedBy();
      if (stopped !== undefined) return finish(stoppedResult(stopped, captured(pgid), spec.timeoutMs));
      if (exit?.code !== null && exit?.code !== undefined) return finish({ ...captured(pgid), end: "exited", code: exit.code });
      return finish({ ...captured(pgid), end: "signaled", signal: exit?.signal ?? "unknown" });
    };

    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    // A hook that never reads stdin closes the pipe: EPIPE is not the hook's failure.
    child.stdin.on("error", () => {});
    child.on("error", (error) => {
      if (pgid !== undefined) killGroup(pgid);
      finish({ ...captured(pgid), end: "spawn_error", message: `cannot run /bin/sh in ${spec.cwd}: ${error.message}` });
    });
    child.on("exit", (code, signal) => {
      exit = { code, signal };
      graceTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        conclude();
      }, spec.closeGraceMs ?? 250);
    });
    child.on("close", (code: number | null, signal: NodeJS.Signals | null) => {
      exit ??= { code, signal };
      conclude();
    });
    if (pgid !== undefined) spec.onSpawn?.(pgid);
    child.stdin.end(spec.stdin);
  });
}
