// Re-admission of a remote plugin through a real daemon, for plugins written without an SDK (a
// raw grpc-js one and the raw Python conformance plugin): a plugin process killed and started
// again on the same address is checked (health, then Describe) before it gets another call.
// While its health says NOT_SERVING it gets none (its calls follow its failure policy, cause
// `unavailable`), and the manifest it describes then is the one applied: here it now offers
// Attach, so calls go over the stream. The admin status shows the lost connection at once.
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall } from "@hookd/sdk";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { afterEach, describe, expect, it } from "vitest";
import { REPO, startDaemon } from "../support/daemon-process.js";

/** How long the restarted plugin answers NOT_SERVING: long enough for many calls to try it. */
const WARM_UP_MS = 1_500;
const STARTED_WITHIN_MS = 30_000;

interface Life {
  readonly life: "1" | "2";
  readonly transport: "unary" | "stream";
  readonly notServingMs: number;
}

/** A plugin written without an SDK, run as a remote plugin on a fixed address. */
interface RawPlugin {
  readonly title: string;
  /** Its name in the daemon's config (it may describe itself under another). */
  readonly name: string;
  /** The command and environment of one life; it writes `ready` to `readyOn` once it listens. */
  command(address: string, life: Life, log: string): { readonly file: string; readonly args: readonly string[]; readonly env: Record<string, string>; readonly readyOn: "stdout" | "stderr"; readonly ready: string };
  /** The arguments of a pre-tool call it denies, and the reason it gives in a life. */
  readonly denied: { readonly arguments: Record<string, string>; readonly reason: (life: Life["life"]) => string };
  /** What it logs of the RPCs it received, when it does. */
  readonly logsRpcs: boolean;
}

const PYTHON = join(REPO, ".venv/bin/python");
const PLUGINS: readonly RawPlugin[] = [
  {
    title: "a raw grpc-js plugin",
    name: "readmission",
    command: (address, life, log) => ({
      file: process.execPath,
      args: [join(REPO, "test/fixtures/plugins/readmission-plugin.mjs"), address],
      env: { READMISSION_LIFE: life.life, READMISSION_TRANSPORT: life.transport, READMISSION_NOT_SERVING_MS: String(life.notServingMs), READMISSION_LOG: log },
      readyOn: "stdout",
      ready: "listening",
    }),
    denied: { arguments: { command: "ls" }, reason: (life) => `denied by life ${life}` },
    logsRpcs: true,
  },
  {
    title: "the raw Python conformance plugin",
    name: "readmission",
    command: (address, life) => {
      if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run \`npm run setup:polyglot\``);
      return {
        file: PYTHON,
        args: [join(REPO, "test/conformance/plugins/python/conformance_plugin.py"), "--listen", address],
        env: {
          PYTHONPATH: join(REPO, "sdk-python/src"),
          PYTHONUNBUFFERED: "1",
          HOOKD_CONFORMANCE_POINTS: "pre-tool",
          HOOKD_CONFORMANCE_TRANSPORT: life.transport,
          HOOKD_CONFORMANCE_NOT_SERVING_MS: String(life.notServingMs),
        },
        readyOn: "stderr",
        ready: "serving on",
      };
    },
    denied: { arguments: { scenario: "deny" }, reason: () => "conformance: denied by python" },
    logsRpcs: false,
  },
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Received {
  readonly life: string;
  readonly rpc: string;
  readonly serving: boolean;
}

/** One life of the plugin process; resolves once it listens. */
async function startPlugin(plugin: RawPlugin, address: string, life: Life, log: string): Promise<ChildProcess> {
  const { file, args, env, readyOn, ready } = plugin.command(address, life, log);
  const child = spawn(file, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  cleanups.push(() => void child.kill("SIGKILL"));
  const said: string[] = [];
  await new Promise<void>((listening, failed) => {
    const timer = setTimeout(() => failed(new Error(`the plugin did not listen within ${STARTED_WITHIN_MS} ms: ${said.join("\n")}`)), STARTED_WITHIN_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      failed(new Error(`the plugin exited with ${code} before it listened: ${said.join("\n")}`));
    });
    const lines = createInterface({ input: readyOn === "stdout" ? child.stdout : child.stderr });
    lines.on("line", (line) => {
      said.push(line);
      if (!line.includes(ready)) return;
      clearTimeout(timer);
      listening();
    });
  });
  return child;
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

const session: SessionInfo = { sessionId: "s1", agentId: "tester", cwd: "/" };
let calls = 0;
function call(plugin: RawPlugin): ToolCall {
  const args = snapshotJson(plugin.denied.arguments);
  const callId = `c${++calls}`;
  return { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: calls };
}

async function received(log: string): Promise<Received[]> {
  const text = await readFile(log, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Received);
}

async function status(target: string): Promise<pb.PluginStatus> {
  const admin = createClient(pb.HookAdmin, target);
  try {
    const { plugins } = await admin.listPlugins({}, { timeoutMs: 10_000 });
    const found = plugins[0];
    if (found === undefined) throw new Error("the daemon lists no plugin");
    return found;
  } finally {
    closeClient(admin);
  }
}

async function evaluate(client: HostClient, plugin: RawPlugin): Promise<{ reason: string; decidedBy: string; failureCause: string }> {
  const { decision, trace } = await client.evaluatePreTool({ session, call: call(plugin) });
  if (decision.kind !== "deny") throw new Error(`expected a deny, got ${decision.kind}`);
  return { reason: decision.reason, decidedBy: trace.decidedBy, failureCause: trace.failureCause ?? "" };
}

describe.each(PLUGINS)("$title, killed and started again on the same address", (plugin) => {
  it("gets no call until its health says SERVING and it is described, and its new manifest applies", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-readmission-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const address = `unix://${join(dir, "plugin.sock")}`;
    const log = join(dir, "received.jsonl");

    const first = await startPlugin(plugin, address, { life: "1", transport: "unary", notServingMs: 0 }, log);
    const daemon = await startDaemon({
      config: { plugins: [{ name: plugin.name, kind: "remote", target: address, health: { initialBackoffMs: 50, maxBackoffMs: 200 } }] },
    });
    const client = connectHost(daemon.target, { agentId: "tester" });
    cleanups.push(async () => {
      client.close();
      await daemon.stop();
    });
    expect(await evaluate(client, plugin)).toEqual({ reason: plugin.denied.reason("1"), decidedBy: plugin.name, failureCause: "" });
    expect(await status(daemon.target)).toMatchObject({ health: pb.PluginHealth.SERVING, transport: "unary" });

    await kill(first);
    // The lost connection shows at once, before any call tries the plugin.
    await expect.poll(async () => (await status(daemon.target)).health, { timeout: 10_000 }).not.toBe(pb.PluginHealth.SERVING);
    const down = await status(daemon.target);
    expect([pb.PluginHealth.CONNECTING, pb.PluginHealth.UNAVAILABLE]).toContain(down.health);
    expect(down.lastError).not.toBe("");

    await startPlugin(plugin, address, { life: "2", transport: "stream", notServingMs: WARM_UP_MS }, log);
    // During the warm-up every call is refused by the failure policy, and none reaches the plugin.
    const warmUp: Awaited<ReturnType<typeof evaluate>>[] = [];
    const warmUpEnds = Date.now() + WARM_UP_MS / 2;
    while (Date.now() < warmUpEnds) {
      warmUp.push(await evaluate(client, plugin));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(warmUp.length).toBeGreaterThan(3);
    for (const answer of warmUp) expect(answer).toMatchObject({ decidedBy: plugin.name, failureCause: "unavailable" });
    const warming = await status(daemon.target);
    expect(warming.health).toBe(pb.PluginHealth.UNAVAILABLE);
    expect(warming.lastError).toMatch(/NOT_SERVING/);

    await expect.poll(async () => await evaluate(client, plugin), { timeout: 15_000, interval: 100 }).toEqual({ reason: plugin.denied.reason("2"), decidedBy: plugin.name, failureCause: "" });
    if (plugin.logsRpcs) {
      const second = (await received(log)).filter((r) => r.life === "2");
      // Nothing but health checks while NOT_SERVING; then Describe before the first call.
      expect(second.filter((r) => !r.serving).map((r) => r.rpc)).toEqual(expect.arrayContaining(["Check"]));
      expect(second.filter((r) => !r.serving && r.rpc !== "Check")).toEqual([]);
      const rpcs = second.map((r) => r.rpc);
      const firstCall = rpcs.findIndex((rpc) => rpc === "PreTool" || rpc === "Attach.call");
      expect(rpcs.indexOf("Describe")).toBeGreaterThanOrEqual(0);
      expect(rpcs.indexOf("Describe")).toBeLessThan(firstCall);
      // The new manifest is applied: the calls now go over its Attach stream.
      expect(rpcs).toContain("Attach.call");
      expect(rpcs).not.toContain("PreTool");
    }
    expect(await status(daemon.target)).toMatchObject({ health: pb.PluginHealth.SERVING, transport: "stream" });
  });
});
