// Managed plugins with real processes: a node fixture served with the BUILT @hookd/sdk (run
// `npm run build` first) is spawned with HOOKD_PLUGIN_SOCKET, becomes healthy and answers; when
// it dies mid-call that call gets the failure-policy decision and the process is restarted; its
// output reaches the sink; shutdown escalates from SIGTERM to SIGKILL and leaves nothing behind.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { snapshotJson } from "@hookd/sdk";
import type { PreToolEvent } from "@hookd/sdk";
import { callListener } from "../../daemon/src/engine/invoke.js";
import type { ContextFactory } from "../../daemon/src/engine/invoke.js";
import type { Listener } from "../../daemon/src/engine/listener.js";
import { createLogger } from "../../daemon/src/log.js";
import { ManagedPlugin } from "../../daemon/src/plugins/index.js";
import type { ManagedPluginOptions, OutputStream, RemoteStatus } from "../../daemon/src/plugins/index.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/plugins/managed-plugin.mjs", import.meta.url));
const BUILT_SDK = fileURLToPath(new URL("../../sdk/dist/index.js", import.meta.url));

interface Line {
  readonly line: string;
  readonly stream: OutputStream;
}

let dir: string;
let plugins: ManagedPlugin[];

beforeAll(() => {
  if (!existsSync(BUILT_SDK)) throw new Error("the fixture imports the built SDK: run `npm run build` first");
});

beforeEach(async () => {
  // Short: a Unix socket path must fit in 107 bytes.
  dir = await mkdtemp(join(tmpdir(), "hookd-m-"));
  plugins = [];
});

afterEach(async () => {
  for (const plugin of plugins) await plugin.close();
  await rm(dir, { recursive: true, force: true });
});

/** Collects output lines; `waitFor` resolves at the first line matching a pattern, past or future. */
function outputSink() {
  const lines: Line[] = [];
  const waiters: { pattern: RegExp; resolve: (line: Line) => void }[] = [];
  return {
    lines,
    sink: (line: string, stream: OutputStream): void => {
      const entry = { line, stream };
      lines.push(entry);
      for (const waiter of waiters.splice(0)) {
        if (waiter.pattern.test(line)) waiter.resolve(entry);
        else waiters.push(waiter);
      }
    },
    waitFor: (pattern: RegExp): Promise<Line> => {
      const seen = lines.find((entry) => pattern.test(entry.line));
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiters.push({ pattern, resolve }));
    },
  };
}

function managed(options: Partial<ManagedPluginOptions> & Pick<ManagedPluginOptions, "output">): ManagedPlugin {
  const plugin = new ManagedPlugin({
    name: "fixture",
    command: process.execPath,
    args: [FIXTURE],
    runtimeDir: dir,
    health: { initialBackoffMs: 20, maxBackoffMs: 500, ejectAfterFailures: 5 },
    startTimeoutMs: 30_000,
    stopGraceMs: 5_000,
    defaultDeadlineMs: 20_000,
    ...options,
  });
  plugins.push(plugin);
  return plugin;
}

/** Resolves once the plugin's status satisfies `predicate` (checked now and at every health change). */
function statusBecomes(plugin: ManagedPlugin, predicate: (status: RemoteStatus) => boolean): Promise<RemoteStatus> {
  return new Promise((resolve) => {
    const check = (): boolean => {
      const current = plugin.status();
      if (!predicate(current)) return false;
      stop();
      resolve(current);
      return true;
    };
    const stop = plugin.onHealth(() => void check());
    check();
  });
}

function preTool(plugin: ManagedPlugin): Listener<"pre-tool"> {
  const found = plugin.listeners().find((listener) => listener.point === "pre-tool");
  if (found === undefined) throw new Error("no pre-tool listener");
  return found as Listener<"pre-tool">;
}

function bash(command: string): PreToolEvent {
  const args = snapshotJson({ command });
  return {
    session: { sessionId: "s1", agentId: "agent", cwd: "/" },
    call: { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s1", turn: 1, step: 1 },
  };
}

const ctxFor: ContextFactory<"pre-tool"> = (abort) => ({ signal: abort.signal, plugin: "fixture", next: () => Promise.reject(new Error("no inner plugins")) });
const call = (plugin: ManagedPlugin, command: string) => callListener(preTool(plugin), bash(command), ctxFor, { signal: new AbortController().signal });

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("managed plugins", () => {
  it("starts the process, answers, survives a crash mid-call through the failure policy, and restarts it", async () => {
    const output = outputSink();
    const plugin = managed({ output: output.sink });
    await plugin.start();
    const first = plugin.status();
    expect(first).toMatchObject({ name: "fixture", kind: "managed", health: "serving", restarts: 0, points: ["pre-tool"], manifest: { name: "fixture", version: "1.0.0" } });
    expect(first.target).toMatch(new RegExp(`^unix://${join(dir, "fixture")}-\\d+\\.sock$`));
    const firstPid = first.pid;
    if (firstPid === undefined) throw new Error("no pid");

    // Its output reaches the sink, line by line, with the stream it came from.
    expect(await output.waitFor(new RegExp(`^fixture ${firstPid} starting$`))).toEqual({ line: `fixture ${firstPid} starting`, stream: "stderr" });
    expect(await output.waitFor(/listening on unix:/)).toMatchObject({ stream: "stdout" });

    expect(await call(plugin, "ls")).toMatchObject({ answer: { kind: "allow" }, invocation: { kind: "managed", outcome: "answered" } });
    expect(await call(plugin, "deny")).toMatchObject({ answer: { kind: "deny", reason: `fixture ${firstPid} denies` } });

    const restarted = statusBecomes(plugin, (status) => status.health === "serving" && status.restarts === 1);
    const crashed = await call(plugin, "crash");
    expect(crashed).toMatchObject({ type: "answer", answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "crashed" } });
    expect(crashed.invocation.detail).toMatch(/^plugin fixture at pre-tool: crashed: cannot reach unix:.*fixture-\d+\.sock/);

    const after = await restarted;
    expect(alive(firstPid)).toBe(false); // exited and reaped: the restart waited for its exit
    expect(after.pid).toBeDefined();
    expect(after.pid).not.toBe(firstPid);
    expect(await call(plugin, "ls")).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    expect(await call(plugin, "deny")).toMatchObject({ answer: { kind: "deny", reason: `fixture ${String(after.pid)} denies` } });
  });

  it("stops a plugin that ignores SIGTERM with SIGKILL after the grace period, leaving no process behind", async () => {
    const output = outputSink();
    const records: Record<string, unknown>[] = [];
    const log = createLogger({ level: "debug", write: (line) => records.push(JSON.parse(line) as Record<string, unknown>) });
    const plugin = managed({ args: [FIXTURE, "--ignore-sigterm"], stopGraceMs: 300, output: output.sink, log });
    await plugin.start();
    const pid = plugin.status().pid;
    if (pid === undefined) throw new Error("no pid");
    expect(alive(pid)).toBe(true);

    await plugin.close();
    expect(alive(pid)).toBe(false);
    expect(await output.waitFor(/got SIGTERM \(ignored\)/)).toMatchObject({ stream: "stderr" });
    expect(records).toContainEqual(expect.objectContaining({ msg: "plugin process stopped", plugin: "fixture", exit: "killed by SIGKILL" }));
    expect(plugin.status()).toMatchObject({ health: "unavailable", restarts: 0 });
    expect(plugin.status().pid).toBeUndefined();
    expect(existsSync(plugin.socketPath)).toBe(false);
    // Calls after shutdown follow the failure policy without reaching anything.
    expect(await call(plugin, "ls")).toMatchObject({ answer: { kind: "deny" }, invocation: { fault: "unavailable" } });
  });

  it("stops a well-behaved plugin with SIGTERM alone", async () => {
    const records: Record<string, unknown>[] = [];
    const log = createLogger({ write: (line) => records.push(JSON.parse(line) as Record<string, unknown>) });
    const plugin = managed({ output: () => {}, log });
    await plugin.start();
    const pid = plugin.status().pid ?? -1;
    await plugin.close();
    expect(alive(pid)).toBe(false);
    expect(records).toContainEqual(expect.objectContaining({ msg: "plugin process stopped", exit: "exit code 0" }));
  });

  it("stops and retries a process that does not report SERVING within the start timeout", async () => {
    const plugin = managed({
      args: ["-e", "setInterval(() => {}, 1000);"],
      startTimeoutMs: 300,
      stopGraceMs: 1_000,
      output: () => {},
      overrides: { "pre-tool": {} },
    });
    const retried = statusBecomes(plugin, (status) => status.restarts >= 1);
    await plugin.start();
    // Still the first process: it is being stopped, and its exit has not been seen yet.
    const { pid: first, ...status } = plugin.status();
    expect(status).toMatchObject({ health: "unavailable", restarts: 0, lastError: "not healthy within 300 ms of its start" });
    expect(await call(plugin, "ls")).toMatchObject({ answer: { kind: "deny" }, invocation: { fault: "unavailable" } });
    expect((await retried).pid).not.toBe(first);
    expect(alive(first ?? -1)).toBe(false);
  });

  it("keeps a plugin whose command cannot start unavailable, answering through its configured failure policy", async () => {
    const plugin = managed({ command: join(dir, "no-such-plugin"), args: [], output: () => {}, overrides: { "pre-tool": { failurePolicy: "fail-open" } } });
    const retried = statusBecomes(plugin, (status) => status.restarts >= 1);
    await plugin.start();
    expect(plugin.status()).toMatchObject({ health: expect.stringMatching(/^(unavailable|starting)$/) as unknown, points: ["pre-tool"] });
    expect(await call(plugin, "ls")).toMatchObject({ answer: { kind: "pass" }, invocation: { outcome: "fault", fault: "unavailable" } });
    await retried; // it keeps trying
    expect(plugin.status().lastError).toMatch(/could not start: spawn .*ENOENT|starting|restarting/);
  });
});
