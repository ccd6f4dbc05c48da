// startTestDaemon: a plugin against a REAL hookd daemon in one call. It writes a temporary config
// (one Unix socket listener in a fresh directory, the plugin as its only, required plugin), runs
// `hookd serve` as a child process (found by locate.ts; the SDK never imports the daemon), waits
// for the daemon's health to be SERVING and hands back the agent client's evaluate calls. A
// PluginDefinition is served in the test's process with servePlugin (a remote plugin); a command
// is started by the daemon itself (a managed plugin, any language); a module is loaded by the
// daemon (in-process or in its worker pool).
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectHost } from "../agent/connect.js";
import { DEFAULT_SESSION } from "../builders.js";
import type { HostClient } from "../agent/connect.js";
import type { Evaluator } from "../agent/evaluate.js";
import { HookdError } from "../errors.js";
import { closeClient, createClient } from "../grpc/client.js";
import type { PluginDefinition } from "../plugin.js";
import type { PointName } from "../points/index.js";
import * as pb from "../proto.js";
import { servePlugin } from "../serve/index.js";
import type { PluginServer } from "../serve/index.js";
import type { ServeTransport } from "../serve/handlers.js";
import { locateDaemon } from "./locate.js";

/** A plugin process the daemon starts (kind managed): it gets $HOOKD_PLUGIN_SOCKET. */
export interface PluginCommand {
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** A module default-exporting a definePlugin() definition, loaded by the daemon itself. */
export interface PluginModule {
  /** The name the definition gives itself (the daemon checks it). */
  readonly name: string;
  /** Absolute path of the built JavaScript module. */
  readonly module: string;
  /** "in-process" (the daemon's main thread, the default) or "worker" (its worker pool). */
  readonly kind?: "in-process" | "worker";
}

/** What startTestDaemon runs: a definition served from the test's process, a command, or a module. */
export type TestPlugin = PluginDefinition | PluginCommand | PluginModule;

/** Per-point overrides of the plugin's manifest, as the daemon's config takes them. */
export type PointOverrides = { readonly [P in PointName]?: { readonly tools?: readonly string[]; readonly priority?: number; readonly deadlineMs?: number; readonly failurePolicy?: "fail-closed" | "fail-open" } };

export interface TestDaemonOptions {
  /** The daemon's cli.js or a `hookd` executable; default: see locate.ts ($HOOKD_DAEMON, @hookd/daemon, PATH). */
  readonly daemon?: string;
  /** The plugin entry's `points` overrides (deadlines, failure policies, matchers). */
  readonly points?: PointOverrides;
  /** Top-level config fields besides `listeners` and `plugins` (e.g. `defaults`, `audit`). */
  readonly config?: Readonly<Record<string, unknown>>;
  /** For a PluginDefinition: the transport its manifest asks for (default the Attach stream). */
  readonly transport?: ServeTransport;
  /** The agent id the connection declares; events must carry it. Default DEFAULT_SESSION's ("agent"), as the builders do. */
  readonly agentId?: string;
  /** How long the daemon may take to serve (plugin start included). Default 30000 ms. */
  readonly startTimeoutMs?: number;
}

export interface TestDaemon extends Evaluator {
  /** The agent client connected to the daemon (sessions, evaluate calls). */
  readonly client: HostClient;
  /** The daemon's socket ("unix:///…"), where HookHost, HookAdmin and health answer. */
  readonly target: string;
  /** The temporary directory holding the config, the sockets and the daemon's state. */
  readonly dir: string;
  /** The daemon's process id. */
  readonly pid: number | undefined;
  /** What the daemon wrote so far (JSON log lines on stdout, then stderr). */
  output(): string;
  /** Stops the daemon (SIGTERM, SIGKILL after 10 s), the plugin and the client; removes `dir`. Idempotent. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const OUTPUT_LIMIT = 64 * 1024;
/** Variables a parent service manager may have set that must not reach the test's daemon. */
const WITHHELD_ENV = ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "STATE_DIRECTORY"];

export async function startTestDaemon(plugin: TestPlugin, options: TestDaemonOptions = {}): Promise<TestDaemon> {
  const daemon = locateDaemon(options.daemon);
  const dir = await mkdtemp(join(tmpdir(), "hookd-testing-"));
  const cleanups: (() => Promise<void> | void)[] = [() => rm(dir, { recursive: true, force: true })];
  const cleanUp = async (): Promise<void> => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  };
  try {
    const entry = await pluginEntry(plugin, dir, options, cleanups);
    const socket = join(dir, "hookd.sock");
    const configPath = join(dir, "hookd.json");
    const config = { ...options.config, listeners: [{ unix: socket }], plugins: [{ ...entry, required: true, ...(options.points === undefined ? {} : { points: options.points }) }] };
    await writeFile(configPath, JSON.stringify(config, null, 2));

    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: dir };
    for (const name of WITHHELD_ENV) delete env[name];
    const child = spawn(daemon.command, [...daemon.args, "serve", "--config", configPath], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const keep = (chunk: Buffer): void => void (output = (output + chunk.toString("utf8")).slice(-OUTPUT_LIMIT));
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const exited = new Promise<string>((done) => {
      child.once("error", (error) => done(`could not start ${daemon.command}: ${error.message}`));
      child.once("exit", (code, signal) => done(`exited (${signal ?? code ?? "?"})`));
    });
    // A test process that exits without close() leaves no daemon behind (its managed plugins exit with it).
    const killOnExit = (): void => void child.kill("SIGKILL");
    process.once("exit", killOnExit);
    cleanups.push(async () => {
      process.removeListener("exit", killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    });

    const target = `unix://${socket}`;
    const timeoutMs = options.startTimeoutMs ?? 30_000;
    const waiting = new AbortController();
    const ready = await Promise.race([serving(target, timeoutMs, waiting.signal), exited.then((why) => new Error(`hookd ${why} before serving`))]);
    waiting.abort(); // a daemon that exited leaves the health call waiting for readiness: end it
    if (ready !== undefined) throw new HookdError("unavailable", `startTestDaemon: ${ready.message}; its output:\n${output}`, { cause: ready });

    const client = connectHost(target, { agentId: options.agentId ?? DEFAULT_SESSION.agentId });
    cleanups.push(() => client.close());
    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => (closing ??= cleanUp());
    return Object.freeze({ ...client, client, target, dir, pid: child.pid, output: () => output, close, [Symbol.asyncDispose]: close });
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

async function pluginEntry(plugin: TestPlugin, dir: string, options: TestDaemonOptions, cleanups: (() => Promise<void> | void)[]): Promise<Record<string, unknown>> {
  if ("subscriptions" in plugin) {
    const server: PluginServer = await servePlugin(plugin, { socketPath: join(dir, "plugin.sock"), ...(options.transport === undefined ? {} : { transport: options.transport }) });
    cleanups.push(() => server.close());
    return { name: plugin.name, kind: "remote", target: server.address };
  }
  if ("module" in plugin) {
    if (typeof plugin.module !== "string" || plugin.module === "") throw new HookdError("invalid_argument", "startTestDaemon: plugin.module: expected the path of a built module");
    return { name: plugin.name, kind: plugin.kind ?? "in-process", module: plugin.module };
  }
  if (typeof plugin.command !== "string" || plugin.command === "") throw new HookdError("invalid_argument", "startTestDaemon: plugin.command: expected a command to run");
  return { name: plugin.name, kind: "managed", command: plugin.command, args: [...(plugin.args ?? [])], env: { ...plugin.env } };
}

/** Resolves undefined once the daemon's health answers SERVING, or with the reason it did not. */
async function serving(target: string, timeoutMs: number, signal: AbortSignal): Promise<Error | undefined> {
  const health = createClient(pb.health.Health, target);
  try {
    const { status } = await health.check({ service: "" }, { waitForReady: true, timeoutMs, signal });
    return status === pb.health.HealthCheckResponse_ServingStatus.SERVING ? undefined : new Error(`health is ${pb.health.HealthCheckResponse_ServingStatus[status]}`);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    closeClient(health);
  }
}
