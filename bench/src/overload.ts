// overload: one daemon in front of the remote bench-policy, driven by this process as its own load
// generator. It measures the unloaded latency (one call at a time), finds the concurrency that
// saturates the machine (the peak throughput), then runs 8 times that many loops from 8 agents
// and splits their calls into admitted (answered), refused (RESOURCE_EXHAUSTED) and UNAVAILABLE.
// A refused loop backs off as the agent SDK's retries do: a random wait up to a bound that starts
// at 20 ms and doubles with each refusal in a row, up to 1 s.
import { StatusError } from "@hookd/sdk/internal";
import type { Lab } from "./lab.js";
import { preToolRequest } from "./messages.js";
import type { ScenarioResult } from "./setups.js";
import { createServer } from "node:net";
import { concurrentWindow, summarize, windowSummary } from "./stats.js";
import type { Window } from "./stats.js";

/** How many times the saturating concurrency the overload runs at. */
export const OVERLOAD_FACTOR = 8;
const AGENTS = 8;
const CONCURRENCIES = [1, 2, 4, 8, 16, 32];
/** A concurrency whose throughput is within this share of the best saturates the machine. */
const SATURATED_SHARE = 0.9;
/** The agent SDK's default backoff bounds (sdk/src/agent/evaluate-retry.ts). */
const FIRST_BACKOFF_MS = 20;
const MAX_BACKOFF_MS = 1_000;

interface Tally {
  admitted: number[];
  refused: number[];
  unavailable: number;
  other: number;
  completedInWindow: number;
}

/** Adaptive admission is off by default until it meets these targets: the scenario measures it on. */
export async function overload(lab: Lab): Promise<Record<string, ScenarioResult>> {
  const plugin = await lab.remotePolicy("overload-policy", "allow");
  const metricsAt = `127.0.0.1:${await freePort()}`;
  const daemon = await lab.daemon("overload", [{ name: "overload-policy", kind: "remote", target: plugin.target }], { metrics: { listen: metricsAt }, limits: { adaptive: { enabled: true } } });
  const clients = Array.from({ length: AGENTS }, () => lab.client(daemon.target, true));
  const requests = Array.from({ length: AGENTS }, (_, i) => preToolRequest(`overload-agent-${i}`));
  const timing = lab.settings.quick ? { warmupMs: 300, durationMs: 1_000 } : { warmupMs: 1_000, durationMs: 3_000 };
  const call = (loop: number) => {
    const agent = loop % AGENTS;
    return (clients[agent] as (typeof clients)[number]).evaluatePreTool(requests[agent] as (typeof requests)[number], { waitForReady: true, timeoutMs: 10_000 });
  };

  // The daemon's adaptive limit settles (its first window and no-load measurement) during this warm-up.
  await concurrentWindow(call, { concurrency: 1, warmupMs: timing.warmupMs, durationMs: timing.durationMs }, { samples: [], completed: 0, elapsedMs: 0 });
  const unloaded: Window = { samples: [], completed: 0, elapsedMs: 0 };
  await concurrentWindow(call, { concurrency: 1, ...timing }, unloaded);

  const throughput = new Map<number, number>();
  for (const concurrency of CONCURRENCIES) {
    // Only answered calls are throughput; a refused loop waits as in the overload.
    const tally: Tally = { admitted: [], refused: [], unavailable: 0, other: 0, completedInWindow: 0 };
    await overloadWindow(call, concurrency, timing, tally);
    throughput.set(concurrency, Math.round((tally.completedInWindow / timing.durationMs) * 1000));
  }
  const peak = Math.max(...throughput.values());
  const saturating = CONCURRENCIES.find((c) => (throughput.get(c) ?? 0) >= SATURATED_SHARE * peak) ?? 1;

  const tally: Tally = { admitted: [], refused: [], unavailable: 0, other: 0, completedInWindow: 0 };
  await overloadWindow(call, saturating * OVERLOAD_FACTOR, timing, tally);

  const admission = await admissionFigures(metricsAt);
  const loops = saturating * OVERLOAD_FACTOR;
  const note = `${loops} loops from ${AGENTS} agents (${OVERLOAD_FACTOR} x ${saturating}, the concurrency that saturates)`;
  return {
    overload_unloaded: { ...windowSummary(unloaded), note: "one call at a time" },
    overload_peak: { ops_per_s: peak, note: `best throughput of ${CONCURRENCIES.map((c) => `${c}: ${throughput.get(c)}`).join(", ")} (concurrency: ops/s)` },
    overload_admitted: { ...summarize(tally.admitted), ops_per_s: Math.round((tally.completedInWindow / timing.durationMs) * 1000), note: `${note}; at the end ${admission}` },
    overload_refused: { ...summarize(tally.refused), note: "RESOURCE_EXHAUSTED, at once" },
    overload_unavailable: { count: tally.unavailable, note: `UNAVAILABLE from the live daemon; other failures: ${tally.other}` },
  };
}

/** `loops` loops for the warm-up and then the window, each call counted by how it ended (latency in µs). */
async function overloadWindow(call: (loop: number) => Promise<unknown>, loops: number, timing: { warmupMs: number; durationMs: number }, into: Tally): Promise<void> {
  const measureFrom = performance.now() + timing.warmupMs;
  const stopAt = measureFrom + timing.durationMs;
  const loop = async (index: number): Promise<void> => {
    let backoffMs = FIRST_BACKOFF_MS;
    for (;;) {
      const before = performance.now();
      if (before >= stopAt) return;
      let failure: StatusError | undefined;
      try {
        await call(index);
      } catch (error) {
        failure = error instanceof StatusError ? error : new StatusError(2, String(error));
      }
      const after = performance.now();
      const measured = before >= measureFrom;
      if (failure === undefined) {
        backoffMs = FIRST_BACKOFF_MS;
        if (measured) into.admitted.push((after - before) * 1000);
        if (after >= measureFrom && after <= stopAt) into.completedInWindow++;
      } else if (failure.codeName === "RESOURCE_EXHAUSTED") {
        if (measured) into.refused.push((after - before) * 1000);
        await new Promise((resolve) => setTimeout(resolve, Math.random() * backoffMs));
        backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
      } else if (failure.codeName === "UNAVAILABLE") into.unavailable++; // warm-up included: none is the target
      else into.other++;
    }
  };
  await Promise.all(Array.from({ length: loops }, (_, index) => loop(index)));
}

/** A loopback port free now, for the daemon's metrics listener. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** The daemon's admission figures from its metrics: the limit, and its latency estimates. */
async function admissionFigures(metricsAt: string): Promise<string> {
  const text = await (await fetch(`http://${metricsAt}/metrics`)).text();
  const sample = (name: string): string => text.split("\n").find((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))?.split(" ").pop() ?? "-";
  const latency = (estimate: string): string => {
    const line = text.split("\n").find((l) => l.startsWith(`hookd_admission_latency_seconds{estimate="${estimate}"}`));
    return line === undefined ? "-" : `${(Number(line.split(" ").pop()) * 1000).toFixed(2)} ms`;
  };
  return `the limit was ${sample("hookd_admission_limit")}, no-load latency ${latency("no_load")}, last median ${latency("median")}`;
}
