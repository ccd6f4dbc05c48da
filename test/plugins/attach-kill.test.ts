// A plugin process killed while calls are in flight on its Attach stream: every in-flight call
// gets its failure-policy decision (unavailable, or crashed for a managed plugin whose process
// died), the stream is opened again to the next process, and the next call is served over it.
// The plugin is a real node process served with the BUILT @hookd/sdk (run `npm run build` first).
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
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
import { ManagedPlugin, RemotePlugin } from "../../daemon/src/plugins/index.js";
import type { RemoteStatus } from "../../daemon/src/plugins/index.js";

const FIXTURE = fileURLToPath(new URL("../fixtures/plugins/managed-plugin.mjs", import.meta.url));
const BUILT_SDK = fileURLToPath(new URL("../../sdk/dist/index.js", import.meta.url));
const HEALTH = { initialBackoffMs: 20, maxBackoffMs: 200, ejectAfterFailures: 1_000 };

let dir: string;
let cleanups: (() => Promise<void> | void)[];

beforeAll(() => {
  if (!existsSync(BUILT_SDK)) throw new Error("the fixture imports the built SDK: run `npm run build` first");
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-ak-"));
  cleanups = [];
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

function bash(command: string, callId: string): PreToolEvent {
  const args = snapshotJson({ command });
  return {
    session: { sessionId: "s1", agentId: "agent", cwd: "/" },
    call: { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s1", turn: 1, step: 1 },
  };
}

const ctxFor: ContextFactory<"pre-tool"> = (abort) => ({ signal: abort.signal, plugin: "fixture", next: () => Promise.reject(new Error("no inner plugins")) });

function preTool(plugin: RemotePlugin | ManagedPlugin): Listener<"pre-tool"> {
  const found = plugin.listeners().find((listener) => listener.point === "pre-tool");
  if (found === undefined) throw new Error("no pre-tool listener");
  return found as Listener<"pre-tool">;
}

const call = (plugin: RemotePlugin | ManagedPlugin, command: string, callId = "c1") => callListener(preTool(plugin), bash(command, callId), ctxFor, { signal: new AbortController().signal });

/** Starts the fixture on `socket`; resolves once it listens. */
async function startFixture(socket: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [FIXTURE], { env: { ...process.env, HOOKD_PLUGIN_SOCKET: socket }, stdio: ["ignore", "pipe", "inherit"] });
  cleanups.push(() => {
    child.kill("SIGKILL");
  });
  await new Promise<void>((resolve, reject) => {
    child.once("exit", (code, signal) => reject(new Error(`the fixture exited (${code ?? signal}) before it listened`)));
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("listening on")) resolve();
    });
  });
  return child;
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

/** Polls (bounded) with allow calls until the plugin answers one itself. */
async function untilAnswered(plugin: RemotePlugin | ManagedPlugin): Promise<void> {
  await expect
    .poll(async () => (await call(plugin, "ls", "poll")).invocation.outcome, { timeout: 20_000, interval: 50 })
    .toBe("answered");
}

describe("a plugin killed mid-stream", () => {
  it("remote: the in-flight calls fail as unavailable under the policy, the stream reopens to the next process, the next call is served", async () => {
    const socket = join(dir, "k.sock");
    const first = await startFixture(socket);
    const plugin = new RemotePlugin({ name: "fixture", target: `unix://${socket}`, health: HEALTH, defaultDeadlineMs: 20_000 });
    cleanups.push(() => plugin.close());
    await plugin.start();
    expect(await call(plugin, "ls")).toMatchObject({ answer: { kind: "allow" }, invocation: { outcome: "answered" } });
    expect(plugin.status().transport).toBe("stream");

    const inFlight = ["a", "b", "c"].map((id) => call(plugin, "hang", id));
    await killed(first);
    for (const result of await Promise.all(inFlight)) {
      expect(result).toMatchObject({ answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "unavailable", detail: expect.stringContaining("cannot reach") as unknown } });
    }

    await startFixture(socket);
    await untilAnswered(plugin);
    expect(await call(plugin, "deny")).toMatchObject({ answer: { kind: "deny", reason: expect.stringMatching(/^fixture \d+ denies$/) as unknown }, invocation: { outcome: "answered" } });
    expect(plugin.status()).toMatchObject({ transport: "stream", health: "serving", refusedAnswers: 0 });
  });

  it("managed: the in-flight calls are crashed under the policy, the process restarts, the stream reopens and serves the next call", async () => {
    const plugin = new ManagedPlugin({ name: "fixture", command: process.execPath, args: [FIXTURE], runtimeDir: dir, health: HEALTH, startTimeoutMs: 30_000, stopGraceMs: 5_000, defaultDeadlineMs: 20_000, output: () => {} });
    cleanups.push(() => plugin.close());
    await plugin.start();
    const firstPid = plugin.status().pid;
    if (firstPid === undefined) throw new Error("no pid");
    expect(await call(plugin, "ls")).toMatchObject({ invocation: { outcome: "answered" } });

    const restarted = new Promise<RemoteStatus>((resolve) => {
      const stop = plugin.onHealth(() => {
        const status = plugin.status();
        if (status.health === "serving" && status.restarts === 1) {
          stop();
          resolve(status);
        }
      });
    });
    const inFlight = ["a", "b", "c"].map((id) => call(plugin, "hang", id));
    process.kill(firstPid, "SIGKILL");
    for (const result of await Promise.all(inFlight)) {
      expect(result).toMatchObject({ answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "crashed" } });
    }
    const after = await restarted;
    expect(after.pid).not.toBe(firstPid);
    expect(await call(plugin, "deny")).toMatchObject({ answer: { kind: "deny", reason: `fixture ${String(after.pid)} denies` }, invocation: { outcome: "answered" } });
    expect(plugin.status().transport).toBe("stream");
  });
});
