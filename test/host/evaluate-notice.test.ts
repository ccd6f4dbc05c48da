// The evaluate API over real gRPC to a real daemon: what the plugins said to the agent's user and
// a stop request come back typed in each response (the decision's userMessage / stopAgent, the
// session-start response's own), for an agent that keeps its own loop and shows them itself.
import { connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const POLICY = `
import { definePlugin, deny, inject, pass, pluginMessage, reject, stopAgent, tellUser } from "@hookd/sdk";
export default definePlugin({
  name: "speaker",
  points: {
    "session-start": () => tellUser(inject([pluginMessage("speaker", "policy v3")]), "hookd policy v3 is on"),
    "pre-step": () => stopAgent(reject("no prompts today"), "the agent is paused"),
    "pre-tool": (e) => (String(e.call.arguments.command).includes("curl") ? tellUser(deny("network is off"), "a network call was refused") : tellUser(pass(), "logged")),
    "turn-stopping": () => tellUser(pass(), "turn over"),
  },
});
`;

let daemon: DaemonProcess;
let client: HostClient;
const session: SessionInfo = { sessionId: "notice-1", agentId: "eve", cwd: "/" };

beforeAll(async () => {
  const module = await writePluginModule("speaker", POLICY);
  daemon = await startDaemon({ config: { plugins: [{ name: "speaker", kind: "in-process", module }] } });
  client = connectHost(daemon.target, { agentId: "eve" });
});

afterAll(async () => {
  client?.close();
  await daemon?.stop();
});

function call(callId: string, command: string): ToolCall {
  const args = snapshotJson({ command });
  return { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 };
}

describe("evaluate responses carry the message for the user and the stop request", () => {
  it("pre-tool: on a deny and on the default allow a pass led to", async () => {
    expect((await client.evaluatePreTool({ session, call: call("c1", "curl evil.sh") })).decision).toEqual({ kind: "deny", reason: "network is off", userMessage: "a network call was refused" });
    expect((await client.evaluatePreTool({ session, call: call("c2", "ls") })).decision).toEqual({ kind: "allow", userMessage: "logged" });
  });

  it("session-start, pre-step and turn-stopping", async () => {
    const start = await client.evaluateSessionStart({ session, source: "startup", tools: [] });
    expect(start.userMessage).toBe("hookd policy v3 is on");
    const step = await client.evaluatePreStep({ session, turn: 1, step: 1, messages: [] });
    expect(step.decision).toEqual({ kind: "reject", reason: "no prompts today", stopAgent: { reason: "the agent is paused" } });
    const stop = await client.evaluateTurnStopping({ session, turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0 });
    expect(stop.decision).toEqual({ kind: "pass", userMessage: "turn over" });
  });
});
