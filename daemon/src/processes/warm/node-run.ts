// One hook run on a Node spare, with the outcome a spawn through `/bin/sh -c` gives: the same
// captured streams, timeout and cancellation killing the spare's process group, the same grace
// for pipes a background child holds open, and a signal death reported as the shell reports it
// (exit code 128 + the signal's number and the signal's name on stderr).
import { readFileSync } from "node:fs";
import { constants } from "node:os";
import type { RunResult } from "../hook-run.js";
import { killGroup, runCapture, stopsAndEnd, stoppedResult } from "../runner.js";
import type { RunSpec } from "../runner.js";
import type { NodeSpare } from "./node-spares.js";
import type { NodePlan } from "./plan.js";

/** What dash prints when its command dies from a signal (glibc's strsignal). */
const SIGNAL_MESSAGES: Readonly<Partial<Record<NodeJS.Signals, string>>> = {
  SIGHUP: "Hangup",
  SIGQUIT: "Quit",
  SIGILL: "Illegal instruction",
  SIGTRAP: "Trace/breakpoint trap",
  SIGABRT: "Aborted",
  SIGBUS: "Bus error",
  SIGFPE: "Floating point exception",
  SIGKILL: "Killed",
  SIGUSR1: "User defined signal 1",
  SIGSEGV: "Segmentation fault",
  SIGUSR2: "User defined signal 2",
  SIGALRM: "Alarm clock",
  SIGTERM: "Terminated",
  SIGXCPU: "CPU time limit exceeded",
  SIGXFSZ: "File size limit exceeded",
  SIGVTALRM: "Virtual timer expired",
  SIGPROF: "Profiling timer expired",
  SIGSYS: "Bad system call",
};

/** The daemon's umask now, which a spawn would inherit (read from /proc: process.umask() without an argument is deprecated). */
function currentUmask(): number {
  const line = readFileSync("/proc/self/status", "utf8").split("\n").find((entry) => entry.startsWith("Umask:"));
  return line === undefined ? 0o022 : Number.parseInt(line.slice("Umask:".length).trim(), 8);
}

export function runOnSpare(spare: NodeSpare, plan: NodePlan, spec: RunSpec, env: Readonly<Record<string, string>>): Promise<RunResult> {
  const { stdout, stderr, captured } = runCapture(spec);
  const pgid = spare.pid;
  if (spec.signal.aborted) {
    killGroup(pgid);
    return Promise.resolve({ ...captured(undefined), end: "cancelled" });
  }

  return new Promise<RunResult>((resolve) => {
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const { stoppedBy, finish } = stopsAndEnd(spec, () => pgid, resolve, () => clearTimeout(graceTimer));
    const conclude = (): void => {
      const stopped = stoppedBy();
      if (stopped !== undefined) return finish(stoppedResult(stopped, captured(pgid), spec.timeoutMs));
      if (exit?.code !== null && exit?.code !== undefined) return finish({ ...captured(pgid), end: "exited", code: exit.code });
      const signal = exit?.signal ?? "SIGKILL";
      // The shell names the signal that ended its command, except an interrupt or a broken pipe.
      if (signal !== "SIGINT" && signal !== "SIGPIPE") stderr.push(Buffer.from(`${SIGNAL_MESSAGES[signal] ?? `Signal ${constants.signals[signal]}`}\n`));
      return finish({ ...captured(pgid), end: "exited", code: 128 + constants.signals[signal] });
    };

    spare.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    spare.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    spare.process.once("exit", (code, signal) => {
      exit = { code, signal };
      // A background child may hold the streams open: let them go after the grace, as a spawn does.
      graceTimer = setTimeout(() => {
        spare.stdout.destroy();
        spare.stderr.destroy();
        conclude();
      }, spec.closeGraceMs ?? 250);
    });
    spare.process.once("close", (code: number | null, signal: NodeJS.Signals | null) => {
      exit ??= { code, signal };
      conclude();
    });
    spec.onSpawn?.(pgid);
    spare.control.end(JSON.stringify({ script: plan.script, args: plan.args, env, cwd: spec.cwd, umask: currentUmask() }));
    spare.stdin.end(spec.stdin);
  });
}
