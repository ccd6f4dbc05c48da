// A hosted session behind a real nginx (Debian's, scripts/setup-fleet.sh) balancing three hookd
// instances on the x-hookd-session header (hash ... consistent), with nginx's idle timeouts cut
// down to a few seconds. With heartbeats the session outlives idle gaps longer than those
// timeouts, on one instance; without them the same gap cuts the stream (so the test can fail), and
// the SDK resumes the session where it lives; with its instance killed the resume lands on another
// instance, which refuses it as unknown (NOT_FOUND, surfaced by the SDK), never a fresh session.
import { setTimeout as sleep } from "node:timers/promises";
import { connectHost } from "@hookd/sdk";
import type { SessionEvent } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { openScriptedAgent } from "../support/scripted-agent.js";
import type { ScriptedAgent } from "../support/scripted-agent.js";
import { SESSION_HASH_KEY, startNginx } from "./support/nginx.js";
import type { Nginx } from "./support/nginx.js";

/** nginx's client_body_timeout, grpc_read_timeout and grpc_send_timeout, in seconds. */
const PROXY_TIMEOUT_S = 3;
/** Longer than the proxy timeout, twice over: without heartbeats nginx must cut the stream. */
const IDLE_MS = 7_000;
const HEARTBEAT_MS = 500;

interface Fleet {
  readonly daemons: DaemonProcess[];
  readonly nginx: Nginx;
}

async function startFleet(heartbeatMs: number): Promise<Fleet> {
  const daemons = await Promise.all([0, 1, 2].map(() => startDaemon({ config: { session: { heartbeatMs } } })));
  const nginx = await startNginx({ upstreams: daemons.map((d) => d.socket), hashKey: SESSION_HASH_KEY, timeoutSeconds: PROXY_TIMEOUT_S });
  return { daemons, nginx };
}

async function stopFleet(fleet: Fleet | undefined): Promise<void> {
  await fleet?.nginx.stop();
  await Promise.all(fleet?.daemons.map((d) => d.stop()) ?? []);
}

const said = (events: readonly SessionEvent[], ...types: SessionEvent["type"][]) => events.filter((e) => types.includes(e.type)).map((e) => e.type);

/** Resolves once `condition` holds, checking every 50 ms; throws after `boundMs`. */
async function until(condition: () => boolean, boundMs: number): Promise<void> {
  for (let waited = 0; !condition(); waited += 50) {
    if (waited >= boundMs) throw new Error(`condition not met within ${boundMs} ms`);
    await sleep(50);
  }
}

/** The instances whose log says they opened `sessionId`. */
function holders(fleet: Fleet, sessionId: string): DaemonProcess[] {
  return fleet.daemons.filter((d) => d.logs.some((line) => line.msg === "session opened" && line.session === sessionId));
}

function agentThrough(fleet: Fleet, sessionId: string): ScriptedAgent {
  const client = connectHost(fleet.nginx.address, { agentId: "fleet-agent", reconnect: { initialBackoffMs: 200, maxBackoffMs: 1_000, maxAttempts: 6 } });
  return openScriptedAgent({ target: fleet.nginx.address, agentId: "fleet-agent", client, session: { sessionId }, script: () => ({ say: "done" }) });
}

describe("a hosted session behind nginx, with heartbeats", () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet(HEARTBEAT_MS);
  });
  afterAll(() => stopFleet(fleet));

  it("is pinned to one instance by its metadata and survives 3 turns across idle gaps longer than the proxy's timeouts", async () => {
    const agent = agentThrough(fleet, "s-beating");
    await expect(agent.session.opened).resolves.toMatchObject({ resumed: false, heartbeatIntervalMs: HEARTBEAT_MS });
    for (let turn = 1; turn <= 3; turn++) {
      if (turn > 1) await sleep(IDLE_MS);
      await expect(agent.prompt(`turn ${turn}`)).resolves.toMatchObject({ turn, reason: "completed" });
    }
    expect(said(agent.events, "disconnected", "reconnected")).toEqual([]);
    expect(holders(fleet, "s-beating")).toHaveLength(1);
    await agent.session.close();
    expect(await agent.session.ended).toBeUndefined();
    agent.client.close();
    // One Session stream, closed OK by the agent, through one upstream.
    const streams = (await fleet.nginx.accessLog()).filter((line) => line.endsWith("/hookd.v1.HookHost/Session"));
    expect(streams).toHaveLength(1);
    expect(streams[0]).toContain(holders(fleet, "s-beating")[0]?.socket);
  });

  it("killing its instance gives a clean reconnect that another instance refuses as unknown: NOT_FOUND, never a fresh session", async () => {
    const agent = agentThrough(fleet, "s-doomed");
    await agent.session.opened;
    await expect(agent.prompt("before")).resolves.toMatchObject({ turn: 1, reason: "completed" });
    const [home, ...others] = holders(fleet, "s-doomed");
    expect(home).toBeDefined();
    expect(others).toEqual([]);
    home?.child.kill("SIGKILL");
    const ended = await agent.session.ended;
    expect(ended?.codeName).toBe("NOT_FOUND");
    expect(ended?.details).toContain('session "s-doomed" of agent "fleet-agent" is not known to this daemon');
    expect(said(agent.events, "disconnected", "reconnected")).toEqual(["disconnected"]);
    // The refusal came from a live instance, which said so and did not open the session afresh.
    // (Its log line travels on another pipe than the answer: wait for it, bounded.)
    const refusers = () => fleet.daemons.filter((d) => d.logs.some((line) => line.msg === "session resume refused: unknown session" && line.session === "s-doomed"));
    await until(() => refusers().length > 0, 15_000);
    expect(refusers()).toHaveLength(1);
    expect(refusers()[0]).not.toBe(home);
    expect(holders(fleet, "s-doomed")).toEqual([home]);
    agent.client.close();
  });
});

describe("a hosted session behind nginx, without heartbeats", () => {
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet(0);
  });
  afterAll(() => stopFleet(fleet));

  it("is cut by the proxy in the same idle gap, and the SDK resumes it where it lives", async () => {
    const agent = agentThrough(fleet, "s-silent");
    await expect(agent.session.opened).resolves.toMatchObject({ heartbeatIntervalMs: 0 });
    await expect(agent.prompt("first")).resolves.toMatchObject({ turn: 1, reason: "completed" });
    await sleep(IDLE_MS);
    // The cut happened during the gap (once per proxy timeout): the SDK saw the stream break and
    // resumed it on the same instance each time. On a loaded machine the first resume may still
    // be under way: wait for it (bounded), not for more time.
    await until(() => said(agent.events, "reconnected").length > 0, 30_000);
    const breaks = said(agent.events, "disconnected", "reconnected");
    expect(breaks.slice(0, 2)).toEqual(["disconnected", "reconnected"]);
    expect(agent.events.find((e) => e.type === "reconnected")).toMatchObject({ opened: { resumed: true } });
    // Through nginx the cut reads INTERNAL (an RST_STREAM), not UNAVAILABLE: the SDK resumes on any status.
    const cut = agent.events.find((e) => e.type === "disconnected");
    expect(cut?.type === "disconnected" ? cut.error.codeName : "none").not.toBe("none");
    await expect(agent.prompt("second")).resolves.toMatchObject({ turn: 2, reason: "completed" });
    expect(holders(fleet, "s-silent")).toHaveLength(1);
    await agent.session.close();
    agent.client.close();
  });
});
