// The bench's verdicts: a target missed where the bare transport of the same run misses it too
// is told apart from one that hookd's own work misses (bench/src/ratios.ts).
import { describe, expect, it } from "vitest";
import { TARGETS, verdictOf } from "../../bench/src/ratios.js";
import type { ScenarioFigures } from "../../bench/src/ratios.js";

const target = (name: string) => {
  const found = TARGETS.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`no target ${name}`);
  return found;
};

describe("bench targets and the bare transport", () => {
  it("names, for each #16 target hookd's own work cannot move alone, the same ratio over the bare floors", () => {
    const figures: Record<string, ScenarioFigures> = {
      floor_relay: { p50_us: 1000 },
      floor_stream_relay: { p50_us: 450 },
      stream_remote: { p50_us: 500 },
      floor_stream_fanout4: { p50_us: 900 },
      stream_fanout4: { p50_us: 1000 },
      command_node_spawn: { p50_us: 90_000 },
      floor_relay32: { ops_per_s: 1000 },
      floor_stream_relay32: { ops_per_s: 2500 },
      stream_agents32: { ops_per_s: 2000 },
    };
    const bare = (name: string): [string | undefined, number | undefined] => [target(name).bare?.name, target(name).bare?.value(figures)];
    expect(bare("stream_remote/floor_relay")).toEqual(["floor_stream_relay/floor_relay", 0.45]);
    expect(bare("stream_fanout4/stream_remote")).toEqual(["floor_stream_fanout4/floor_stream_relay", 2]);
    expect(bare("stream_agents32/floor_relay32")).toEqual(["floor_stream_relay32/floor_relay32", 2.5]);
    expect(bare("command_node_spawn/stream_remote")).toEqual(["command_node_spawn/floor_stream_relay", 200]);
    // Against its own floor a target has no bare counterpart: hookd alone decides it.
    expect(target("stream_remote/floor_stream_relay").bare).toBeUndefined();
    expect(target("http_hook/floor_http").bare).toBeUndefined();
  });

  it("says met, MISSED, or MISSED where the bare transport misses it too", () => {
    const atMost = target("stream_remote/floor_relay"); // <= 0.35
    expect(verdictOf(atMost, 0.3, 0.28)).toBe("met");
    expect(verdictOf(atMost, 0.4, 0.33)).toBe("MISSED");
    expect(verdictOf(atMost, 0.52, 0.44)).toBe("MISSED, bare too");
    expect(verdictOf(atMost, 0.52, undefined)).toBe("MISSED");
    const atLeast = target("command_node_spawn/stream_remote"); // >= 200
    expect(verdictOf(atLeast, 210, 230)).toBe("met");
    expect(verdictOf(atLeast, 160, 205)).toBe("MISSED");
    expect(verdictOf(atLeast, 157, 175)).toBe("MISSED, bare too");
    expect(verdictOf(target("worker/inprocess"), 1.5, undefined)).toBe("");
  });
});
