// Managed plugins do not outlive their daemon: a real `hookd serve` SIGKILLed with a managed
// plugin running takes the plugin with it (setpriv --pdeathsig), and a daemon starting after one
// that left a plugin behind (recorded in its ledger in the runtime dir) kills that plugin, but
// not a process whose pid was reused (its start time differs). Waits are bounded polls of /proc
// or process exits, never sleeps standing in for an event.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtemp, readFile, readdir, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { processStartTime } from "../../daemon/src/plugins/managed/ledger.js";
import type { LedgerFile } from "../../daemon/src/plugins/managed/ledger.js";
import { startDaemon } from "../support/daemon-process.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/plugins/managed-plugin.mjs", import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function runtimeDir(): Promise<string> {
  // Short: the plugin's socket path under it must fit in 107 bytes.
  const dir = await mkdtemp(join(tmpdir(), "hookd-rt-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** Resolves once `pid` is gone (or a zombie nobody reaped yet); rejects after `timeoutMs`. */
async function gone(pid: number, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (processStartTime(pid) !== undefined) {
    if (Date.now() > until) throw new Error(`process ${pid} still runs`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** `promise`, or a rejection naming `what` once `timeoutMs` passed. */
function bounded<T>(promise: Promise<T>, what: string, timeoutMs = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.signalCode);
  return new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
}

/** A real process that would run for long, stopped by the test's cleanup if nothing else stops it. */
function sleeper(): ChildProcess & { pid: number } {
  const child = spawn("sleep", ["300"], { stdio: "ignore" });
  if (child.pid === undefined) throw new Error("sleep did not start");
  cleanups.push(async () => {
    child.kill("SIGKILL");
    await exited(child);
  });
  return child as ChildProcess & { pid: number };
}

describe("managed plugins and the daemon's death", () => {
  it("exit when the daemon is SIGKILLed", async () => {
    const xdg = await runtimeDir();
    const daemon = await startDaemon({
      config: { plugins: [{ name: "fixture", kind: "managed", command: process.execPath, args: [FIXTURE], required: true }] },
      env: { XDG_RUNTIME_DIR: xdg },
    });
    cleanups.push(async () => void (await daemon.stop()));
    const started = await daemon.waitForLog((line) => line.msg === "plugin process started");
    const pid = started.pid as number;
    expect(processStartTime(pid)).toBeDefined();
    // The daemon recorded it, for a sweep by the next daemon if it should survive.
    const [ledger] = (await readdir(join(xdg, "hookd"))).filter((name) => name.startsWith("managed-"));
    const record = JSON.parse(await readFile(join(xdg, "hookd", ledger ?? "none"), "utf8")) as LedgerFile;
    expect(record.plugins).toEqual([{ plugin: "fixture", pid, startTime: processStartTime(pid) }]);

    const killed = exited(daemon.child);
    daemon.child.kill("SIGKILL");
    expect(await killed).toBe("SIGKILL");
    await gone(pid);
  });

  it("left behind by a killed daemon are killed when the next daemon starts, unless their pid was reused", async () => {
    const xdg = await runtimeDir();
    const leftover = sleeper();
    const reused = sleeper();
    const deadDaemon = spawn("true");
    await exited(deadDaemon);
    const record: LedgerFile = {
      daemon: { pid: deadDaemon.pid ?? 1, startTime: "1" },
      plugins: [
        { plugin: "left", pid: leftover.pid, startTime: processStartTime(leftover.pid) ?? "" },
        { plugin: "reused", pid: reused.pid, startTime: `${processStartTime(reused.pid) ?? ""}0` },
      ],
    };
    await mkdir(join(xdg, "hookd"));
    const ledgerPath = join(xdg, "hookd", `managed-${record.daemon.pid}-1.json`);
    await writeFile(ledgerPath, JSON.stringify(record));
    const leftoverExit = exited(leftover);

    const daemon = await startDaemon({ env: { XDG_RUNTIME_DIR: xdg } });
    cleanups.push(async () => void (await daemon.stop()));
    expect(await bounded(leftoverExit, "the leftover's exit")).toBe("SIGKILL");
    expect(daemon.logs).toContainEqual(expect.objectContaining({ msg: "killed a managed plugin left running by a previous hookd", plugin: "left", pid: leftover.pid }));
    // The sweep runs before the daemon serves: by now it is done, and spared the reused pid.
    expect(processStartTime(reused.pid)).toBeDefined();
    expect(await readdir(join(xdg, "hookd"))).not.toContain(`managed-${record.daemon.pid}-1.json`);
  });
});
