// The bench's interleaving: every entry gets its count, one call per slice here, and the order
// changes from round to round, so no entry always runs right after the same neighbour.
import { describe, expect, it } from "vitest";
import { interleaved } from "../../bench/src/stats.js";
import type { Measured } from "../../bench/src/stats.js";

/** A seeded generator (mulberry32): the test is deterministic. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("interleaved", () => {
  it("gives every entry its count and varies who runs right before whom", async () => {
    const ran: string[] = [];
    const entry = (name: string): Measured => ({
      name,
      bounds: { warmup: 0, count: 60, maxMs: 60_000 },
      call: async () => {
        ran.push(name);
      },
    });
    const names = ["a", "b", "c", "d"];
    const results = await interleaved(names.map(entry), 0, seeded(7));
    expect(names.map((name) => results.get(name)?.count)).toEqual([60, 60, 60, 60]);
    const before = new Map<string, Set<string>>(names.map((name) => [name, new Set()]));
    ran.forEach((name, index) => {
      if (index > 0) before.get(name)?.add(ran[index - 1] as string);
    });
    // Each entry was preceded by each of the others at some point (and by itself across rounds).
    for (const name of names) expect([...(before.get(name) ?? [])].filter((other) => other !== name).sort()).toEqual(names.filter((other) => other !== name));
  });
});
