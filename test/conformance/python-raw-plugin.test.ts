// The raw Python conformance plugin run on its own as a remote plugin (--listen), as a
// re-admission test runs it: $HOOKD_CONFORMANCE_NOT_SERVING_MS holds its health at NOT_SERVING
// once it listens, then turns it SERVING; $HOOKD_CONFORMANCE_TRANSPORT=stream makes its manifest
// ask for the stream; a bad value of either is refused before it serves. Real processes and
// sockets; the plugin runs in the repository's venv (`npm run setup:polyglot`).
import { spawn, spawnSync } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { REPO } from "../support/daemon-process.js";

const PYTHON = join(REPO, ".venv/bin/python");
const PLUGIN = join(REPO, "test/conformance/plugins/python/conformance_plugin.py");
const BASE_ENV = { PYTHONPATH: join(REPO, "sdk-python/src"), PYTHONUNBUFFERED: "1" };
const { NOT_SERVING, SERVING } = pb.health.HealthCheckResponse_ServingStatus;
const STARTED_WITHIN_MS = 30_000;

let dir: string;
let socket: string;
const running: ChildProcess[] = [];

beforeAll(() => {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run \`npm run setup:polyglot\``);
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-pyraw-"));
  socket = join(dir, "plugin.sock");
});

afterEach(async () => {
  for (const child of running.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await exited;
    }
  }
  await rm(dir, { recursive: true, force: true });
});

/** Starts the plugin on the temp dir's socket; resolves once it says it serves. */
function start(env: Readonly<Record<string, string>>): Promise<void> {
  const child = spawn(PYTHON, [PLUGIN, "--listen", `unix:${socket}`], { env: { ...process.env, ...BASE_ENV, ...env }, stdio: ["ignore", "ignore", "pipe"] });
  running.push(child);
  return new Promise((resolve, reject) => {
    let said = "";
    const timer = setTimeout(() => reject(new Error(`the plugin did not serve within ${STARTED_WITHIN_MS} ms: ${said}`)), STARTED_WITHIN_MS);
    child.stderr?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("serving on")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the plugin exited (${code}) before serving: ${said}`));
    });
  });
}

async function withHealth<T>(use: (health: ReturnType<typeof createClient<typeof pb.health.Health>>) => Promise<T>): Promise<T> {
  const health = createClient(pb.health.Health, `unix:${socket}`);
  try {
    return await use(health);
  } finally {
    closeClient(health);
  }
}

describe("the raw Python conformance plugin as a remote plugin", () => {
  it("answers NOT_SERVING, for the server and for HookPlugin, while $HOOKD_CONFORMANCE_NOT_SERVING_MS runs", async () => {
    await start({ HOOKD_CONFORMANCE_NOT_SERVING_MS: "600000" });
    const statuses = await withHealth(async (health) => [(await health.check({ service: "" })).status, (await health.check({ service: "hookd.v1.HookPlugin" })).status]);
    expect(statuses).toEqual([NOT_SERVING, NOT_SERVING]);
  });

  it("turns SERVING once $HOOKD_CONFORMANCE_NOT_SERVING_MS has run out", async () => {
    await start({ HOOKD_CONFORMANCE_NOT_SERVING_MS: "200" });
    // The watch sends the status now and at every change: no polling, and no assumption about
    // how long the plugin took to start.
    const last = await withHealth(async (health) => {
      let seen: number | undefined;
      for await (const { status } of health.watch({ service: "hookd.v1.HookPlugin" }, { timeoutMs: 20_000 })) {
        seen = status;
        if (status === SERVING) break;
      }
      return seen;
    });
    expect(last).toBe(SERVING);
  });

  const transports: readonly { readonly value: string; readonly env: Readonly<Record<string, string>>; readonly expected: "UNSPECIFIED" | "STREAM" }[] = [
    { value: "unset", env: {}, expected: "UNSPECIFIED" },
    { value: "unary", env: { HOOKD_CONFORMANCE_TRANSPORT: "unary" }, expected: "UNSPECIFIED" },
    { value: "stream", env: { HOOKD_CONFORMANCE_TRANSPORT: "stream" }, expected: "STREAM" },
  ];
  it.each(transports)("HOOKD_CONFORMANCE_TRANSPORT $value: the manifest's transport is $expected", async ({ env, expected }) => {
    await start(env);
    const plugin = createClient(pb.HookPlugin, `unix:${socket}`);
    try {
      const { manifest } = await plugin.describe({ daemonVersion: "test", pluginName: "conformance-python" }, { timeoutMs: 10_000 });
      expect({ name: manifest?.name, transport: manifest?.transport }).toEqual({ name: "conformance-python", transport: pb.PluginTransport[expected] });
    } finally {
      closeClient(plugin);
    }
  });

  it.each([
    { variable: "HOOKD_CONFORMANCE_TRANSPORT", value: "bidi" },
    { variable: "HOOKD_CONFORMANCE_NOT_SERVING_MS", value: "soon" },
    { variable: "HOOKD_CONFORMANCE_NOT_SERVING_MS", value: "-5" },
  ])("refuses $variable=$value before serving, naming the variable", ({ variable, value }) => {
    const ran = spawnSync(PYTHON, [PLUGIN, "--listen", `unix:${socket}`], { env: { ...process.env, ...BASE_ENV, [variable]: value }, encoding: "utf8", timeout: 30_000 });
    expect({ exited: ran.status !== 0 && ran.status !== null, stderr: ran.stderr, listening: existsSync(socket) }).toEqual({
      exited: true,
      stderr: expect.stringContaining(`$${variable}`) as string,
      listening: false,
    });
  });
});
