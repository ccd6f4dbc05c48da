// The evaluate API and the hosted loop decide through the same point functions: for the same
// inputs, an agent that keeps its own loop gets exactly the decisions the hosted loop applies.
import { assistantMessage, connectHost, snapshotJson, userMessage } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall, ToolResult } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { contextTexts, openScriptedAgent, toolResults } from "../support/scripted-agent.js";

const POLICY = `
import { accept, definePlugin, deny, pass, pluginMessage, reject, steer, userMessage } from "@hookd/sdk";
const text = (m) => (m?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");
export default definePlugin({
  name: "parity",
  points: {
    "pre-step": (e) => (e.messages.some((m) => text(m).includes("secret")) ? reject("no secrets in prompts") : pass()),
    "pre-tool": (e) => (String(e.call.arguments.command).includes("curl") ? deny("network is off") : pass()),
    "post-tool": (e) => accept({ additionalContexts: [pluginMessage("parity", "seen " + e.call.toolName)] }),
    "turn-stopping": (e) => (text(e.lastAssistantMessage).includes("more") && !e.stopHookActive ? steer([userMessage("continue")]) : pass()),
  },
});
`;

let daemon: DaemonProcess;
let client: HostClient;
const session: SessionInfo = { sessionId: "eval-1", agentId: "eve", cwd: "/" };

beforeAll(async () => {
  const module = await writePluginModule("parity", POLICY);
  daemon = await startDaemon({ config: { plugins: [{ name: "parity", kind: "in-process", module }] } });
  client = connectHost(daemon.target, { agentId: "eve" });
});

afterAll(async () => {
  client?.close();
  await daemon?.stop();
});

function call(callId: string, command: string): ToolCall {
  const args = snapshotJson({ command, big: 9223372036854775807n });
  return { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 };
}

describe("evaluate API parity with the hosted loop", () => {
  it("gives the same pre-tool and post-tool decisions", async () => {
    const hosted = openScriptedAgent({
      target: daemon.target,
      agentId: "eve",
      session: { sessionId: "hosted-1" },
      script: (_prompt, step) =>
        step === 1
          ? { say: "", calls: [{ callId: "c1", toolName: "Bash", arguments: { command: "curl evil.sh" } }, { callId: "c2", toolName: "Bash", arguments: { command: "ls" } }] }
          : { say: "done" },
    });
    await hosted.prompt("go");
    const [denied, allowed] = toolResults(hosted.events);

    const evalDenied = await client.evaluatePreTool({ session, call: call("c1", "curl evil.sh") });
    const evalAllowed = await client.evaluatePreTool({ session, call: call("c2", "ls") });
    expect(evalDenied.decision).toEqual({ kind: "deny", reason: "network is off" });
    expect(denied?.result.isError && denied.result.message).toBe("network is off");
    expect(evalDenied.trace.decidedBy).toBe(denied?.trace.decidedBy);
    expect(evalAllowed.decision).toEqual({ kind: "allow" });
    expect(allowed?.result.isError).toBe(false);

    const success: ToolResult = { isError: false, value: "ok", content: [{ type: "text", text: "ok" }], contexts: [] };
    const post = await client.evaluatePostTool({ session, call: call("c2", "ls"), result: success });
    expect(post.decision.kind).toBe("accept");
    expect(post.result.contexts.map((m) => m.content)).toEqual([[{ type: "text", text: "seen Bash" }]]);
    expect(contextTexts(hosted.events)).toEqual(["seen Bash", "seen Bash"]);
    await hosted.session.close();
    hosted.client.close();
  });

  it("gives the same pre-step and turn-stopping decisions", async () => {
    const hosted = openScriptedAgent({ target: daemon.target, agentId: "eve", session: { sessionId: "hosted-2" }, script: (_p, step) => ({ say: step === 1 ? "more" : "done" }) });
    const blocked = await hosted.prompt("tell me the secret");
    const steered = await hosted.prompt("go on");
    await hosted.session.close();
    hosted.client.close();

    const preStep = await client.evaluatePreStep({ session, turn: 1, step: 1, messages: [userMessage("tell me the secret")] });
    expect(preStep.decision).toEqual({ kind: "reject", reason: "no secrets in prompts" });
    expect(blocked).toMatchObject({ reason: "blocked", detail: "no secrets in prompts" });

    const stop = await client.evaluateTurnStopping({ session, turn: 2, step: 1, stopHookActive: false, steeredContinuations: 0, lastAssistantMessage: assistantMessage("more") });
    expect(stop.decision.kind).toBe("steer");
    expect(steered.steps).toBe(2);
    const again = await client.evaluateTurnStopping({ session, turn: 2, step: 2, stopHookActive: true, steeredContinuations: 1, lastAssistantMessage: assistantMessage("more") });
    expect(again.decision.kind).toBe("pass");
  });

  it("answers a malformed event with INVALID_ARGUMENT naming the field, and keeps serving", async () => {
    const bad = { session: { sessionId: "", agentId: "eve", cwd: "/" }, call: call("c9", "ls") };
    const error: unknown = await client.evaluatePreTool(bad).then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    expect(error).toMatchObject({ codeName: "INVALID_ARGUMENT" });
    expect((error as Error).message).toContain("event.session.session_id");
    await expect(client.evaluatePreTool({ session, call: call("c10", "ls") })).resolves.toMatchObject({ decision: { kind: "allow" } });
  });
});
