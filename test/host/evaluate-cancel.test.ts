// An agent's evaluate call that is cancelled or runs out of time while a plugin still works: the
// plugin's signal fires with the reason, the agent gets CANCELLED or DEADLINE_EXCEEDED, and the
// daemon goes on answering. The daemon passes the call's cancellation lazily (its AbortSignal is
// made only when a plugin waits), so this is what proves the link still holds.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall } from "@hookd/sdk";
import { status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, waitForFile, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const WAITER = `
import { appendFileSync } from "node:fs";
import { allow, definePlugin } from "@hookd/sdk";
export default definePlugin({
  name: "waiter",
  points: {
    "pre-tool": {
      deadlineMs: 60000,
      handler: async (e, ctx) => {
        if (e.call.arguments.command !== "hang") return allow();
        appendFileSync(process.env.HOOKD_TEST_LOG, "started " + e.call.callId + "\\n");
        const reason = await new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve(ctx.signal.reason), { once: true }));
        appendFileSync(process.env.HOOKD_TEST_LOG, "aborted " + e.call.callId + " " + reason?.name + "\\n");
        return allow();
      },
    },
  },
});
`;

let daemon: DaemonProcess;
let client: HostClient;
let logFile: string;
const session: SessionInfo = { sessionId: "cancel-1", agentId: "ann", cwd: "/" };

beforeAll(async () => {
  const module = await writePluginModule("waiter", WAITER);
  logFile = join(module, "..", "plugin.log");
  await writeFile(logFile, "");
  daemon = await startDaemon({ config: { plugins: [{ name: "waiter", kind: "in-process", module }] }, env: { HOOKD_TEST_LOG: logFile } });
  client = connectHost(daemon.target, { agentId: "ann" });
});

afterAll(async () => {
  client?.close();
  await daemon?.stop();
});

function call(callId: string, command: string): ToolCall {
  const args = snapshotJson({ command });
  return { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 };
}

describe("an evaluate call that ends while its plugin works", () => {
  it("the agent's cancel reaches the plugin's signal (AbortError), and the agent gets CANCELLED", async () => {
    const controller = new AbortController();
    const pending = client.evaluatePreTool({ session, call: call("c1", "hang") }, { signal: controller.signal });
    await waitForFile(logFile, "started c1");
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: status.CANCELLED });
    await waitForFile(logFile, "aborted c1 AbortError");
  });

  it("the agent's deadline reaches the plugin's signal (TimeoutError), and the agent gets DEADLINE_EXCEEDED", async () => {
    const pending = client.evaluatePreTool({ session, call: call("c2", "hang") }, { timeoutMs: 500 });
    await expect(pending).rejects.toMatchObject({ code: status.DEADLINE_EXCEEDED });
    await waitForFile(logFile, "aborted c2 TimeoutError");
  });

  it("the daemon goes on answering, and nothing was aborted that had answered", async () => {
    const answer = await client.evaluatePreTool({ session, call: call("c3", "ls") });
    expect(answer.decision).toEqual({ kind: "allow" });
    expect((await readFile(logFile, "utf8")).trim().split("\n")).toEqual(["started c1", "aborted c1 AbortError", "started c2", "aborted c2 TimeoutError"]);
  });
});
