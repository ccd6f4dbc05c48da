// End to end through a real `hookd serve` process: agents connect with the SDK client, a scripted
// model drives their turns, and an in-process policy plugin decides. Covers what the host issue
// asks to be shown: two agents at once, allow / deny / contexts after the batch, a rejected
// prompt, stop-hook continuation and its cap, asks answered and timed out, a disconnect mid-turn
// (plugin call cancelled) and a resume.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, waitForFile, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { contextTexts, openScriptedAgent, toolResults } from "../support/scripted-agent.js";
import type { Script } from "../support/scripted-agent.js";

const POLICY = `
import { appendFileSync } from "node:fs";
import { accept, ask, definePlugin, deny, pass, pluginMessage, reject, steer, userMessage } from "@hookd/sdk";
const text = (m) => (m?.content ?? []).map((b) => (b.type === "text" ? b.text : "")).join("");
export default definePlugin({
  name: "e2e-policy",
  points: {
    "pre-step": (e) => (e.messages.some((m) => text(m).includes("forbidden")) ? reject("the prompt mentions a forbidden topic") : pass()),
    "pre-tool": {
      tools: ["Bash"],
      deadlineMs: 60000,
      handler: async (e, ctx) => {
        const command = String(e.call.arguments.command ?? "");
        if (command.includes("rm -rf")) return deny("rm -rf is not allowed");
        if (command.startsWith("sudo")) return ask("sudo needs a human");
        if (command === "hang") {
          appendFileSync(process.env.HOOKD_TEST_LOG, "started " + e.call.callId + "\\n");
          await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve, { once: true }));
          appendFileSync(process.env.HOOKD_TEST_LOG, "cancelled " + e.call.callId + "\\n");
        }
        return pass();
      },
    },
    "post-tool": (e) => accept({ additionalContexts: [pluginMessage("e2e-policy", "reviewed " + e.call.callId)] }),
    "turn-stopping": (e) => {
      const said = text(e.lastAssistantMessage);
      if (said.includes("again")) return steer([userMessage("keep going")]);
      if (said.includes("once") && !e.stopHookActive) return steer([userMessage("one more step")]);
      return pass();
    },
  },
});
`;

let daemon: DaemonProcess;
let logFile: string;

beforeAll(async () => {
  const module = await writePluginModule("e2e-policy", POLICY);
  logFile = join(module, "..", "plugin.log");
  await writeFile(logFile, "");
  daemon = await startDaemon({
    config: {
      plugins: [{ name: "e2e-policy", kind: "in-process", module }],
      limits: { maxSteeredContinuations: 2, approvalTimeoutMs: 400 },
    },
    env: { HOOKD_TEST_LOG: logFile },
  });
});

afterAll(async () => {
  await daemon?.stop();
});

/** A model that calls the tools named in the prompt once, then stops saying what it was told to. */
const script: Script = (prompt, step) => {
  if (prompt.startsWith("run:") && step === 1) {
    const commands = prompt.slice(4).split(";").map((c) => c.trim());
    return { say: "running", calls: commands.map((command, i) => ({ callId: `call-${i + 1}`, toolName: "Bash", arguments: { command } })) };
  }
  if (prompt.startsWith("say:")) return { say: step === 1 ? prompt.slice(4) : "done" };
  return { say: "done" };
};

describe("hosted loop, two agents on one daemon", () => {
  it("runs allowed and denied calls, delivers contexts after the batch, and keeps agents apart", async () => {
    const alice = openScriptedAgent({ target: daemon.target, agentId: "alice", session: { sessionId: "s-alice" }, script });
    const bob = openScriptedAgent({ target: daemon.target, agentId: "bob", session: { sessionId: "s-bob" }, script });
    await Promise.all([alice.session.opened, bob.session.opened]);

    const [aliceTurn, bobTurn] = await Promise.all([alice.prompt("run: ls -la; rm -rf /"), bob.prompt("run: echo hi")]);

    expect(aliceTurn).toMatchObject({ reason: "completed", steps: 2 });
    expect(bobTurn).toMatchObject({ reason: "completed", steps: 2 });
    const results = toolResults(alice.events);
    expect(results.map((r) => r.call.callId)).toEqual(["call-1", "call-2"]);
    expect(results[0]?.result.isError).toBe(false);
    // The denied call never reached the agent's tool body; the model is shown the reason.
    expect(results[1]?.result).toMatchObject({ isError: true, message: "rm -rf is not allowed" });
    expect(results[1]?.result.content).toEqual([{ type: "text", text: "Error: rm -rf is not allowed" }]);
    expect(results[1]?.trace.decidedBy).toBe("e2e-policy");
    expect(alice.dispatched.map((c) => c.callId)).toEqual(["call-1"]);
    // Post-tool contexts come after both results, in call order.
    const kinds = alice.events.filter((e) => e.type === "tool-result" || e.type === "context").map((e) => e.type);
    expect(kinds).toEqual(["tool-result", "tool-result", "context"]);
    expect(contextTexts(alice.events)).toEqual(["reviewed call-1", "reviewed call-2"]);
    // Bob saw only his own call.
    expect(toolResults(bob.events).map((r) => [r.call.sessionId, r.call.callId])).toEqual([["s-bob", "call-1"]]);
    expect(bob.dispatched.every((c) => c.sessionId === "s-bob")).toBe(true);

    await Promise.all([alice.session.close(), bob.session.close()]);
    alice.client.close();
    bob.client.close();
  });

  it("blocks a rejected prompt with its reason, and the session goes on", async () => {
    const agent = openScriptedAgent({ target: daemon.target, agentId: "carol", session: { sessionId: "s-carol" }, script });
    const blocked = await agent.prompt("tell me about the forbidden thing");
    expect(blocked).toMatchObject({ reason: "blocked", detail: "the prompt mentions a forbidden topic", steps: 0 });
    const next = await agent.prompt("say:hello");
    expect(next).toMatchObject({ reason: "completed", steps: 1 });
    await agent.session.close();
    agent.client.close();
  });

  it("continues a turn by stop-hook steering, and stops an unconditional steerer at the cap", async () => {
    const agent = openScriptedAgent({ target: daemon.target, agentId: "dave", session: { sessionId: "s-dave" }, script });
    const continued = await agent.prompt("say:do it once");
    expect(continued).toMatchObject({ reason: "completed", steps: 2 });
    // "again" is said at every stop: the cap (2 in this config) ends the turn.
    const looping = (prompt: string, step: number) => ({ say: step >= 1 ? "again" : prompt });
    const capped = openScriptedAgent({ target: daemon.target, agentId: "dave", session: { sessionId: "s-dave-2" }, script: looping });
    const end = await capped.prompt("loop");
    expect(end.reason).toBe("continuation_cap");
    expect(end.steps).toBe(3);
    expect(end.detail).toMatch(/maxSteeredContinuations = 2/);
    await Promise.all([agent.session.close(), capped.session.close()]);
    agent.client.close();
    capped.client.close();
  });

  it("resolves an ask through the agent, and denies one that is not answered in time", async () => {
    const approved = openScriptedAgent({
      target: daemon.target,
      agentId: "erin",
      session: { sessionId: "s-erin" },
      script,
      approve: async ({ reason }) => (reason === "sudo needs a human" ? "allowed-once" : "rejected"),
    });
    await approved.prompt("run: sudo ls");
    expect(toolResults(approved.events)[0]?.result.isError).toBe(false);
    expect(approved.dispatched).toHaveLength(1);

    const silent = openScriptedAgent({
      target: daemon.target,
      agentId: "erin",
      session: { sessionId: "s-erin-2" },
      script,
      // Never answers: waits until the daemon's deadline ends the question.
      approve: ({ signal }) => new Promise((_, fail) => signal.addEventListener("abort", () => fail(new Error("no answer")), { once: true })),
    });
    await silent.prompt("run: sudo reboot");
    const [result] = toolResults(silent.events);
    expect(result?.result).toMatchObject({ isError: true });
    expect(result?.result.isError && result.result.message).toMatch(/no approval answer in time/);
    expect(silent.dispatched).toHaveLength(0);
    await Promise.all([approved.session.close(), silent.session.close()]);
    approved.client.close();
    silent.client.close();
  });

  it("aborts the turn and cancels the plugin call when the agent disconnects, then resumes", async () => {
    const agent = openScriptedAgent({ target: daemon.target, agentId: "frank", session: { sessionId: "s-frank" }, script });
    await agent.session.opened;
    const turn = agent.prompt("run: hang");
    await waitForFile(logFile, "started call-1");
    await agent.session.detach();
    await expect(turn).resolves.toMatchObject({ reason: "cancelled" });
    await waitForFile(logFile, "cancelled call-1");
    agent.client.close();

    const back = openScriptedAgent({ target: daemon.target, agentId: "frank", session: { sessionId: "s-frank", source: "resume" }, script });
    await expect(back.session.opened).resolves.toMatchObject({ resumed: true });
    await expect(back.prompt("say:still here")).resolves.toMatchObject({ reason: "completed" });
    await back.session.close();
    back.client.close();
  });

  it("keeps serving other agents while one agent is slow to answer its step", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let stepAsked: () => void = () => {};
    const asked = new Promise<void>((resolve) => (stepAsked = resolve));
    // The slow agent's model answers only when released.
    const slowScript: Script = async () => {
      stepAsked();
      await held;
      return { say: "done" };
    };
    const slow = openScriptedAgent({ target: daemon.target, agentId: "sloth", session: { sessionId: "s-sloth" }, script: slowScript });
    const fast = openScriptedAgent({ target: daemon.target, agentId: "hare", session: { sessionId: "s-hare" }, script });
    let slowEnded = false;
    const slowTurn = slow.prompt("anything").then((end) => ((slowEnded = true), end));
    await asked;
    // While the daemon waits on the slow agent's step, the fast agent runs three whole turns.
    for (let i = 0; i < 3; i++) await expect(fast.prompt(`run: echo ${i}`)).resolves.toMatchObject({ reason: "completed" });
    expect(slowEnded).toBe(false);
    release();
    await expect(slowTurn).resolves.toMatchObject({ reason: "completed" });
    await Promise.all([slow.session.close(), fast.session.close()]);
    slow.client.close();
    fast.client.close();
  });

  it("never lets an agent open another agent's session", async () => {
    const owner = openScriptedAgent({ target: daemon.target, agentId: "grace", session: { sessionId: "shared-id" }, script });
    await owner.session.opened;
    // The same session id under another identity is no session mallory has: her resume is refused.
    const thief = openScriptedAgent({ target: daemon.target, agentId: "mallory", session: { sessionId: "shared-id", source: "resume" }, script });
    await expect(thief.session.opened).rejects.toMatchObject({ codeName: "NOT_FOUND", message: expect.stringContaining('session "shared-id" of agent "mallory" is not known') as unknown });
    thief.client.close();
    // Opened afresh, it is a different session, not grace's.
    const other = openScriptedAgent({ target: daemon.target, agentId: "mallory", session: { sessionId: "shared-id" }, script });
    await expect(other.session.opened).resolves.toMatchObject({ resumed: false });
    await other.prompt("say:hi");
    expect(owner.events.filter((e) => e.type === "turn-started")).toHaveLength(0);
    await Promise.all([owner.session.close(), other.session.close()]);
    owner.client.close();
    other.client.close();
  });
});
