// The agent-event point through a real `hookd serve`: EvaluateAgentEvent reaches the plugins
// subscribed to the event's name, in-process (its matchers overridden by the config) and remote
// (a plugin this test serves over gRPC, its matchers in its manifest); the payload arrives digit
// for digit, the session carries the caller's identity and the lineage, an event nobody
// subscribes to calls nobody, a failing observer changes nothing, every call is audited with the
// event name, and an envelope without a name is refused naming the field.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { connectHost, definePlugin, parseJson, servePlugin, toJsonText } from "@hookd/sdk";
import type { AgentEventEvent } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon, waitForFile, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

// Its own matchers say PostCompact; the daemon's config narrows it to PreCompact and Worktree*.
const RECORDER = `
import { appendFileSync } from "node:fs";
import { definePlugin, toJsonText } from "@hookd/sdk";
export default definePlugin({
  name: "recorder",
  points: {
    "agent-event": {
      tools: ["PostCompact"],
      handler: (e) => {
        appendFileSync(process.env.HOOKD_TEST_LOG, toJsonText({ session: e.session, dialect: e.dialect, eventName: e.eventName, payload: e.payload }) + "\\n");
        if (e.eventName === "WorktreeRemove") throw new Error("the recorder broke on purpose");
      },
    },
  },
});
`;

interface Recorded {
  readonly session: Record<string, string>;
  readonly dialect: string;
  readonly eventName: string;
  readonly payload: unknown;
}

let daemon: DaemonProcess;
let logFile: string;
let auditFile: string;
let remote: { close(): Promise<void> };
const remoteSeen: AgentEventEvent[] = [];
let remoteCalled: () => void = () => undefined;
const remoteArrived = new Promise<void>((resolve) => (remoteCalled = resolve));

beforeAll(async () => {
  const module = await writePluginModule("recorder", RECORDER);
  logFile = join(module, "..", "events.log");
  auditFile = join(module, "..", "audit.jsonl");
  await writeFile(logFile, "");
  const socket = join(module, "..", "remote.sock");
  remote = await servePlugin(
    definePlugin({
      name: "notifier",
      points: {
        "agent-event": {
          tools: ["Notification"],
          handler: (event) => {
            remoteSeen.push(event);
            remoteCalled();
          },
        },
      },
    }),
    { socketPath: socket },
  );
  daemon = await startDaemon({
    config: {
      audit: { path: auditFile, fsync: "always" },
      plugins: [
        { name: "recorder", kind: "in-process", module, points: { "agent-event": { tools: ["PreCompact", "Worktree*"] } } },
        { name: "notifier", kind: "remote", target: `unix://${socket}`, required: true },
      ],
    },
    env: { HOOKD_TEST_LOG: logFile },
  });
});

afterAll(async () => {
  await daemon?.stop();
  await remote?.close();
});

async function recorded(): Promise<Recorded[]> {
  return (await readFile(logFile, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Recorded);
}

async function audited(): Promise<Record<string, unknown>[]> {
  return (await readFile(auditFile, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const session = { sessionId: "s1", agentId: "", cwd: "/w", parentSessionId: "p1", agentType: "Explore" };
const BIG = "9223372036854775807";

describe("EvaluateAgentEvent through the daemon", () => {
  it("reaches exactly the subscribers of the event's name, in-process and remote, losslessly and under the caller's identity", async () => {
    const client = connectHost(daemon.target, { agentId: "alice" });
    const payload = parseJson(`{"hook_event_name":"PreCompact","trigger":"manual","tokens":${BIG}}`);
    await client.evaluateAgentEvent({ session, dialect: "claude-code", eventName: "PreCompact", payload });
    await client.evaluateAgentEvent({ session, dialect: "gemini", eventName: "WorktreeCreate", payload: parseJson(`{"name":"wt"}`) });
    // Only the config's matchers apply: the plugin's own PostCompact is overridden.
    await client.evaluateAgentEvent({ session, dialect: "claude-code", eventName: "PostCompact", payload: {} });
    await client.evaluateAgentEvent({ session, dialect: "codex", eventName: "Notification", payload: parseJson(`{"message":"needs you"}`) });
    // Nobody subscribes to BeforeModel: nothing is called.
    await client.evaluateAgentEvent({ session, dialect: "gemini", eventName: "BeforeModel", payload: null });
    await remoteArrived;

    const seen = await recorded();
    expect(seen.map((r) => [r.dialect, r.eventName])).toEqual([
      ["claude-code", "PreCompact"],
      ["gemini", "WorktreeCreate"],
    ]);
    // Digit for digit: the plugin wrote the payload back with the lossless stringifier.
    expect((await readFile(logFile, "utf8")).split("\n")[0]).toContain(`"tokens":${BIG}`);
    expect(seen[0]?.session).toEqual({ sessionId: "s1", agentId: "alice", cwd: "/w", parentSessionId: "p1", agentType: "Explore" });

    expect(remoteSeen.map((e) => [e.dialect, e.eventName, toJsonText(e.payload)])).toEqual([["codex", "Notification", `{"message":"needs you"}`]]);
    expect(remoteSeen[0]?.session).toMatchObject({ agentId: "alice", parentSessionId: "p1" });

    const invocations = (await audited()).filter((r) => r.point === "agent-event");
    expect(invocations.map((r) => [r.kind, r.plugin, r.eventName, r.outcome])).toEqual([
      ["invocation", "recorder", "PreCompact", "passed"],
      ["invocation", "recorder", "WorktreeCreate", "passed"],
      ["invocation", "notifier", "Notification", "passed"],
    ]);
    client.close();
  });

  it("contains a failing observer: the agent's call succeeds and the audit names the failure", async () => {
    const client = connectHost(daemon.target, { agentId: "bob" });
    await expect(client.evaluateAgentEvent({ session, dialect: "claude-code", eventName: "WorktreeRemove", payload: {} })).resolves.toBeUndefined();
    await waitForFile(auditFile, '"eventName":"WorktreeRemove"');
    const record = (await audited()).find((r) => r.eventName === "WorktreeRemove");
    expect(record).toMatchObject({ kind: "invocation", plugin: "recorder", point: "agent-event", outcome: "error", cause: "listener_error" });
    expect(String(record?.reason)).toContain("the recorder broke on purpose");
    client.close();
  });

  it("refuses an envelope without an event name, naming the field", async () => {
    const client = connectHost(daemon.target, { agentId: "carol" });
    await expect(client.evaluateAgentEvent({ session, dialect: "codex", eventName: "", payload: {} })).rejects.toThrow("event.event_name: required");
    client.close();
  });
});
