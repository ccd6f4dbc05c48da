// The processes a bench run starts: helper servers (ready when they print "ready"), real
// `hookd serve` daemons (ready on their "hookd serving" log line, as test/support does), and
// their cleanup. Every process is tracked and stopped by its own pid at the end of a scenario or
// of the run, whatever happens. Also reads a process's resident memory from /proc.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

export const REPO = resolve(import.meta.dirname, "../..");
export const BENCH_DIST = join(REPO, "bench/dist");
export const CLI = join(REPO, "daemon/dist/cli.js");

export interface Proc {
  readonly name: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** The last lines of stdout and stderr, for error messages. */
  readonly tail: string[];
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

const running = new Set<Proc>();

export interface StartOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** Ready when a line of stdout or stderr satisfies this. */
  readonly ready: (line: string) => boolean;
  readonly timeoutMs?: number;
}

export async function startProcess(name: string, command: string, args: readonly string[], options: StartOptions): Promise<Proc> {
  const child = spawn(command, args, {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const tail: string[] = [];
  const keep = (line: string): void => {
    tail.push(line);
    if (tail.length > 60) tail.shift();
  };
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  let markReady!: () => void;
  const ready = new Promise<void>((done) => (markReady = done));
  createInterface({ input: child.stdout }).on("line", (line) => {
    keep(line);
    if (options.ready(line)) markReady();
  });
  createInterface({ input: child.stderr }).on("line", (line) => {
    keep(line);
    if (options.ready(line)) markReady();
  });
  child.once("error", (error) => keep(`spawn error: ${error.message}`));
  const proc: Proc = {
    name,
    pid: child.pid ?? -1,
    child,
    tail,
    stop: async (graceMs = 5_000) => {
      running.delete(proc);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
        await exited;
        clearTimeout(timer);
      }
    },
  };
  running.add(proc);
  const timeoutMs = options.timeoutMs ?? 20_000;
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    ready.then(() => "ready" as const),
    exited.then(() => "exited" as const),
    new Promise<"timeout">((done) => (timer = setTimeout(() => done("timeout"), timeoutMs))),
  ]);
  clearTimeout(timer);
  if (outcome !== "ready") {
    await proc.stop(500);
    throw new Error(`${name} ${outcome === "exited" ? `exited (${child.exitCode ?? child.signalCode})` : `not ready within ${timeoutMs} ms`}:\n${tail.join("\n")}`);
  }
  return proc;
}

/** A Node script of bench/dist, ready when it prints "ready". */
export function startNodeHelper(name: string, script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<Proc> {
  return startProcess(name, process.execPath, [...nodeArgs, join(BENCH_DIST, script), ...args], { ready: (line) => line === "ready" });
}

export interface DaemonOptions {
  readonly dir: string;
  readonly name: string;
  readonly config: Record<string, unknown>;
  /** Extra node flags, e.g. --cpu-prof. */
  readonly nodeArgs?: readonly string[];
  /** Another build's cli.js (an A/B comparison); default daemon/dist/cli.js. */
  readonly cli?: string;
}

export interface Daemon extends Proc {
  readonly target: string;
}

let daemons = 0;

/** Starts `hookd serve` with one Unix socket listener in `dir` and the given config fields. */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const unique = `${options.name}-${++daemons}`;
  const socket = join(options.dir, `${unique}.sock`);
  const configPath = join(options.dir, `${unique}.json`);
  await writeFile(configPath, JSON.stringify({ listeners: [{ unix: socket }], ...options.config }, null, 2));
  const proc = await startProcess(`hookd (${options.name})`, process.execPath, [...(options.nodeArgs ?? []), options.cli ?? CLI, "serve", "--config", configPath], {
    cwd: options.dir,
    ready: (line) => line.includes('"hookd serving"'),
  });
  return { ...proc, target: `unix://${socket}` };
}

export async function stopAll(): Promise<void> {
  await Promise.allSettled([...running].map((proc) => proc.stop(2_000)));
}

/** Resident set size of a process, in KiB (VmRSS of /proc/<pid>/status). */
export function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (match === null) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]);
}

/**
 * CPU time a process has used, in milliseconds: user + system, plus that of its children it has
 * waited for (a command hook's processes). Clock-tick resolution (10 ms at USER_HZ 100).
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // Fields after the parenthesized command name, which may itself contain spaces.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = [11, 12, 13, 14].reduce((total, index) => total + Number(fields[index]), 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_S;
}

/** USER_HZ: 100 on every Linux architecture Node supports. */
const CLOCK_TICKS_PER_S = 100;
