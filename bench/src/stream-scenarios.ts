// The stream path's scenarios (issue #16): each agent's evaluations on one HookHost.Evaluate
// stream (evaluate-stream.ts), and their floors on bare streams between the same processes as the
// unary floors. Against a daemon without the Evaluate stream they are skipped (UNIMPLEMENTED).
import { status } from "@grpc/grpc-js";
import { StatusError } from "@hookd/sdk/internal";
import { AttachUpstream } from "./attach-upstream.js";
import { expectPreToolStream } from "./evaluate-stream.js";
import { Skip } from "./lab.js";
import type { Lab } from "./lab.js";
import { preToolRequest } from "./messages.js";
import { FAST, POLICY_MODULE, remotePolicyDaemon } from "./setups.js";
import type { LatencySetup, Scenario } from "./setups.js";

/**
 * A plugin that does not serve HookPlugin.Attach is called unary, and a stream_* scenario would
 * measure the wrong path: it is skipped until the plugin (servePlugin) serves the stream.
 */
export async function expectAttach(target: string): Promise<void> {
  const probe = new AttachUpstream(target, "bench-probe");
  try {
    await probe.preTool(preToolRequest().event, 5_000).answer;
  } catch (error) {
    if (error instanceof StatusError && error.code === status.UNIMPLEMENTED) throw new Skip(`the plugin does not serve HookPlugin.Attach yet (${error.message})`);
    throw error;
  } finally {
    probe.close();
  }
}

/** Pre-tool evaluations on one Evaluate stream to `target`, decided by `decidedBy`. */
async function onStream(lab: Lab, target: string, decidedBy: string, note?: string): Promise<LatencySetup> {
  const checked = await expectPreToolStream(lab.client(target), decidedBy);
  return { call: checked.call, mismatches: checked.mismatches, ...(note === undefined ? {} : { note }) };
}

export const STREAM_SCENARIOS: readonly Scenario[] = [
  {
    type: "latency",
    name: "floor_stream_single",
    what: "one message round trip on a bare bidi stream (HookHost.Evaluate frames), no hookd",
    bounds: FAST,
    setup: async (lab) => {
      const floor = await lab.floor();
      return { ...(await onStream(lab, floor.serverTarget, "bench-policy")), sharedPids: [floor.server.pid] };
    },
  },
  {
    type: "latency",
    name: "floor_stream_relay",
    what: "client -> relay -> server over bare streams (Evaluate, then Attach upstream), no hookd",
    bounds: FAST,
    setup: async (lab) => {
      const floor = await lab.floor();
      return { ...(await onStream(lab, floor.relayTarget, "bench-policy")), sharedPids: [floor.relay.pid, floor.server.pid] };
    },
  },
  {
    type: "latency",
    name: "floor_stream_fanout4",
    what: "client -> relay -> four bare servers over streams (an Attach stream to each), called at once: the transport's limit for stream_fanout4",
    bounds: FAST,
    setup: async (lab) => onStream(lab, (await lab.floorFanout()).relayTarget, "bench-policy"),
  },
  {
    type: "latency",
    name: "stream_inprocess",
    what: "pre-tool on an Evaluate stream through hookd, in-process plugin",
    bounds: FAST,
    setup: async (lab) => {
      const daemon = await lab.daemon("stream_inprocess", [{ name: "bench-policy", kind: "in-process", module: POLICY_MODULE }]);
      return onStream(lab, daemon.target, "bench-policy");
    },
  },
  {
    type: "latency",
    name: "stream_remote",
    what: "pre-tool on an Evaluate stream through hookd to one remote plugin (servePlugin) over Attach",
    bounds: FAST,
    setup: async (lab) => {
      const daemon = await remotePolicyDaemon(lab, "stream_remote", "stream");
      await expectAttach(daemon.pluginTarget);
      const setup = await onStream(lab, daemon.target, "bench-policy");
      const transport = await daemon.transport();
      if (transport !== "stream") throw new Error(`the daemon calls the plugin over ${transport}, not the stream`);
      return setup;
    },
  },
  {
    type: "latency",
    name: "stream_fanout4",
    what: "fanout4 on an Evaluate stream: four side-effect-free remote plugins over Attach",
    bounds: FAST,
    setup: async (lab) => {
      const plugins = await Promise.all(["fan-1", "fan-2", "fan-3", "fan-4"].map((name, i) => lab.remotePolicy(name, i === 3 ? "allow" : "pass", undefined, "stream")));
      await expectAttach(plugins[0]?.target ?? "");
      const daemon = await lab.daemon("stream_fanout4", plugins.map((p, i) => ({ name: `fan-${i + 1}`, kind: "remote", target: p.target })));
      return onStream(lab, daemon.target, "fan-4");
    },
  },
];
