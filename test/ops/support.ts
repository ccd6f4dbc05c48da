// Harness for the ops tests: runs the built `hookd` (daemon/dist/cli.js) as a real process with a
// config in a temporary directory, follows its JSON log lines so a test can wait for one, and
// gives typed HookHost / HookAdmin clients and a datagram receiver standing in for systemd's
// NOTIFY_SOCKET. Nothing here sleeps to synchronize: every wait is for a line, a message or an
// exit, with a bounded timeout.
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { stringify } from "yaml";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const CLI = join(ROOT, "daemon/dist/cli.js");
export const FIXTURES = join(ROOT, "test/ops/fixtures");

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` before the ops tests`);

export type LogLine = Readonly<Record<string, unknown>> & { readonly msg?: string };

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

export function parseLog(line: string): LogLine | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as LogLine) : undefined;
  } catch {
    return undefined;
  }
}

export interface DaemonProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: LineFollower;
  readonly stderr: LineFollower;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Waits for a JSON log line with this `msg` (and fields matching `where`). */
  waitLog(msg: string, timeoutMs?: number, where?: (line: LogLine) => boolean, from?: number): Promise<LogLine>;
  /** Sends a signal and waits for the exit. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  readonly env?: NodeJS.ProcessEnv;
  /** Runs `command ...prefix node cli.js serve ...` instead (systemd-socket-activate). */
  readonly prefix?: readonly string[];
  readonly extraArgs?: readonly string[];
}

const BASE_ENV = (): NodeJS.ProcessEnv => {
  const env = { ...process.env };
  for (const key of ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "HOOKD_CONFIG", "HOOKD_SOCKET", "STATE_DIRECTORY"]) delete env[key];
  return env;
};

/** Starts `hookd serve --config <configPath>`. */
export function spawnDaemon(configPath: string, options: SpawnOptions = {}): DaemonProcess {
  const args = [CLI, "serve", "--config", configPath, ...(options.extraArgs ?? [])];
  const [command, ...rest] = options.prefix === undefined ? [process.execPath, ...args] : [...options.prefix, process.execPath, ...args];
  const child = spawn(command ?? process.execPath, rest, { env: { ...BASE_ENV(), ...options.env }, stdio: ["pipe", "pipe", "pipe"] });
  const stdout = new LineFollower();
  const stderr = new LineFollower();
  createInterface({ input: child.stdout }).on("line", (line) => stdout.push(line));
  createInterface({ input: child.stderr }).on("line", (line) => stderr.push(line));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolvePromise) => {
    child.once("exit", (code, signal) => resolvePromise({ code, signal }));
  });
  const waitLog = async (msg: string, timeoutMs = 15_000, where: (line: LogLine) => boolean = () => true, from = 0): Promise<LogLine> => {
    const line = await Promise.race([
      stdout.wait((l) => {
        const parsed = parseLog(l);
        return parsed?.msg === msg && where(parsed);
      }, timeoutMs, `log line "${msg}"`, from),
      exited.then(({ code, signal }) => {
        throw new Error(`hookd exited (code ${code}, signal ${signal}) before logging "${msg}"; stderr:\n${stderr.lines.join("\n")}\nstdout:\n${stdout.lines.slice(-15).join("\n")}`);
      }),
    ]);
    return parseLog(line) ?? {};
  };
  return {
    child,
    stdout,
    stderr,
    exited,
    waitLog,
    stop: async (signal = "SIGTERM", timeoutMs = 20_000) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          child.kill("SIGKILL");
          reject(new Error(`hookd did not exit within ${timeoutMs} ms of ${signal}`));
        }, timeoutMs);
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** A temporary directory with helpers to write a config; removed by `cleanup`. */
export class Workdir {
  readonly path = mkdtempSync(join(tmpdir(), "hookd-ops-"));

  file(name: string): string {
    return join(this.path, name);
  }

  /** Writes `config` as YAML (objects) or as given (strings); returns the path. */
  writeConfig(config: unknown, name = "hookd.yaml"): string {
    const path = this.file(name);
    writeFileSync(path, typeof config === "string" ? config : stringify(config));
    return path;
  }

  read(name: string): string {
    return readFileSync(this.file(name), "utf8");
  }

  cleanup(): void {
    rmSync(this.path, { recursive: true, force: true });
  }
}

export function pluginEntry(name: "policy" | "tagger", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, kind: "in-process", module: join(FIXTURES, `${name}.mjs`), ...extra };
}

export type HostClient = TypedClient<typeof pb.HookHost>;
export type AdminClient = TypedClient<typeof pb.HookAdmin>;

export function hostClient(socket: string): HostClient {
  return createClient(pb.HookHost, `unix://${socket}`);
}

export function adminClient(socket: string): AdminClient {
  return createClient(pb.HookAdmin, `unix://${socket}`);
}

export { closeClient, pb };

/** One pre-tool evaluate call; resolves with the decision's case and reason. */
export async function preTool(
  client: HostClient,
  call: { sessionId: string; callId: string; toolName: string; args?: Record<string, unknown>; agentId?: string },
  timeoutMs = 15_000,
): Promise<{ decision: string; reason: string; decidedBy: string }> {
  const response = await client.evaluatePreTool(
    {
      event: {
        session: { sessionId: call.sessionId, agentId: call.agentId ?? "ops-test" },
        call: {
          callId: call.callId,
          rootCallId: call.callId,
          toolName: call.toolName,
          argumentsJson: JSON.stringify(call.args ?? {}),
          sessionId: call.sessionId,
          turn: 1,
          step: 1,
        },
      },
    },
    { timeoutMs, waitForReady: true },
  );
  const decision = response.decision?.decision;
  const reason = decision?.case === "deny" ? decision.value.reason : "";
  return { decision: decision?.case ?? "none", reason, decidedBy: response.trace?.decidedBy ?? "" };
}

/** Audit records of a JSON-lines file. */
export function readAudit(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * A Unix datagram socket standing in for systemd's NOTIFY_SOCKET (python3: Node cannot bind
 * one). Each received datagram becomes one line of `messages` (newlines shown as "|"); the pid
 * the kernel vouches for as its sender (SCM_CREDENTIALS, as systemd checks NotifyAccess=main)
 * is in `senders`, one per message.
 */
export async function notifyReceiver(path: string): Promise<{ messages: LineFollower; senders: number[]; close: () => void }> {
  const script = [
    "import socket, struct, sys",
    "s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)",
    "s.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)",
    "s.bind(sys.argv[1])",
    "print('bound', flush=True)",
    "while True:",
    "    data, ancillary, _, _ = s.recvmsg(65536, socket.CMSG_SPACE(12))",
    "    pid = next((struct.unpack('iII', d)[0] for (level, kind, d) in ancillary if kind == socket.SCM_CREDENTIALS), 0)",
    "    print(str(pid) + '\\t' + data.decode().replace('\\n', '|'), flush=True)",
  ].join("\n");
  const child = spawn("python3", ["-c", script, path], { stdio: ["ignore", "pipe", "inherit"] });
  const messages = new LineFollower();
  const senders: number[] = [];
  createInterface({ input: child.stdout }).on("line", (line) => {
    const tab = line.indexOf("\t");
    if (tab >= 0) senders.push(Number(line.slice(0, tab)));
    messages.push(tab >= 0 ? line.slice(tab + 1) : line);
  });
  await messages.wait((line) => line === "bound", 10_000, "the notify receiver to bind");
  return { messages, senders, close: () => void child.kill("SIGKILL") };
}

export function which(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const candidate = join(dir, command);
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** Runs `hookd <args>` to completion. */
export function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...BASE_ENV(), ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`hookd ${args.join(" ")} did not finish within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}
