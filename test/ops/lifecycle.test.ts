// Reload and stop of a real daemon: SIGHUP applies a changed plugin list without dropping a
// connected agent's hosted-loop stream, retires a changed plugin only after its in-flight call
// finished, refuses an invalid config (the old one keeps serving); SIGTERM lets in-flight
// evaluate calls complete and ends streams with UNAVAILABLE.
import { afterEach, describe, expect, it } from "vitest";
import { Workdir, adminClient, closeClient, hostClient, parseLog, pb, pluginEntry, preTool, startDaemon } from "./support.js";
import type { HostClient, RunningDaemon } from "./support.js";

let work: Workdir | undefined;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  work?.cleanup();
  work = undefined;
});

function config(socket: string, plugins: Record<string, unknown>[]): Record<string, unknown> {
  return { listeners: [{ unix: socket }], plugins, defaults: { pointBudgetMs: 1_000 } };
}

/** Opens a hosted-loop session and waits for the daemon's `opened` frame. */
async function openSession(client: HostClient, sessionId: string) {
  const stream = client.session({ metadata: { "x-hookd-agent": "lifecycle" } });
  const responses = stream.responses[Symbol.asyncIterator]();
  await stream.send({ frame: { case: "open", value: { sessionId } } });
  const first = await responses.next();
  expect(first.done !== true && first.value.frame.case).toBe("opened");
  return { stream, responses };
}

describe("reload on SIGHUP", () => {
  it("applies a changed plugin list while an agent's hosted-loop stream stays open", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    const path = work.writeConfig(config(socket, [pluginEntry("policy")]));
    daemon = await startDaemon({ configFile: path, awaitServing: false });
    await daemon.waitLog("hookd ready");
    const client = hostClient(socket);
    const admin = adminClient(socket);
    try {
      const { stream, responses } = await openSession(client, "long-lived");
      expect(await preTool(client, { sessionId: "e", callId: "1", toolName: "Tagged" })).toMatchObject({ decision: "allow" });

      // tagger runs before policy (whose allow would end the waterfall).
      work.writeConfig(config(socket, [pluginEntry("policy"), pluginEntry("tagger", { points: { "pre-tool": { priority: -1 } } })]));
      daemon.child.kill("SIGHUP");
      const reloaded = await daemon.waitLog("config reloaded");
      expect(reloaded).toMatchObject({ generation: 1, kept: ["policy"], loaded: ["tagger"], retired: [] });
      expect(await preTool(client, { sessionId: "e", callId: "2", toolName: "Tagged" })).toMatchObject({ decision: "deny", decidedBy: "tagger" });
      expect(await preTool(client, { sessionId: "e", callId: "3", toolName: "Bash" })).toMatchObject({ decision: "deny", decidedBy: "policy" });

      const status = await admin.getStatus({}, { timeoutMs: 5_000 });
      expect(status.configGeneration).toBe(1n);
      expect(status.sessionsOpen).toBe(1);

      // The stream is still served: a prompt starts a turn and the daemon asks for a step.
      await stream.send({ frame: { case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: "hello" } }] } } });
      const seen: string[] = [];
      for (;;) {
        const next = await responses.next();
        if (next.done === true) throw new Error(`the stream ended after ${seen.join(", ")}`);
        seen.push(next.value.frame.case ?? "none");
        if (next.value.frame.case === "stepRequest") break;
      }
      expect(seen).toContain("turnStarted");
      await stream.send({ frame: { case: "close", value: {} } });
      stream.end();
      expect((await responses.next()).done).toBe(true);
      expect(daemon.stdout.lines.some((line) => parseLog(line)?.msg === "session detached")).toBe(false);
    } finally {
      closeClient(client);
      closeClient(admin);
    }
  });

  it("finishes a call in flight across the reload on the plugin's old instance", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    daemon = await startDaemon({ configFile: work.writeConfig(config(socket, [pluginEntry("policy")])), awaitServing: false });
    await daemon.waitLog("hookd ready");
    const client = hostClient(socket);
    try {
      const slow = preTool(client, { sessionId: "r", callId: "slow", toolName: "Slow", args: { ms: 400 } });
      await daemon.waitLog("fixture holding");
      work.writeConfig(config(socket, [pluginEntry("policy", { points: { "pre-tool": { priority: 3 } } })]));
      daemon.child.kill("SIGHUP");
      expect(await daemon.waitLog("config reloaded")).toMatchObject({ kept: [], loaded: ["policy"], retired: ["policy"] });
      // New calls reach the new instance at once; the held call finishes on the old one.
      expect(await preTool(client, { sessionId: "r", callId: "new", toolName: "Bash" })).toMatchObject({ decision: "deny" });
      expect(await slow).toMatchObject({ decision: "allow", decidedBy: "policy" });
    } finally {
      closeClient(client);
    }
  });

  it("closes a changed plugin's old instance only after its in-flight call let go, even past the point budget", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    daemon = await startDaemon({ configFile: work.writeConfig(config(socket, [pluginEntry("policy")])), awaitServing: false });
    await daemon.waitLog("hookd ready");
    const client = hostClient(socket);
    try {
      // Holds 1.8 s whatever happens; the 1 s point budget answers the agent first (fail-closed).
      const stubborn = preTool(client, { sessionId: "r", callId: "stubborn", toolName: "Slow", args: { ms: 1_800, stubborn: true } });
      await daemon.waitLog("fixture holding");
      work.writeConfig(config(socket, [pluginEntry("policy", { points: { "pre-tool": { priority: 3 } } })]));
      daemon.child.kill("SIGHUP");
      await daemon.waitLog("config reloaded");
      expect(await stubborn).toMatchObject({ decision: "deny" });
      await daemon.waitLog("retired plugin closed", 10_000);
      const messages = daemon.stdout.lines.map((line) => parseLog(line)?.msg);
      // The old instance waited out the budget (1 s after the swap) and then its call (1.8 s after it began).
      expect(messages.indexOf("fixture released")).toBeGreaterThan(-1);
      expect(messages.indexOf("retired plugin closed")).toBeGreaterThan(messages.indexOf("fixture released"));
      expect(messages).not.toContain("closing a retired plugin with calls still in flight");
    } finally {
      closeClient(client);
    }
  });

  it("refuses an invalid config, naming every problem, and keeps serving the old one", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    daemon = await startDaemon({ configFile: work.writeConfig(config(socket, [pluginEntry("policy")])), awaitServing: false });
    await daemon.waitLog("hookd ready");
    work.writeConfig({ listeners: [{ unix: socket }], plugins: [{ name: "x", kind: "remote" }], limits: { maxSessions: 0 } });
    daemon.child.kill("SIGHUP");
    const refused = await daemon.waitLog("config reload refused; the running config stays in force");
    const problems = (refused.problems as string[]).join("\n");
    expect(problems).toContain("plugins[0].target");
    expect(problems).toContain("limits.maxSessions");
    const client = hostClient(socket);
    try {
      expect(await preTool(client, { sessionId: "i", callId: "1", toolName: "Bash" })).toMatchObject({ decision: "deny", reason: "no bash" });
    } finally {
      closeClient(client);
    }
    const admin = adminClient(socket);
    try {
      expect((await admin.getStatus({}, { timeoutMs: 5_000 })).configGeneration).toBe(0n);
    } finally {
      closeClient(admin);
    }
  });
});

describe("graceful stop on SIGTERM", () => {
  it("lets in-flight evaluate calls complete and ends hosted-loop streams with UNAVAILABLE", async () => {
    work = new Workdir();
    const socket = work.file("hookd.sock");
    daemon = await startDaemon({ configFile: work.writeConfig(config(socket, [pluginEntry("policy")])), awaitServing: false, extraArgs: ["--grace-ms", "10000"] });
    await daemon.waitLog("hookd ready");
    const client = hostClient(socket);
    try {
      const { responses } = await openSession(client, "draining");
      const calls = Array.from({ length: 6 }, (_, i) => preTool(client, { sessionId: "d", callId: `in-flight-${i}`, toolName: "Slow", args: { ms: 700 } }));
      await daemon.stdout.wait(() => daemon?.stdout.lines.filter((line) => line.includes('"fixture holding"')).length === 6, 10_000, "six calls in flight");
      daemon.child.kill("SIGTERM");
      await daemon.waitLog("stopping");
      const answers = await Promise.allSettled(calls);
      expect(answers.map((a) => (a.status === "fulfilled" ? a.value.decision : String(a.reason)))).toEqual(Array(6).fill("allow"));
      await expect(responses.next()).rejects.toMatchObject({ code: 14 }); // UNAVAILABLE: reconnect and resume
      const exit = await daemon.exited;
      expect(exit.code).toBe(0);
      await daemon.waitLog("hookd stopped");
    } finally {
      closeClient(client);
    }
  });
});
