// A bounded load test on loopback: 32 agents at once against one daemon, several turns of several
// tool calls each. No call may be lost, no session may see another's events, and after the agents
// close their sessions the daemon must be back to no sessions without growing round after round.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { contextTexts, openScriptedAgent, toolResults } from "../support/scripted-agent.js";

const AGENTS = 32;
const TURNS = 3;
const CALLS_PER_TURN = 4;

const PLUGIN = `
import { accept, definePlugin, deny, pass, pluginMessage } from "@hookd/sdk";
export default definePlugin({
  name: "load",
  points: {
    "pre-tool": (e) => (e.call.arguments.n % 4 === 3 ? deny("every fourth call is denied") : pass()),
    "post-tool": (e) => accept({ additionalContexts: [pluginMessage("load", e.call.sessionId + "/" + e.call.callId)] }),
  },
});
`;

let daemon: DaemonProcess;

beforeAll(async () => {
  const module = await writePluginModule("load", PLUGIN);
  // The young generation's size is V8's to choose and differs between Node versions (Node 24 grows
  // it by tens of MiB under this load): fixed, so RSS growth between rounds means retained state.
  daemon = await startDaemon({ config: { plugins: [{ name: "load", kind: "in-process", module }] }, env: { NODE_OPTIONS: "--max-semi-space-size=8" } });
});

afterAll(async () => {
  await daemon?.stop();
});

async function rssKb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

async function round(label: string): Promise<void> {
  const agents = Array.from({ length: AGENTS }, (_, a) =>
    openScriptedAgent({
      target: daemon.target,
      agentId: `agent-${a}`,
      session: { sessionId: `${label}-${a}` },
      script: (prompt, step) =>
        step === 1
          ? { say: "", calls: Array.from({ length: CALLS_PER_TURN }, (_, n) => ({ callId: `${prompt}-c${n}`, toolName: "Bash", arguments: { command: "x", n } })) }
          : { say: "done" },
    }),
  );
  for (let turn = 0; turn < TURNS; turn++) {
    const ends = await Promise.all(agents.map((agent) => agent.prompt(`t${turn}`)));
    expect(ends.every((end) => end.reason === "completed")).toBe(true);
  }
  for (const [a, agent] of agents.entries()) {
    const sessionId = `${label}-${a}`;
    const results = toolResults(agent.events);
    // Every call of every turn came back once, to its own session only.
    expect(results).toHaveLength(TURNS * CALLS_PER_TURN);
    expect(new Set(results.map((r) => r.call.callId)).size).toBe(TURNS * CALLS_PER_TURN);
    expect(results.every((r) => r.call.sessionId === sessionId)).toBe(true);
    expect(results.filter((r) => r.result.isError)).toHaveLength(TURNS);
    expect(agent.dispatched).toHaveLength(TURNS * (CALLS_PER_TURN - 1));
    expect(contextTexts(agent.events).every((text) => text.startsWith(`${sessionId}/`))).toBe(true);
  }
  await Promise.all(agents.map((agent) => agent.session.close()));
  for (const agent of agents) agent.client.close();
}

describe("load: 32 agents at once", () => {
  it("loses no call, crosses no sessions, and does not grow from round to round", async () => {
    await round("warmup");
    const afterWarmup = await rssKb(daemon.child.pid!);
    await round("first");
    const afterFirst = await rssKb(daemon.child.pid!);
    await round("second");
    const afterSecond = await rssKb(daemon.child.pid!);
    const closed = daemon.logs.filter((line) => line.msg === "session closed").length;
    expect(closed).toBe(3 * AGENTS);
    // Memory is judged by growth per round after warm-up, not by absolute figures: a leak of the
    // sessions' state would add megabytes each round.
    const growthKb = afterSecond - afterFirst;
    expect(growthKb, `RSS kB: warm-up ${afterWarmup}, first ${afterFirst}, second ${afterSecond}`).toBeLessThan(16 * 1024);
  });
});
