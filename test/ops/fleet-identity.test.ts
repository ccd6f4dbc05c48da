// One daemon of a fleet, as an operator sees it: its instance id and config version on every
// audit record, log line, status and the metrics' info series (the version changes on a reload
// that changes the config), and a retried evaluate (same call id, same point) answered with its
// first answer without running the plugin again, audited as a retry.
import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { afterEach, describe, expect, it } from "vitest";
import { FIXTURES, Workdir, closeClient, hostClient, parseLog, pluginEntry, preTool, readAudit, runCli, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

let work: Workdir;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  work.cleanup();
});

function config(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    listeners: [{ unix: work.file("hookd.sock") }],
    plugins: [pluginEntry("policy")],
    audit: { path: work.file("audit.jsonl"), fsync: "always" },
    metrics: { listen: "127.0.0.1:0" },
    ...extra,
  };
}

async function statusJson(): Promise<Record<string, unknown>> {
  const result = await runCli(["status", "--json", "--socket", work.file("hookd.sock")]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe("instance id and config version", () => {
  it("are on every audit record, log line, status and the info metric; a reload changes the version", async () => {
    work = new Workdir();
    // A worker plugin that prints: its lines come from a worker thread, and name the instance too.
    const chatty = { name: "chatty-worker", kind: "worker", module: join(FIXTURES, "chatty-worker.mjs") };
    const path = work.writeConfig(config({ instance: { id: "alpha-1" }, plugins: [pluginEntry("policy"), chatty] }));
    daemon = await startDaemon({ configFile: path, awaitServing: false });
    const { address } = await daemon.waitLog("metrics serving");
    await daemon.waitLog("hookd ready");

    const before = await statusJson();
    expect(before).toMatchObject({ instanceId: "alpha-1" });
    expect(before.configVersion).toMatch(/^[0-9a-f]{12}$/);
    const human = await runCli(["status", "--socket", work.file("hookd.sock")]);
    expect(human.stdout).toMatch(/instance\s+alpha-1/);
    expect(human.stdout).toContain(String(before.configVersion));

    const client = hostClient(work.file("hookd.sock"));
    try {
      await preTool(client, { sessionId: "s", callId: "c-1", toolName: "Bash" });
      // A change of a reloadable setting: a new version, the same instance.
      writeFileSync(path, stringify(config({ instance: { id: "alpha-1" }, plugins: [pluginEntry("policy"), chatty], limits: { maxInflight: 100 } })));
      const reload = await runCli(["reload", "--socket", work.file("hookd.sock")]);
      expect(reload.code, reload.stderr).toBe(0);
      await preTool(client, { sessionId: "s", callId: "c-2", toolName: "Bash" });
    } finally {
      closeClient(client);
    }
    const after = await statusJson();
    expect(after.instanceId).toBe("alpha-1");
    expect(after.configVersion).toMatch(/^[0-9a-f]{12}$/);
    expect(after.configVersion).not.toBe(before.configVersion);

    const records = readAudit(work.file("audit.jsonl"));
    expect(records.length).toBeGreaterThanOrEqual(4);
    for (const record of records) expect(record.instanceId).toBe("alpha-1");
    const versions = (callId: string) => [...new Set(records.filter((r) => r.callId === callId).map((r) => r.configVersion))];
    expect(versions("c-1")).toEqual([before.configVersion]);
    expect(versions("c-2")).toEqual([after.configVersion]);

    const metrics = await (await fetch(`http://${String(address)}/metrics`)).text();
    expect(metrics).toContain(`hookd_instance_info{instance_id="alpha-1",config_version="${String(after.configVersion)}"} 1\n`);

    // Every line the daemon logged (JSON; plugin output is labelled JSON too) names the instance.
    const logged = daemon.stdout.lines.map(parseLog).filter((line) => line !== undefined);
    expect(logged.length).toBeGreaterThan(3);
    expect(logged.filter((l) => l.msg === "plugin output" && l.plugin === "chatty-worker").length).toBeGreaterThan(0);
    for (const line of logged.filter((l) => l.level !== undefined)) expect(line.instanceId, JSON.stringify(line)).toBe("alpha-1");
  });

  it("is told to a hosted session's agent in SessionOpened", async () => {
    work = new Workdir();
    daemon = await startDaemon({ configFile: work.writeConfig(config({ instance: { id: "gamma" } })), awaitServing: false });
    await daemon.waitLog("hookd ready");
    const client = hostClient(work.file("hookd.sock"));
    const stream = client.session({ metadata: { "x-hookd-agent": "fleet-agent" } });
    try {
      await stream.send({ frame: { case: "open", value: { sessionId: "hosted-1" } } });
      let opened: string | undefined;
      // Up to "opened"; leaving the loop then ends the stream, which this test needs no longer.
      for await (const response of stream.responses) {
        if (response.frame.case !== "opened") continue;
        opened = response.frame.value.instanceId;
        break;
      }
      expect(opened).toBe("gamma");
    } finally {
      closeClient(client);
    }
  });

  it("comes from HOOKD_INSTANCE_ID when the config names none, else from the host name and a random suffix", async () => {
    work = new Workdir();
    daemon = await startDaemon({ configFile: work.writeConfig(config()), awaitServing: false, env: { HOOKD_INSTANCE_ID: "pod-7" } });
    await daemon.waitLog("hookd ready");
    expect((await statusJson()).instanceId).toBe("pod-7");
    await daemon.stop();

    daemon = await startDaemon({ configFile: work.writeConfig(config()), awaitServing: false });
    await daemon.waitLog("hookd ready");
    const generated = String((await statusJson()).instanceId);
    const host = (hostname().split(".")[0] ?? "").replace(/[^A-Za-z0-9._-]/g, "-");
    expect(generated).toMatch(/-[0-9a-f]{6}$/);
    expect(generated.startsWith(host === "" ? "hookd" : host)).toBe(true);
  });

  it("a bad instance id is a config error naming the key", async () => {
    work = new Workdir();
    const result = await runCli(["check", "--config", work.writeConfig(config({ instance: { id: "no spaces" } }))]);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("instance.id");
  });
});

describe("retried evaluate", () => {
  it("answers the same call id at the same point with the first answer, runs the plugin once, audits the retry", async () => {
    work = new Workdir();
    daemon = await startDaemon({ configFile: work.writeConfig(config({ instance: { id: "beta" }, limits: { retryWindowMs: 60_000 } })), awaitServing: false });
    const { address } = await daemon.waitLog("metrics serving");
    await daemon.waitLog("hookd ready");
    const client = hostClient(work.file("hookd.sock"));
    try {
      const first = await preTool(client, { sessionId: "s", callId: "r-1", toolName: "Bash" });
      const again = await preTool(client, { sessionId: "s", callId: "r-1", toolName: "Bash" });
      expect(again).toEqual(first);
      expect(first.decision).toBe("deny");
      // A retry that arrives while the first is still running waits for its answer.
      const slow = { sessionId: "s", callId: "r-2", toolName: "Slow", args: { ms: 300 } };
      const both = await Promise.all([preTool(client, slow), preTool(client, slow)]);
      expect(both.map((b) => b.decision)).toEqual(["allow", "allow"]);
      // Another call id, the same call id with another call, and another session with the same
      // call id, are calls of their own.
      await preTool(client, { sessionId: "s", callId: "r-3", toolName: "Bash" });
      expect(await preTool(client, { sessionId: "s", callId: "r-3", toolName: "Read" })).toMatchObject({ decision: "allow" });
      await preTool(client, { sessionId: "other", callId: "r-1", toolName: "Read" });
    } finally {
      closeClient(client);
    }
    const held = daemon.stdout.lines.map(parseLog).filter((l) => l?.msg === "fixture holding" && l.callId === "r-2");
    expect(held).toHaveLength(1);

    const records = readAudit(work.file("audit.jsonl"));
    const of = (sessionId: string, callId: string, kind: string): Record<string, unknown>[] => records.filter((r) => r.sessionId === sessionId && r.callId === callId && r.kind === kind);
    expect(of("s", "r-1", "invocation")).toHaveLength(1);
    expect(of("s", "r-1", "decision").map((r) => [r.decision, r.plugin, r.retry ?? false])).toEqual([
      ["deny", "policy", false],
      ["deny", "policy", true],
    ]);
    expect(of("s", "r-2", "invocation")).toHaveLength(1);
    expect(of("s", "r-2", "decision").map((r) => r.retry ?? false)).toEqual([false, true]);
    expect(of("s", "r-3", "decision").map((r) => [r.decision, r.retry ?? false])).toEqual([
      ["deny", false],
      ["allow", false],
    ]);
    expect(of("other", "r-1", "decision").map((r) => [r.decision, r.retry ?? false])).toEqual([["allow", false]]);
    for (const record of records) expect(record.instanceId).toBe("beta");

    const metrics = await (await fetch(`http://${String(address)}/metrics`)).text();
    expect(metrics).toContain('hookd_evaluate_retries_total{point="pre-tool"} 2\n');
  });

  it("evaluates every call again by default (no window)", async () => {
    work = new Workdir();
    daemon = await startDaemon({ configFile: work.writeConfig(config()), awaitServing: false });
    await daemon.waitLog("hookd ready");
    const client = hostClient(work.file("hookd.sock"));
    try {
      await preTool(client, { sessionId: "s", callId: "r-1", toolName: "Bash" });
      await preTool(client, { sessionId: "s", callId: "r-1", toolName: "Bash" });
    } finally {
      closeClient(client);
    }
    const records = readAudit(work.file("audit.jsonl")).filter((r) => r.callId === "r-1");
    expect(records.filter((r) => r.kind === "invocation")).toHaveLength(2);
    expect(records.filter((r) => r.retry === true)).toHaveLength(0);
  });
});
