// agents32, floor_relay32 and stream_agents32: 32 agents at once, each loop on its own connection
// and with its own agent id, in alternating windows so that load from elsewhere lands on every
// side alike. stream_agents32 runs each agent's calls on its own HookHost.Evaluate stream, and
// floor_stream_relay32 does the same through the floor's relay (the bare streams' throughput).
import { expectPreToolStream } from "./evaluate-stream.js";
import { Skip, expectPreTool } from "./lab.js";
import type { Lab } from "./lab.js";
import { remotePolicyDaemon } from "./setups.js";
import { expectAttach } from "./stream-scenarios.js";
import type { ScenarioResult } from "./setups.js";
import { concurrentWindow, windowSummary } from "./stats.js";
import type { Window } from "./stats.js";

export const AGENTS = 32;

type Call = { readonly call: () => Promise<void>; readonly mismatches: () => number; readonly close?: () => void };

/** agents32, stream_agents32 and floor_relay32 in alternating windows, each agent on its own connection. */
export async function manyAgents(lab: Lab): Promise<Record<string, ScenarioResult>> {
  const { relayTarget } = await lab.floor();
  const results: Record<string, ScenarioResult> = {};
  let daemonTarget: string | undefined;
  try {
    daemonTarget = (await remotePolicyDaemon(lab, "agents32")).target;
  } catch (error) {
    if (!(error instanceof Skip)) throw error;
    results["agents32"] = { skipped: error.message };
  }
  const agents = async (name: string, target: string, stream = false): Promise<{ name: string; calls: Call[]; window: Window }> => ({
    name,
    calls: await Promise.all(
      Array.from({ length: AGENTS }, (_, i) => (stream ? expectPreToolStream : expectPreTool)(lab.client(target, true), "bench-policy", 15_000, `bench-agent-${i}`)),
    ),
    window: { samples: [], completed: 0, elapsedMs: 0 },
  });
  const sides = daemonTarget === undefined ? [] : [await agents("agents32", daemonTarget)];
  if (daemonTarget !== undefined) {
    try {
      // Its own daemon and plugin: agents32's plugin asks for unary, this one's for the stream.
      const streamDaemon = await remotePolicyDaemon(lab, "stream_agents32", "stream");
      await expectAttach(streamDaemon.pluginTarget);
      sides.push(await agents("stream_agents32", streamDaemon.target, true));
    } catch (error) {
      if (!(error instanceof Skip)) throw error;
      results["stream_agents32"] = { skipped: error.message };
    }
  } else results["stream_agents32"] = { skipped: "no remote daemon (see agents32)" };
  sides.push(await agents("floor_relay32", relayTarget));
  sides.push(await agents("floor_stream_relay32", relayTarget, true));
  const rounds = lab.settings.quick ? 2 : 4;
  const timing = lab.settings.quick ? { warmupMs: 300, durationMs: 1_000 } : { warmupMs: 500, durationMs: 3_000 };
  for (let round = 0; round < rounds; round++) {
    for (const side of sides) await concurrentWindow((loop) => (side.calls[loop] as (typeof side.calls)[number]).call(), { concurrency: AGENTS, ...timing }, side.window);
  }
  for (const side of sides) {
    for (const call of side.calls) call.close?.();
    const mismatches = side.calls.reduce((total, checked) => total + checked.mismatches(), 0);
    results[side.name] = {
      ...windowSummary(side.window),
      ...(mismatches > 0 ? { mismatches } : {}),
      note: `${AGENTS} loops on own connections${side.name.includes("stream") ? ", each on its own Evaluate stream" : ""}, ${rounds} alternating windows of ${timing.durationMs} ms`,
    };
  }
  return results;
}

