// Re-admission of a remote plugin through a real daemon: a plugin process killed and started
// again on the same address is checked (health, then Describe) before it gets another call. While
// its health says NOT_SERVING it gets none (its calls follow its failure policy, cause
// `unavailable`), and the manifest it describes then is the one applied: here it now offers
// Attach, so calls go over the stream. The admin status shows the lost connection at once.
import type { ChildProcess } from "node:child_process";
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall } from "@hookd/sdk";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { afterEach, describe, expect, it } from "vitest";
import { REPO, startDaemon } from "../support/daemon-process.js";

const PLUGIN = join(REPO, "test/fixtures/plugins/readmission-plugin.mjs");
/** How long the restarted plugin answers NOT_SERVING: long enough for many calls to try it. */
const WARM_UP_MS = 1_500;

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
async function startPlugin(address: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [PLUGIN, address], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  cleanups.push(() => void child.kill("SIGKILL"));
  await new Promise<void>((listening, failed) => {
    child.once("exit", (code) => failed(new Error(`the plugin exited with ${code} before it listened`)));
    createInterface({ input: child.stdout }).once("line", () => listening());
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
function call(): ToolCall {
  const args = snapshotJson({ command: "ls" });
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
    const found = plugins.find((p) => p.name === "readmission");
    if (found === undefined) throw new Error("the daemon lists no plugin readmission");
    return found;
  } finally {
    closeClient(admin);
  }
}

async function evaluate(client: HostClient): Promise<{ reason: string; decidedBy: string; failureCause: string }> {
  const { decision, trace } = await client.evaluatePreTool({ session, call: call() });
  if (decision.kind !== "deny") throw new Error(`expected a deny, got ${decision.kind}`);
  return { reason: decision.reason, decidedBy: trace.decidedBy, failureCause: trace.failureCause ?? "" };
}

describe("a remote plugin killed and started again on the same address", () => {
  it("gets no call until its health says SERVING and it is described, and its new manifest applies", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-readmission-"));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const address = `unix://${join(dir, "plugin.sock")}`;
    const log = join(dir, "received.jsonl");

    const first = await startPlugin(address, { READMISSION_LIFE: "1", READMISSION_TRANSPORT: "unary", READMISSION_LOG: log });
    const daemon = await startDaemon({
      config: { plugins: [{ name: "readmission", kind: "remote", target: address, health: { initialBackoffMs: 50, maxBackoffMs: 200 } }] },
    });
    const client = connectHost(daemon.target, { agentId: "tester" });
    cleanups.push(async () => {
      client.close();
      await daemon.stop();
    });
    expect(await evaluate(client)).toEqual({ reason: "denied by life 1", decidedBy: "readmission", failureCause: "" });
    expect(await status(daemon.target)).toMatchObject({ health: pb.PluginHealth.SERVING, transport: "unary" });

    await kill(first);
    // The lost connection shows at once, before any call tries the plugin.
    await expect.poll(async () => (await status(daemon.target)).health, { timeout: 10_000 }).not.toBe(pb.PluginHealth.SERVING);
    const down = await status(daemon.target);
    expect([pb.PluginHealth.CONNECTING, pb.PluginHealth.UNAVAILABLE]).toContain(down.health);
    expect(down.lastError).not.toBe("");

    await startPlugin(address, { READMISSION_LIFE: "2", READMISSION_TRANSPORT: "stream", READMISSION_NOT_SERVING_MS: String(WARM_UP_MS), READMISSION_LOG: log });
    // During the warm-up every call is refused by the failure policy, and none reaches the plugin.
    const warmUp: Awaited<ReturnType<typeof evaluate>>[] = [];
    const warmUpEnds = Date.now() + WARM_UP_MS / 2;
    while (Date.now() < warmUpEnds) {
      warmUp.push(await evaluate(client));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(warmUp.length).toBeGreaterThan(3);
    for (const answer of warmUp) expect(answer).toMatchObject({ decidedBy: "readmission", failureCause: "unavailable" });
    const warming = await status(daemon.target);
    expect(warming.health).toBe(pb.PluginHealth.UNAVAILABLE);
    expect(warming.lastError).toMatch(/NOT_SERVING/);

    await expect.poll(async () => (await evaluate(client)).reason, { timeout: 15_000, interval: 100 }).toBe("denied by life 2");
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
    expect(await status(daemon.target)).toMatchObject({ health: pb.PluginHealth.SERVING, transport: "stream" });
  });
});
