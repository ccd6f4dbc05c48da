// Fail-closed never silently opens, through real `hookd serve` and `hookd check` processes and
// real plugin processes on Unix sockets: an unreachable remote plugin without configured points
// gates every gate point (evaluate denies, the hosted loop blocks the turn); one described once
// before is subscribed by its persisted manifest on the next start (evaluate and the hosted loop
// deny its tools; others run); a required one with neither refuses to start. Readiness, the
// order line, `hookd plugins` and `hookd check` say which source the subscriptions come from.
// The Describe handshake: what a real plugin process receives; check shows managed plugins so.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall } from "@hookd/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { openScriptedAgent, toolResults } from "../support/scripted-agent.js";
import type { Script } from "../support/scripted-agent.js";
import { ROOT, Workdir, runCli, startDaemon } from "../ops/support.js";
import type { RunningDaemon } from "../ops/support.js";

const RECORDER = join(ROOT, "test/fixtures/plugins/describe-recorder.mjs");
const VERSION = (JSON.parse(readFileSync(join(ROOT, "daemon/package.json"), "utf8")) as { version: string }).version;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function workdir(): Workdir {
  const work = new Workdir();
  cleanups.push(() => work.cleanup());
  return work;
}

async function daemon(configPath: string): Promise<RunningDaemon> {
  const started = await startDaemon({ configFile: configPath, awaitServing: false });
  cleanups.push(async () => void (await started.stop("SIGKILL")));
  return started;
}

function host(socket: string): HostClient {
  const client = connectHost(`unix://${socket}`, { agentId: "tester" });
  cleanups.push(() => client.close());
  return client;
}

/** Starts the recorder plugin process on `socket`; resolves once it listens. */
async function recorder(socket: string, describeLog: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [RECORDER, socket], { env: { ...process.env, HOOKD_TEST_DESCRIBE_LOG: describeLog }, stdio: ["ignore", "pipe", "inherit"] });
  cleanups.push(() => void child.kill("SIGKILL"));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => void (chunk.toString().includes("listening") && resolve()));
    child.once("exit", (code) => reject(new Error(`recorder exited (${code}) before listening`)));
  });
  return child;
}

function call(callId: string, toolName: string, command = "ls"): ToolCall {
  const args = snapshotJson({ command });
  return { callId, rootCallId: callId, toolName, arguments: args.value, argumentsJson: args.text, sessionId: "e1", turn: 1, step: 1 };
}
const session: SessionInfo = { sessionId: "e1", agentId: "tester", cwd: "/" };

/** Calls the tool named by the prompt ("Bash" or "Read") once, then stops. */
const script: Script = (prompt, step) => (step === 1 ? { say: "calling", calls: [{ callId: "c1", toolName: prompt, arguments: { command: "ls" } }] } : { say: "done" });

const describeLines = (path: string): unknown[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as unknown);

describe("a gate plugin that cannot be described", () => {
  it("without configured points or a last known manifest, fails every gate point: evaluate denies, the hosted loop blocks", async () => {
    const work = workdir();
    const socket = work.file("hookd.sock");
    const config = work.writeConfig({ listeners: [{ unix: socket }], plugins: [{ name: "gate", kind: "remote", target: `unix://${work.file("nobody.sock")}` }] });
    const hookd = await daemon(config);
    const ready = await hookd.waitLog("hookd ready");
    expect(ready.fallbacks).toEqual([{ plugin: "gate", subscriptions: "none: failing every gate point" }]);
    for (const point of ["pre-step", "pre-tool", "guard", "post-tool"]) {
      const order = await hookd.waitLog("plugin order", 5_000, (line) => line.point === point);
      expect(order).toMatchObject({ plugins: ["gate"], fallback: { gate: "none: failing every gate point" } });
    }

    const client = host(socket);
    const denied = await client.evaluatePreTool({ session, call: call("c1", "AnyTool") });
    expect(denied.decision.kind).toBe("deny");
    expect(denied.trace).toMatchObject({ decidedBy: "gate", failureCause: "unavailable" });

    const agent = openScriptedAgent({ target: `unix://${socket}`, agentId: "tester", session: { sessionId: "loop-1" }, script, client });
    const ended = await agent.prompt("Bash");
    expect(ended).toMatchObject({ reason: "blocked", steps: 0 });
    expect(ended.detail).toMatch(/gate/);
    expect(agent.dispatched).toEqual([]);

    const plugins = await runCli(["plugins", "--socket", socket]);
    expect(plugins.stdout).toContain("gate: subscriptions: none: failing every gate point\n");

    const check = await runCli(["check", "--config", config, "--timeout-ms", "200"]);
    expect(check.code).toBe(1);
    expect(check.stdout).toMatch(/pre-tool\s+1\s+gate\s+remote\s+0\s+2000ms\s+fail-closed/);
    expect(check.stdout).toMatch(/PLUGIN\s+KIND\s+HEALTH\s+SUBSCRIPTIONS\ngate\s+remote\s+unavailable\s+none: failing every gate point\n/);
  });

  it("described once before, is subscribed by its last known manifest on the next start, until it describes itself again", async () => {
    const work = workdir();
    const socket = work.file("hookd.sock");
    const pluginSocket = work.file("gate.sock");
    const describeLog = work.file("describe.log");
    writeFileSync(describeLog, "");
    const config = work.writeConfig({
      listeners: [{ unix: socket }],
      state: { dir: work.file("state") },
      plugins: [{ name: "gate", kind: "remote", target: `unix://${pluginSocket}`, health: { initialBackoffMs: 50, maxBackoffMs: 200 } }],
    });

    // First start: described, its manifest persisted.
    let plugin = await recorder(pluginSocket, describeLog);
    const first = await daemon(config);
    const ready = await first.waitLog("hookd ready");
    expect(ready.fallbacks).toBeUndefined();
    expect((await host(socket).evaluatePreTool({ session, call: call("c1", "Bash") })).decision).toEqual({ kind: "deny", reason: "recorder denies" });
    // What the real plugin process received: the daemon's package version and the configured name.
    expect(describeLines(describeLog)).toEqual([{ daemonVersion: VERSION, pluginName: "gate" }]);
    const stored = work.file("state/manifests/gate.json");
    expect(existsSync(stored)).toBe(true);
    await first.stop();
    plugin.kill("SIGKILL");

    // Next start, the plugin unreachable: its last known manifest gates.
    const second = await daemon(config);
    const order = await second.waitLog("plugin order", 15_000, (line) => line.point === "pre-tool");
    expect(order).toMatchObject({ plugins: ["gate"], fallback: { gate: expect.stringMatching(/^last known manifest of \d{4}-\d\d-\d\dT/) as unknown } });
    const secondReady = await second.waitLog("hookd ready");
    expect(secondReady.fallbacks).toEqual([{ plugin: "gate", subscriptions: expect.stringMatching(/^last known manifest of /) as unknown }]);
    const client = host(socket);
    const denied = await client.evaluatePreTool({ session, call: call("c2", "Bash") });
    expect(denied.decision.kind).toBe("deny");
    expect(denied.trace).toMatchObject({ decidedBy: "gate", failureCause: "unavailable" });
    // Only what the manifest subscribed: Read was never its to gate.
    expect((await client.evaluatePreTool({ session, call: call("c3", "Read") })).decision).toEqual({ kind: "allow" });

    const agent = openScriptedAgent({ target: `unix://${socket}`, agentId: "tester", session: { sessionId: "loop-2" }, script, client });
    expect(await agent.prompt("Bash")).toMatchObject({ reason: "completed" });
    const [result] = toolResults(agent.events);
    expect(result?.result.isError).toBe(true);
    expect(JSON.stringify(result?.result)).toMatch(/gate/);
    expect(agent.dispatched).toEqual([]);

    const check = await runCli(["check", "--config", config, "--timeout-ms", "200"]);
    expect(check.stdout).toMatch(/gate\s+remote\s+unavailable\s+last known manifest of \d{4}-/);

    // Reachable again: described, the real manifest replaces the fallback.
    plugin = await recorder(pluginSocket, describeLog);
    await second.waitLog("plugin described", 15_000);
    expect((await client.evaluatePreTool({ session, call: call("c4", "Bash") })).decision).toEqual({ kind: "deny", reason: "recorder denies" });
    expect((await runCli(["plugins", "--socket", socket])).stdout).not.toContain("gate: subscriptions:");
  });

  it("refuses to start when it is required and has neither configured points nor a last known manifest", async () => {
    const work = workdir();
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [{ name: "gate", kind: "remote", target: `unix://${work.file("nobody.sock")}`, required: true }],
    });
    const hookd = await daemon(config);
    expect((await hookd.exited).code).toBe(1);
    expect(hookd.stderr.lines.join("\n")).toMatch(
      /plugins\.gate: required, but it could not be described at start \(.*\), its config names no points \(plugins\.gate\.points\) and it has no last known manifest \(none in .*hookd-state\/manifests\); refusing to start/,
    );
  });
});

describe("hookd check", () => {
  it("shows a managed plugin as managed, described with the daemon's version and its configured name", async () => {
    const work = workdir();
    const describeLog = work.file("describe.log");
    writeFileSync(describeLog, "");
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [{ name: "rec", kind: "managed", command: process.execPath, args: [RECORDER], env: { HOOKD_TEST_DESCRIBE_LOG: describeLog } }],
    });
    const check = await runCli(["check", "--config", config]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/pre-tool\s+1\s+rec\s+managed\s+0\s+2000ms\s+fail-closed/);
    expect(check.stdout).toMatch(/\nrec\s+managed\s+serving\s+described\n/);
    expect(describeLines(describeLog)).toEqual([{ daemonVersion: VERSION, pluginName: "rec" }]);
    // check only reads the state directory: nothing persisted beside the config.
    expect(existsSync(work.file("hookd-state"))).toBe(false);
  });
});
