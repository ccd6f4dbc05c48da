// The one way the end-to-end tests start a real `hookd serve` (daemon/dist, built by `npm run
// build`): with a config it writes to a temp dir or one the test wrote, under a prefix command,
// with stdout followed line by line or sent to a file; it waits for lines, the exit, and stops.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";

export const REPO = resolve(import.meta.dirname, "../..");
export const CLI = join(REPO, "daemon/dist/cli.js");

export interface LogLine {
  readonly level: string;
  readonly msg: string;
  readonly [key: string]: unknown;
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Lines of a child's output, with waits for a matching line. */
export class LineFollower {
  readonly lines: string[] = [];
  readonly #waiters = new Set<{ match: (line: string) => boolean; resolve: (line: string) => void }>();

  push(line: string): void {
    this.lines.push(line);
    for (const waiter of [...this.#waiters]) {
      if (waiter.match(line)) {
        this.#waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  }

  /** The first line (already seen, or to come) that matches, after index `from`. */
  wait(match: (line: string) => boolean, timeoutMs: number, what: string, from = 0): Promise<string> {
    const seen = this.lines.slice(from).find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolvePromise, reject) => {
      const waiter = {
        match,
        resolve: (line: string) => {
          clearTimeout(timer);
          resolvePromise(line);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last lines:\n${this.lines.slice(-15).join("\n")}`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}

/** A JSON log line as an object; undefined for anything else. */
export function parseLog(line: string): LogLine | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as LogLine) : undefined;
  } catch {
    return undefined;
  }
}

/** The test's environment without what systemd or a hookd config would hand the daemon by itself. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "JOURNAL_STREAM", "HOOKD_CONFIG", "HOOKD_SOCKET", "STATE_DIRECTORY"]) delete env[key];
  return env;
}

export interface RunningDaemon {
  readonly child: ChildProcess;
  /** Every stdout line as it came (empty when stdout goes to a file). */
  readonly stdout: LineFollower;
  readonly stderr: LineFollower;
  /** The stdout lines parsed, one per line (a line that is not JSON is { level: "raw", msg }). */
  readonly logs: LogLine[];
  readonly exited: Promise<Exit>;
  /** Resolves with the first log line (already seen or future) that matches. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** Waits for a log line with this `msg` (and fields matching `where`), after line `from`. */
  waitLog(msg: string, timeoutMs?: number, where?: (line: LogLine) => boolean, from?: number): Promise<LogLine>;
  /** Sends `signal` and waits for the exit; SIGKILL after `graceMs`. Removes a temp dir it made. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<Exit>;
}

/** A daemon on a config this helper wrote: one Unix socket listener in its temp dir. */
export interface DaemonProcess extends RunningDaemon {
  readonly dir: string;
  readonly socket: string;
  readonly target: string;
}

interface CommonOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Runs `...prefix node cli.js serve ...` (systemd-socket-activate, say). */
  readonly prefix?: readonly string[];
  readonly extraArgs?: readonly string[];
  /** An open file descriptor to write stdout to, instead of following it (as a journal stream). */
  readonly stdout?: number;
  /** Wait for "hookd serving" before resolving (default); false resolves once it is spawned. */
  readonly awaitServing?: boolean;
  readonly timeoutMs?: number;
}

export interface StartOptions extends CommonOptions {
  /** Config fields besides `listeners` (which is one Unix socket in the temp dir). */
  readonly config?: Record<string, unknown>;
}

export interface ConfigFileOptions extends CommonOptions {
  /** Serve the config the test wrote (its directory stays the test's to remove). */
  readonly configFile: string;
}

export function startDaemon(options: ConfigFileOptions): Promise<RunningDaemon>;
export function startDaemon(options?: StartOptions): Promise<DaemonProcess>;
export async function startDaemon(options: StartOptions | ConfigFileOptions = {}): Promise<RunningDaemon | DaemonProcess> {
  if ("configFile" in options) return launch(options.configFile, undefined, options);
  const dir = await mkdtemp(join(tmpdir(), "hookd-test-"));
  const socket = join(dir, "hookd.sock");
  const configPath = join(dir, "hookd.json");
  await writeFile(configPath, JSON.stringify({ listeners: [{ unix: socket }], ...options.config }, null, 2));
  const daemon = await launch(configPath, dir, options);
  return { ...daemon, dir, socket, target: `unix://${socket}` };
}

/** Spawns the daemon; `ownDir`, when given, is its cwd and is removed once it is stopped. */
async function launch(configPath: string, ownDir: string | undefined, options: CommonOptions): Promise<RunningDaemon> {
  const args = [CLI, "serve", "--config", configPath, ...(options.extraArgs ?? [])];
  const [command, ...rest] = [...(options.prefix ?? []), process.execPath, ...args];
  const child = spawn(command ?? process.execPath, rest, {
    cwd: ownDir,
    env: { ...cleanEnv(), ...options.env },
    stdio: ["ignore", options.stdout ?? "pipe", "pipe"],
  });
  const stdout = new LineFollower();
  const stderr = new LineFollower();
  const logs: LogLine[] = [];
  if (child.stdout !== null) {
    createInterface({ input: child.stdout }).on("line", (text) => {
      logs.push(parseLog(text) ?? { level: "raw", msg: text });
      stdout.push(text);
    });
  }
  if (child.stderr !== null) createInterface({ input: child.stderr }).on("line", (text) => stderr.push(text));
  const exited = new Promise<Exit>((resolveExit) => child.once("exit", (code, signal) => resolveExit({ code, signal })));
  const dump = (): string => `stderr:\n${stderr.lines.join("\n")}\nstdout:\n${stdout.lines.slice(-15).join("\n")}`;

  const waitForLog = async (match: (line: LogLine) => boolean, timeoutMs = 15_000, from = 0, what = "a matching log line"): Promise<LogLine> => {
    const line = await Promise.race([
      stdout.wait((text) => match(parseLog(text) ?? { level: "raw", msg: text }), timeoutMs, what, from).catch((error: unknown) => {
        throw new Error(`${error instanceof Error ? error.message : String(error)}\n${dump()}`);
      }),
      exited.then(({ code, signal }) => {
        throw new Error(`hookd exited (code ${code}, signal ${signal}) before ${what}; ${dump()}`);
      }),
    ]);
    return parseLog(line) ?? { level: "raw", msg: line };
  };
  const waitLog = (msg: string, timeoutMs = 15_000, where: (line: LogLine) => boolean = () => true, from = 0): Promise<LogLine> =>
    waitForLog((line) => line.msg === msg && where(line), timeoutMs, from, `log line "${msg}"`);

  const stop = async (signal: NodeJS.Signals = "SIGTERM", graceMs = 20_000): Promise<Exit> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    const exit = await exited;
    clearTimeout(timer);
    if (ownDir !== undefined) await rm(ownDir, { recursive: true, force: true });
    return exit;
  };

  const daemon: RunningDaemon = { child, stdout, stderr, logs, exited, waitForLog: (match, timeoutMs) => waitForLog(match, timeoutMs), waitLog, stop };
  if (options.awaitServing === false) return daemon;
  try {
    await waitLog("hookd serving", options.timeoutMs ?? 20_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return daemon;
}

/**
 * Writes an in-process plugin module (plain ESM importing the built @hookd/sdk). It lives under
 * the repo's ignored test/.tmp so that "@hookd/sdk" resolves from the workspace's node_modules.
 */
/**
 * An in-process plugin (for writePluginModule) that holds every pre-tool call whose command is
 * "hold" until the file HOOKD_TEST_RELEASE exists (bounded by the call's own signal), logging
 * "started <agent> <callId>" to HOOKD_TEST_LOG as it starts holding each; it passes on the rest.
 */
export const HOLDING_PLUGIN = `
import { appendFileSync, existsSync } from "node:fs";
import { definePlugin, pass } from "@hookd/sdk";
export default definePlugin({
  name: "holding",
  points: {
    "pre-tool": {
      deadlineMs: 60000,
      handler: async (e, ctx) => {
        if (String(e.call.arguments.command ?? "") !== "hold") return pass();
        appendFileSync(process.env.HOOKD_TEST_LOG, "started " + e.session.agentId + " " + e.call.callId + "\\n");
        while (!existsSync(process.env.HOOKD_TEST_RELEASE) && !ctx.signal.aborted) await new Promise((r) => setTimeout(r, 10));
        return pass();
      },
    },
  },
});
`;

export async function writePluginModule(name: string, source: string): Promise<string> {
  const root = join(REPO, "test/.tmp");
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(join(root, "plugins-"));
  const path = join(dir, `${name}.mjs`);
  await writeFile(path, source);
  return path;
}

/** Waits until a file (a plugin's log, say) contains `text`. */
export async function waitForFile(path: string, text: string, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if ((await readFile(path, "utf8")).includes(text)) return;
    if (Date.now() > until) throw new Error(`"${text}" never appeared in ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
