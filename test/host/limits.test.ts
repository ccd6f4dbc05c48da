// Per-agent and global limits answer RESOURCE_EXHAUSTED, naming the limit, instead of queueing
// without bound: sessions per agent, sessions in the daemon, and evaluate calls in flight per
// agent. A refusal touches only the caller: other agents are served, and a freed slot is usable.
import { access, appendFile, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { StatusError, closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { BidiCall, TypedClient } from "@hookd/sdk/internal";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { startDaemon, HOLDING_PLUGIN, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const running: { daemon: DaemonProcess; host: TypedClient<typeof pb.HookHost> }[] = [];

async function daemonWith(config: Record<string, unknown>, env: NodeJS.ProcessEnv = {}): Promise<TypedClient<typeof pb.HookHost>> {
  const daemon = await startDaemon({ config, env });
  const host = createClient(pb.HookHost, daemon.target);
  running.push({ daemon, host });
  return host;
}

afterAll(async () => {
  for (const { daemon, host } of running.splice(0)) {
    closeClient(host);
    await daemon.stop();
  }
});

type SessionMethod = typeof pb.HookHost.method.session;

/** A hosted-loop stream: opened, or ended with the status the daemon refused it with. */
interface Opened {
  readonly call: BidiCall<SessionMethod>;
  readonly responses: AsyncIterator<pb.SessionResponse>;
}

async function open(host: TypedClient<typeof pb.HookHost>, agent: string, sessionId: string): Promise<Opened | StatusError> {
  const call = host.session({ metadata: { "x-hookd-agent": agent } });
  const responses = call.responses[Symbol.asyncIterator]();
  await call.send({ frame: { case: "open", value: { sessionId, source: pb.SessionSource.STARTUP, cwd: "/" } } });
  try {
    const first = await responses.next();
    if (first.done === true) throw new Error(`the stream of ${agent}/${sessionId} ended without a frame`);
    expect(first.value.frame).toMatchObject({ case: "opened", value: { sessionId } });
    return { call, responses };
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
}

async function opened(host: TypedClient<typeof pb.HookHost>, agent: string, sessionId: string): Promise<Opened> {
  const result = await open(host, agent, sessionId);
  if (result instanceof StatusError) throw new Error(`${agent}/${sessionId} was refused: ${result.message}`);
  return result;
}

async function refused(host: TypedClient<typeof pb.HookHost>, agent: string, sessionId: string): Promise<StatusError> {
  const result = await open(host, agent, sessionId);
  if (!(result instanceof StatusError)) {
    result.call.cancel();
    throw new Error(`${agent}/${sessionId} was opened; expected a refusal`);
  }
  return result;
}

/** Closes the session for good; the stream ends OK once the daemon has released its slot. */
async function close(session: Opened): Promise<void> {
  await session.call.send({ frame: { case: "close", value: {} } });
  for (;;) {
    const next = await session.responses.next();
    if (next.done === true) return;
  }
}

describe("session limits", () => {
  it("refuses an agent's open beyond limits.maxSessionsPerAgent, serves other agents, and frees the slot on close", async () => {
    const host = await daemonWith({ limits: { maxSessionsPerAgent: 2 } });
    const first = await opened(host, "alice", "a-1");
    const second = await opened(host, "alice", "a-2");

    const third = await refused(host, "alice", "a-3");
    expect(third.codeName).toBe("RESOURCE_EXHAUSTED");
    expect(third.details).toBe('agent "alice" has its maximum of 2 open sessions (limits.maxSessionsPerAgent)');

    const bob = await opened(host, "bob", "b-1");
    await close(first);
    const again = await opened(host, "alice", "a-3");
    await Promise.all([close(second), close(bob), close(again)]);
  });

  it("refuses any open beyond limits.maxSessions, and frees the slot on close", async () => {
    const host = await daemonWith({ limits: { maxSessions: 2 } });
    const alice = await opened(host, "alice", "a-1");
    const bob = await opened(host, "bob", "b-1");

    for (const [agent, sessionId] of [["carol", "c-1"], ["alice", "a-2"]] as const) {
      const refusal = await refused(host, agent, sessionId);
      expect(refusal.codeName).toBe("RESOURCE_EXHAUSTED");
      expect(refusal.details).toBe("the daemon has its maximum of 2 open sessions (limits.maxSessions)");
    }

    await close(bob);
    const carol = await opened(host, "carol", "c-1");
    await Promise.all([close(alice), close(carol)]);
  });
});


describe("evaluate calls in flight", () => {
  let release: string | undefined;

  afterEach(async () => {
    // Whatever happened, let held calls finish so the daemon can stop.
    if (release !== undefined) await writeFile(release, "");
  });

  it("refuses an agent's call beyond limits.maxInflightPerAgent at once, serves other agents, and serves it again after", async () => {
    const module = await writePluginModule("holding", HOLDING_PLUGIN);
    const log = join(module, "..", "plugin.log");
    release = join(module, "..", "release");
    await writeFile(log, "");
    const host = await daemonWith(
      { plugins: [{ name: "holding", kind: "in-process", module }], defaults: { pointBudgetMs: 60_000 }, limits: { maxInflightPerAgent: 2 } },
      { HOOKD_TEST_LOG: log, HOOKD_TEST_RELEASE: release },
    );

    const preTool = (agent: string, callId: string, command: string) =>
      host.evaluatePreTool(
        {
          event: {
            session: { sessionId: `${agent}-s`, agentId: agent, cwd: "/" },
            call: { callId, rootCallId: callId, toolName: "Bash", argumentsJson: JSON.stringify({ command }), sessionId: `${agent}-s`, turn: 1, step: 1 },
          },
        },
        { metadata: { "x-hookd-agent": agent } },
      );

    const held = [preTool("hog", "h-1", "hold"), preTool("hog", "h-2", "hold")];
    await waitForFile(log, ["started hog h-1", "started hog h-2"]);

    // Refused while the two are still held: nothing was queued behind them.
    const third = await preTool("hog", "h-3", "ls").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(third).toBeInstanceOf(StatusError);
    expect({ code: (third as StatusError).codeName, details: (third as StatusError).details }).toEqual({
      code: "RESOURCE_EXHAUSTED",
      details: 'agent "hog" has 2 evaluate calls in flight (limits.maxInflightPerAgent = 2)',
    });
    await expect(access(release)).rejects.toThrow();

    // Another agent is served while hog's calls are held.
    await expect(preTool("other", "o-1", "ls")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });

    await appendFile(release, "");
    const answers = await Promise.all(held);
    expect(answers.map((answer) => answer.decision?.decision.case)).toEqual(["allow", "allow"]);
    await expect(preTool("hog", "h-4", "ls")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
  });
});

async function waitForFile(path: string, lines: readonly string[], timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const text = await readFile(path, "utf8");
    if (lines.every((line) => text.includes(line))) return;
    if (Date.now() > until) throw new Error(`${JSON.stringify(lines)} never all appeared in ${path}; it holds:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
