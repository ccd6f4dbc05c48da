// Starts the real `hookd serve` (daemon/dist, built by `npm run build`) in a temp dir with a
// config written for the test, waits for its "hookd serving" log line, and stops it. Every log
// line is kept so tests can wait for or assert on what the daemon said.
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

export interface DaemonProcess {
  readonly dir: string;
  readonly socket: string;
  readonly target: string;
  readonly child: ChildProcess;
  readonly logs: LogLine[];
  /** Resolves with the first log line (already seen or future) that matches. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  /** SIGTERM, wait for exit; SIGKILL after `graceMs`. Removes the temp dir. */
  stop(graceMs?: number): Promise<number | null>;
}

export interface StartOptions {
  /** Config fields besides `listeners` (which is one Unix socket in the temp dir). */
  readonly config?: Record<string, unknown>;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
}

export async function startDaemon(options: StartOptions = {}): Promise<DaemonProcess> {
  const dir = await mkdtemp(join(tmpdir(), "hookd-test-"));
  const socket = join(dir, "hookd.sock");
  const config = { listeners: [{ unix: socket }], ...options.config };
  const configPath = join(dir, "hookd.json");
  await writeFile(configPath, JSON.stringify(config, null, 2));
  const child = spawn(process.execPath, [CLI, "serve", "--config", configPath], {
    cwd: dir,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: LogLine[] = [];
  const waiters = new Set<{ match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }>();
  const stderr: string[] = [];
  createInterface({ input: child.stdout }).on("line", (text) => {
    let line: LogLine;
    try {
      line = JSON.parse(text) as LogLine;
    } catch {
      line = { level: "raw", msg: text };
    }
    logs.push(line);
    for (const waiter of [...waiters]) {
      if (waiter.match(line)) {
        waiters.delete(waiter);
        waiter.resolve(line);
      }
    }
  });
  createInterface({ input: child.stderr }).on("line", (text) => stderr.push(text));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const waitForLog = (match: (line: LogLine) => boolean, timeoutMs = 15_000): Promise<LogLine> => {
    const seen = logs.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise<LogLine>((resolve, reject) => {
      const waiter = { match, resolve: (line: LogLine) => (clearTimeout(timer), resolve(line)) };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`no matching log line within ${timeoutMs} ms; stderr:\n${stderr.join("\n")}\nlogs:\n${logs.map((l) => JSON.stringify(l)).join("\n")}`));
      }, timeoutMs);
      waiters.add(waiter);
      void exited.then((code) => {
        if (!waiters.has(waiter)) return;
        waiters.delete(waiter);
        clearTimeout(timer);
        reject(new Error(`hookd exited (${code}) before the expected log line; stderr:\n${stderr.join("\n")}`));
      });
    });
  };

  const stop = async (graceMs = 10_000): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
    return child.exitCode;
  };

  try {
    await waitForLog((line) => line.msg === "hookd serving", options.timeoutMs ?? 20_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { dir, socket, target: `unix://${socket}`, child, logs, waitForLog, stop };
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
