// The fleet's wire contract against the real daemon: the x-hookd-session affinity header must
// name the session of the frame it travels with (the Session stream's open, a unary evaluate's
// event), a resume of a session the daemon does not hold is NOT_FOUND, and an idle Session stream
// gets Heartbeat frames on the configured interval (announced in SessionOpened) while the
// agent's own heartbeats are taken without a word.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { StatusError } from "@hookd/sdk/internal";
import type { HostClient } from "../support/raw-session.js";
import { RawSession } from "../support/raw-session.js";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

let daemon: DaemonProcess;
let quiet: DaemonProcess;
let host: HostClient;
let quietHost: HostClient;

beforeAll(async () => {
  [daemon, quiet] = await Promise.all([startDaemon({ config: { session: { heartbeatMs: 50 } } }), startDaemon({ config: { session: { heartbeatMs: 0 } } })]);
  host = createClient(pb.HookHost, daemon.target);
  quietHost = createClient(pb.HookHost, quiet.target);
});

afterAll(async () => {
  closeClient(host);
  closeClient(quietHost);
  await Promise.all([daemon?.stop(), quiet?.stop()]);
});

async function endedWith(session: RawSession): Promise<StatusError> {
  const end = await session.ended();
  if (end === "OK") throw new Error("the stream ended OK");
  return end;
}

describe("the x-hookd-session header", () => {
  it("may name the opened session; one naming another is INVALID_ARGUMENT naming open.session_id", async () => {
    const matching = new RawSession(host, "pinned", { "x-hookd-session": "s-pin" });
    await matching.open("s-pin");
    await expect(matching.expect("opened")).resolves.toMatchObject({ sessionId: "s-pin", resumed: false });
    await matching.close();

    const wrong = new RawSession(host, "pinned", { "x-hookd-session": "s-other" });
    await wrong.open("s-pin2");
    const error = await endedWith(wrong);
    expect(error.codeName).toBe("INVALID_ARGUMENT");
    expect(error.details).toBe('open.session_id: "s-pin2" does not match the call\'s x-hookd-session metadata "s-other"');
  });

  it("on a unary evaluate must name the event's session", async () => {
    const event = { session: { sessionId: "s-eval", agentId: "evaluator", cwd: "/" }, dialect: pb.AgentDialect.CLAUDE_CODE, eventName: "Ping", payloadJson: "{}" };
    const call = (session: string) => host.evaluateAgentEvent({ event }, { metadata: { "x-hookd-agent": "evaluator", "x-hookd-session": session } });
    await expect(call("s-eval")).resolves.toBeDefined();
    await expect(call("s-elsewhere")).rejects.toMatchObject({
      codeName: "INVALID_ARGUMENT",
      details: 'event.session.session_id: "s-eval" does not match the call\'s x-hookd-session metadata "s-elsewhere"',
    });
  });
});

describe("resuming", () => {
  it("a session this daemon does not hold is NOT_FOUND, naming it; a known one resumes with its turns", async () => {
    const unknown = new RawSession(host, "resumer");
    await unknown.open("s-never", { source: pb.SessionSource.RESUME });
    const error = await endedWith(unknown);
    expect(error.codeName).toBe("NOT_FOUND");
    expect(error.details).toContain('open.session_id: session "s-never" of agent "resumer" is not known to this daemon');

    const first = new RawSession(host, "resumer");
    await first.open("s-known");
    await first.expect("opened");
    await expect(first.completeTurn("one")).resolves.toMatchObject({ turn: 1 });
    first.call.cancel();
    await first.ended();
    // The daemon notices the cancel asynchronously: until then the session is still attached.
    await daemon.waitForLog((line) => line.msg === "session detached" && line.session === "s-known");
    const again = new RawSession(host, "resumer");
    await again.open("s-known", { source: pb.SessionSource.RESUME });
    await expect(again.expect("opened")).resolves.toMatchObject({ sessionId: "s-known", resumed: true });
    await expect(again.completeTurn("two")).resolves.toMatchObject({ turn: 2 });
    await again.close();
  });
});

describe("heartbeats", () => {
  it("announces the interval, sends numbered heartbeats on an idle stream, and takes the agent's without a problem", async () => {
    const session = new RawSession(host, "beating");
    await session.open("s-beat");
    await expect(session.expect("opened")).resolves.toMatchObject({ heartbeatIntervalMs: 50 });
    for (let sequence = 1n; sequence <= 3n; sequence++) {
      await session.send({ case: "heartbeat", value: { sequence } });
      await expect(session.expect("heartbeat")).resolves.toMatchObject({ sequence });
    }
    // The stream still works, and nothing but heartbeats came before this turn.
    await expect(session.completeTurn("after beats")).resolves.toMatchObject({ turn: 1 });
    expect(session.seen.filter((frame) => frame.case === "problem")).toEqual([]);
    await session.close();
  });

  it("with session.heartbeatMs 0 announces none", async () => {
    const session = new RawSession(quietHost, "still");
    await session.open("s-still");
    await expect(session.expect("opened")).resolves.toMatchObject({ heartbeatIntervalMs: 0 });
    await session.close();
  });
});
