// A record of the managed plugin processes this daemon runs, so that a daemon started after one
// that was killed can end what it left behind. Each plugin set writes its own file in the
// runtime directory, `managed-<daemon pid>-<n>.json`, naming the daemon and each live plugin by
// pid and start time (field 22 of /proc/<pid>/stat): a pid the kernel has since reused is never
// mistaken for a plugin. sweepLeftovers() kills the plugins of files whose daemon is gone.
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Logger } from "../../log.js";

/** A process by pid and start time (field 22 of /proc/<pid>/stat: clock ticks after boot). */
const processSchema = z.object({ pid: z.number().int().positive(), startTime: z.string() });
const ledgerSchema = z.object({ daemon: processSchema, plugins: z.array(processSchema.extend({ plugin: z.string() })) });

export type LedgerFile = z.infer<typeof ledgerSchema>;
export type LedgerEntry = LedgerFile["plugins"][number];

const FILE = /^managed-\d+-\d+\.json$/;

/** A process's start time, or undefined when it is gone (or a zombie, or not on Linux /proc). */
export function processStartTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces: count from the last ")".
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  if (fields[0] === "Z" || fields[0] === "X") return undefined;
  return fields[19];
}

let files = 0;

export class ProcessLedger {
  readonly path: string;
  readonly #dir: string;
  readonly #daemon: LedgerFile["daemon"];
  readonly #entries = new Map<number, LedgerEntry>();
  readonly #onError: (error: unknown) => void;

  /** `onError`: a write failed (the record is then incomplete; the plugins run regardless). */
  constructor(dir: string, onError: (error: unknown) => void = () => {}) {
    this.#dir = dir;
    this.#onError = onError;
    this.path = join(dir, `managed-${process.pid}-${++files}.json`);
    this.#daemon = { pid: process.pid, startTime: processStartTime(process.pid) ?? "" };
  }

  /** Records a plugin process that just started. */
  add(plugin: string, pid: number): void {
    const startTime = processStartTime(pid);
    if (startTime === undefined) return; // already gone: nothing to leave behind
    this.#entries.set(pid, { plugin, pid, startTime });
    this.#write();
  }

  /** Forgets a plugin process that exited. */
  remove(pid: number): void {
    if (this.#entries.delete(pid)) this.#write();
  }

  #write(): void {
    try {
      if (this.#entries.size === 0) {
        rmSync(this.path, { force: true });
        return;
      }
      mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
      const record: LedgerFile = { daemon: this.#daemon, plugins: [...this.#entries.values()] };
      // Written whole and renamed into place: a daemon killed mid-write leaves the previous record.
      const temporary = `${this.path}.tmp`;
      writeFileSync(temporary, `${JSON.stringify(record)}\n`, { mode: 0o600 });
      renameSync(temporary, this.path);
    } catch (error) {
      this.#onError(error);
    }
  }
}

/**
 * Kills (SIGKILL) the plugins recorded in `dir` by daemons that are no longer running, when each
 * is still the process recorded (same pid and start time), and removes their files. Files of
 * running daemons are left alone. Returns the pids it killed. Never throws.
 */
export function sweepLeftovers(dir: string, log: Logger): number[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => FILE.test(name));
  } catch {
    return [];
  }
  const killed: number[] = [];
  for (const name of names) {
    const path = join(dir, name);
    let record: LedgerFile;
    try {
      record = ledgerSchema.parse(JSON.parse(readFileSync(path, "utf8")));
    } catch (error) {
      log.warn("unreadable managed plugin record removed", { path, error });
      rmSync(path, { force: true });
      continue;
    }
    if (processStartTime(record.daemon.pid) === record.daemon.startTime) continue; // its daemon still runs
    for (const entry of record.plugins) {
      if (processStartTime(entry.pid) !== entry.startTime) continue;
      try {
        process.kill(entry.pid, "SIGKILL");
        killed.push(entry.pid);
        log.warn("killed a managed plugin left running by a previous hookd", { plugin: entry.plugin, pid: entry.pid, daemonPid: record.daemon.pid });
      } catch (error) {
        log.warn("cannot kill a managed plugin left by a previous hookd", { plugin: entry.plugin, pid: entry.pid, error });
      }
    }
    rmSync(path, { force: true });
  }
  return killed;
}
