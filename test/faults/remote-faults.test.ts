// Faults of remote plugins through a real daemon process: a plugin unreachable at daemon start
// does not stop the daemon (its calls follow its failure policy until it comes up), and a plugin
// that is slow for one session does not delay another session's calls.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { allow, connectHost, definePlugin, deny, servePlugin, snapshotJson } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall } from "@hookd/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function call(sessionId: string, callId: string, command: string): ToolCall {
  const args = snapshotJson({ command });
  return { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId, turn: 1, step: 1 };
}

const session = (sessionId: string): SessionInfo => ({ sessionId, agentId: "tester", cwd: "/" });

async function daemonWith(plugins: unknown[]): Promise<{ daemon: DaemonProcess; client: HostClient }> {
  const daemon = await startDaemon({ config: { plugins } });
  const client = connectHost(daemon.target, { agentId: "tester" });
  cleanups.push(async () => {
    client.close();
    await daemon.stop();
  });
  return { daemon, client };
}

async function socketDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "hookd-plugin-"));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe("remote plugin faults through the daemon", () => {
  it("starts with a plugin unreachable, answers by its failure policy, and admits it once it is up", async () => {
    const socket = join(await socketDir(), "late.sock");
    const { client } = await daemonWith([
      { name: "late", kind: "remote", target: `unix://${socket}`, points: { "pre-tool": { failurePolicy: "fail-closed", deadlineMs: 500 } }, health: { initialBackoffMs: 50, maxBackoffMs: 200 } },
    ]);
    const down = await client.evaluatePreTool({ session: session("s1"), call: call("s1", "c1", "ls") });
    expect(down.decision.kind).toBe("deny");
    expect(down.trace).toMatchObject({ decidedBy: "late", failureCause: "unavailable" });

    const plugin = await servePlugin(definePlugin({ name: "late", points: { "pre-tool": () => allow() } }), { socketPath: socket });
    cleanups.push(() => plugin.close());
    // The daemon probes with backoff; poll (bounded) until the plugin decides.
    const until = Date.now() + 15_000;
    let decidedBy = "";
    while (Date.now() < until) {
      const up = await client.evaluatePreTool({ session: session("s1"), call: call("s1", "c2", "ls") });
      decidedBy = up.trace.decidedBy;
      if (up.decision.kind === "allow" && up.trace.failureCause === undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(decidedBy).toBe("late");
    const after = await client.evaluatePreTool({ session: session("s1"), call: call("s1", "c3", "ls") });
    expect(after.decision).toEqual({ kind: "allow" });
  });

  it("does not delay one session's calls while the plugin is slow for another", async () => {
    const socket = join(await socketDir(), "slow.sock");
    let releaseSlow: () => void = () => {};
    const slowStarted = new Promise<void>((started) => {
      const gate = new Promise<void>((release) => (releaseSlow = release));
      const plugin = definePlugin({
        name: "slow-for-one",
        points: {
          "pre-tool": {
            deadlineMs: 30_000,
            handler: async (event) => {
              if (event.session.sessionId !== "slow-session") return deny("fast answer");
              started();
              await gate;
              return allow();
            },
          },
        },
      });
      cleanups.push(async () => {
        releaseSlow();
      });
      void servePlugin(plugin, { socketPath: socket }).then((served) => cleanups.push(() => served.close()));
    });
    const { client } = await daemonWith([{ name: "slow-for-one", kind: "remote", target: `unix://${socket}` }]);

    const slow = client.evaluatePreTool({ session: session("slow-session"), call: call("slow-session", "c1", "ls") });
    let slowSettled = false;
    void slow.then(() => (slowSettled = true));
    await slowStarted;
    // While the slow call is held inside the plugin, another session's calls complete.
    for (let i = 0; i < 5; i++) {
      const fast = await client.evaluatePreTool({ session: session(`fast-${i}`), call: call(`fast-${i}`, "c1", "ls") });
      expect(fast.decision).toEqual({ kind: "deny", reason: "fast answer" });
    }
    expect(slowSettled).toBe(false);
    releaseSlow();
    await expect(slow).resolves.toMatchObject({ decision: { kind: "allow" } });
  });
});
