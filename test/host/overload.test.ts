// Overload spread over many agents: the daemon-wide in-flight cap (limits.maxInflight) answers
// RESOURCE_EXHAUSTED at once, naming the limit, when every agent is still under its own cap;
// nothing is queued, the admitted calls all answer once the plugin lets go, the refusals are
// counted in the metrics, and the daemon keeps serving new connections.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { StatusError, closeClient, createClient, pb } from "@hookd/sdk/internal";
import type { TypedClient } from "@hookd/sdk/internal";
import { preToolAs } from "../support/agent-calls.js";
import { afterEach, describe, expect, it } from "vitest";
import { startDaemon, HOLDING_PLUGIN, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";


const AGENTS = 4;
const PER_AGENT = 3; // under limits.maxInflightPerAgent (4)
const MAX_INFLIGHT = 6; // under AGENTS * PER_AGENT (12)

let daemon: DaemonProcess | undefined;
let release: string | undefined;
const clients: TypedClient<typeof pb.HookHost>[] = [];

afterEach(async () => {
  if (release !== undefined) await writeFile(release, "");
  for (const client of clients.splice(0)) closeClient(client);
  await daemon?.stop();
  daemon = undefined;
});

const preTool = preToolAs;

describe("daemon-wide overload", () => {
  it("refuses calls beyond limits.maxInflight across agents under their own cap, answers the admitted ones, and keeps serving", async () => {
    const module = await writePluginModule("holding", HOLDING_PLUGIN);
    const log = join(module, "..", "plugin.log");
    release = join(module, "..", "release");
    await writeFile(log, "");
    daemon = await startDaemon({
      config: {
        plugins: [{ name: "holding", kind: "in-process", module }],
        defaults: { pointBudgetMs: 60_000 },
        limits: { maxInflightPerAgent: 4, maxInflight: MAX_INFLIGHT },
        metrics: { listen: "127.0.0.1:0" },
      },
      env: { HOOKD_TEST_LOG: log, HOOKD_TEST_RELEASE: release },
    });
    const metricsAt = String((await daemon.waitForLog((line) => line.msg === "metrics serving")).address);
    const host = createClient(pb.HookHost, daemon.target);
    clients.push(host);

    // Every agent sends its calls at once; each settles as admitted (answered later) or refused (now).
    let refusedCount = 0;
    let allRefused: () => void = () => {};
    const refusedEnough = new Promise<void>((resolve) => (allRefused = resolve));
    const calls = Array.from({ length: AGENTS * PER_AGENT }, (_, i) => {
      const agent = `agent-${i % AGENTS}`;
      return preTool(host, agent, `c-${i}`, "hold").then(
        (answer) => ({ answered: answer.decision?.decision.case }),
        (error: unknown) => {
          if (++refusedCount === AGENTS * PER_AGENT - MAX_INFLIGHT) allRefused();
          return { refused: error };
        },
      );
    });
    await waitForLines(log, MAX_INFLIGHT);
    await bounded(refusedEnough, 15_000, `${AGENTS * PER_AGENT - MAX_INFLIGHT} refusals while ${MAX_INFLIGHT} calls are held`);

    // The daemon is full: a call of an agent that has none in flight is refused too.
    const fresh = await preTool(host, "agent-new", "n-1", "ls").then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(fresh).toBeInstanceOf(StatusError);
    expect({ code: (fresh as StatusError).codeName, details: (fresh as StatusError).details }).toEqual({
      code: "RESOURCE_EXHAUSTED",
      details: `hookd has ${MAX_INFLIGHT} evaluate calls in flight from all agents (limits.maxInflight = ${MAX_INFLIGHT}); retry later`,
    });
    const metrics = await (await fetch(`http://${metricsAt}/metrics`)).text();
    expect(metrics).toContain(`hookd_evaluate_refused_total{limit="limits.maxInflight"} ${AGENTS * PER_AGENT - MAX_INFLIGHT + 1}\n`);
    expect(metrics).not.toContain('limit="limits.maxInflightPerAgent"');

    await writeFile(release, "");
    const results = await Promise.all(calls);
    const refused = results.flatMap((r) => ("refused" in r ? [r.refused] : []));
    expect(results.filter((r) => "answered" in r).map((r) => ("answered" in r ? r.answered : ""))).toEqual(Array(MAX_INFLIGHT).fill("allow"));
    expect(refused.map((e) => (e instanceof StatusError ? e.codeName : String(e)))).toEqual(Array(AGENTS * PER_AGENT - MAX_INFLIGHT).fill("RESOURCE_EXHAUSTED"));
    expect(new Set(refused.map((e) => (e as StatusError).details.replace(/has \d+/, "has N")))).toEqual(
      new Set([`hookd has N evaluate calls in flight from all agents (limits.maxInflight = ${MAX_INFLIGHT}); retry later`]),
    );

    // The daemon survived; a new connection is served at once.
    expect(daemon.child.exitCode).toBeNull();
    const again = createClient(pb.HookHost, daemon.target);
    clients.push(again);
    await expect(preTool(again, "agent-new", "n-2", "ls")).resolves.toMatchObject({ decision: { decision: { case: "allow" } } });
  });
});

/** Waits until the plugin's log has `count` lines (bounded). */
async function waitForLines(path: string, count: number, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const lines = (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
    if (lines.length >= count) return;
    if (Date.now() > until) throw new Error(`the plugin started ${lines.length} calls, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function bounded<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)));
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
