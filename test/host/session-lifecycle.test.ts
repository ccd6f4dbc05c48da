// Subagents, turn-end and session-end through a real `hookd serve`: an in-process plugin records
// every event it gets (one JSON line each). Shows the lineage on every event of a child session,
// a parent of another agent refused naming the field, turn-end and session-end over the hosted
// loop and over evaluate (lineage passed through, agent id from the caller), and a SIGTERM with a
// hosted session open whose session-end plugin hangs: the plugin is told DAEMON_STOPPING and the
// daemon still exits, the plugin cut off at the session-end budget.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { connectHost } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, waitForFile, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { openScriptedAgent } from "../support/scripted-agent.js";
import type { Script } from "../support/scripted-agent.js";

const RECORDER = `
import { appendFileSync } from "node:fs";
import { definePlugin, pass } from "@hookd/sdk";
const record = (point, e, extra = {}) => appendFileSync(process.env.HOOKD_TEST_LOG, JSON.stringify({ point, session: e.session, ...extra }) + "\\n");
export default definePlugin({
  name: "recorder",
  points: {
    "session-start": (e) => { record("session-start", e, { source: e.source }); return pass(); },
    "pre-step": (e) => { record("pre-step", e); return pass(); },
    "pre-tool": (e) => { record("pre-tool", e); return pass(); },
    "post-tool": (e) => { record("post-tool", e); return pass(); },
    "tool-result": (e) => { record("tool-result", e); },
    "turn-stopping": (e) => { record("turn-stopping", e); return pass(); },
    "turn-end": (e) => { record("turn-end", e, { turn: e.turn, outcome: e.outcome, steps: e.steps }); },
    "session-end": {
      deadlineMs: 600000,
      handler: (e) => {
        record("session-end", e, { reason: e.reason, turns: e.turns });
        // A session of agent type "hang" has a session-end observer that never answers.
        return e.session.agentType === "hang" ? new Promise(() => {}) : undefined;
      },
    },
  },
});
`;

interface Recorded {
  readonly point: string;
  readonly session: { sessionId: string; agentId: string; parentSessionId?: string; agentType?: string };
  readonly [key: string]: unknown;
}

const script: Script = (prompt, step) =>
  prompt === "use a tool" && step === 1 ? { say: "calling", calls: [{ callId: "c1", toolName: "Bash", arguments: { command: "ls" } }] } : { say: "done" };

let daemon: DaemonProcess;
let logFile: string;
let module: string;

async function recorded(): Promise<Recorded[]> {
  return (await readFile(logFile, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Recorded);
}

beforeAll(async () => {
  module = await writePluginModule("recorder", RECORDER);
  logFile = join(module, "..", "events.log");
  await writeFile(logFile, "");
  daemon = await startDaemon({ config: { plugins: [{ name: "recorder", kind: "in-process", module }] }, env: { HOOKD_TEST_LOG: logFile } });
});

afterAll(async () => {
  await daemon?.stop();
});

describe("subagent sessions over the hosted loop", () => {
  it("carries the lineage on every event of the child, and its turn-end and session-end", async () => {
    const main = openScriptedAgent({ target: daemon.target, agentId: "alice", session: { sessionId: "main" }, script });
    await main.session.opened;
    const sub = openScriptedAgent({
      target: daemon.target,
      agentId: "alice",
      client: main.client,
      session: { sessionId: "sub", source: "subagent", parentSessionId: "main", agentType: "explorer" },
      script,
    });
    expect(await sub.prompt("use a tool")).toMatchObject({ reason: "completed", steps: 2 });
    await sub.session.close("cleared");
    await waitForFile(logFile, '"point":"session-end","session":{"sessionId":"sub"');

    const child = (await recorded()).filter((r) => r.session.sessionId === "sub");
    expect([...new Set(child.map((r) => r.point))]).toEqual(["session-start", "pre-step", "pre-tool", "post-tool", "tool-result", "turn-stopping", "turn-end", "session-end"]);
    for (const r of child) expect(r.session).toMatchObject({ agentId: "alice", parentSessionId: "main", agentType: "explorer" });
    expect(child.find((r) => r.point === "session-start")?.source).toBe("subagent");
    expect(child.find((r) => r.point === "turn-end")).toMatchObject({ turn: 1, outcome: "completed", steps: 2 });
    expect(child.filter((r) => r.point === "session-end")).toMatchObject([{ reason: "cleared", turns: 1 }]);
    // The parent's own events carry no lineage.
    const parent = (await recorded()).filter((r) => r.session.sessionId === "main");
    expect(parent.map((r) => r.session.parentSessionId)).toEqual([undefined]);

    await main.session.close();
    await waitForFile(logFile, '"point":"session-end","session":{"sessionId":"main"');
    expect((await recorded()).filter((r) => r.session.sessionId === "main" && r.point === "session-end")).toMatchObject([{ reason: "closed", turns: 0 }]);
    main.client.close();
  });

  it("refuses a parent that is another agent's session, naming the field", async () => {
    const alice = openScriptedAgent({ target: daemon.target, agentId: "alice", session: { sessionId: "alice-main" }, script });
    await alice.session.opened;
    const bob = openScriptedAgent({ target: daemon.target, agentId: "bob", session: { sessionId: "bob-sub", source: "subagent", parentSessionId: "alice-main" }, script });
    await expect(bob.session.opened).rejects.toThrow('open.parent_session_id: agent "bob" has no open or resumable session "alice-main"');
    expect((await recorded()).some((r) => r.session.sessionId === "bob-sub")).toBe(false);
    await alice.session.close();
    alice.client.close();
    bob.client.close();
  });
});

describe("evaluate parity", () => {
  it("EvaluateTurnEnd and EvaluateSessionEnd reach the plugins with the lineage, under the caller's identity", async () => {
    const client = connectHost(daemon.target, { agentId: "carol" });
    const session = { sessionId: "own-loop", agentId: "", cwd: "/w", parentSessionId: "own-parent", agentType: "reviewer" };
    await client.evaluateTurnEnd({ session, turn: 2, outcome: "blocked", detail: "no", steps: 0 });
    await client.evaluateSessionEnd({ session, reason: "expired", detail: "idle", turns: 2 });
    const seen = (await recorded()).filter((r) => r.session.sessionId === "own-loop");
    expect(seen).toMatchObject([
      { point: "turn-end", turn: 2, outcome: "blocked", steps: 0 },
      { point: "session-end", reason: "expired", turns: 2 },
    ]);
    for (const r of seen) expect(r.session).toEqual({ sessionId: "own-loop", agentId: "carol", cwd: "/w", parentSessionId: "own-parent", agentType: "reviewer" });
    client.close();
  });
});

describe("a daemon stop with a hosted session open", () => {
  it("tells the session-end plugin DAEMON_STOPPING and exits although the plugin hangs", async () => {
    const stopLog = join(module, "..", "stop.log");
    const audit = join(module, "..", "audit.jsonl");
    await writeFile(stopLog, "");
    const stopping = await startDaemon({
      config: { plugins: [{ name: "recorder", kind: "in-process", module }], defaults: { sessionEndBudgetMs: 300 }, audit: { path: audit, fsync: "always" } },
      env: { HOOKD_TEST_LOG: stopLog },
    });
    const agent = openScriptedAgent({ target: stopping.target, agentId: "dave", session: { sessionId: "open-at-stop", agentType: "hang" }, script });
    await agent.session.opened;
    const { code: exit } = await stopping.stop("SIGTERM", 60_000);
    expect(exit).toBe(0);
    const lines = (await readFile(stopLog, "utf8")).split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Recorded);
    expect(lines.filter((r) => r.point === "session-end")).toMatchObject([{ reason: "daemon_stopping", session: { sessionId: "open-at-stop", agentType: "hang" } }]);
    // Cut off at the session-end budget (300 ms), not at the plugin's own deadline (600 s).
    const records = (await readFile(audit, "utf8")).split("\n").filter((l) => l.includes('"session-end"'));
    expect(records.join("\n")).toContain("deadline_exceeded");
    expect(records.join("\n")).toContain("no answer within 300 ms");
    agent.client.close();
  });
});
