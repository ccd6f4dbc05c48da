// Admission (host/admission.ts) on a hand-turned clock: the adaptive limit refuses at once above
// it, naming the limit; one agent's flood never takes the whole limit while another agent calls;
// an agent that stopped calling stops counting; the fixed caps stay ceilings; off, only they admit.
import { describe, expect, it } from "vitest";
import { StatusError } from "@hookd/sdk/internal";
import { Admission, refusedBy } from "../src/host/admission.js";
import type { AdaptiveSettings } from "../src/host/admission.js";

const ADAPTIVE: AdaptiveSettings = { enabled: true, floor: 4, latencyBufferPercent: 25, minRttIntervalMs: 60_000 };

function admission(adaptive: AdaptiveSettings | undefined, maxInflight = 64): { admission: Admission; clock: { now: number } } {
  const clock = { now: 0 };
  return { admission: new Admission(() => ({ maxInflightPerAgent: 1_000, maxInflight, ...(adaptive === undefined ? {} : { adaptive }) }), () => clock.now), clock };
}

/** What refused the call `enter` makes: its limit, code and message. */
function refusal(enter: () => unknown): { limit: string | undefined; code: string; details: string } {
  try {
    enter();
  } catch (error) {
    if (error instanceof StatusError) return { limit: refusedBy(error), code: error.codeName, details: error.details };
    throw error;
  }
  throw new Error("admitted, expected a refusal");
}

/** Runs calls of `agent` one at a time, each taking `latencyMs` on the clock, until the limit has moved to where it settles. */
function settle(subject: Admission, clock: { now: number }, agent: string, latencyMs: number, calls: number): void {
  for (let i = 0; i < calls; i++) {
    const release = subject.enter(agent);
    clock.now += latencyMs;
    release();
  }
}

describe("adaptive admission", () => {
  it("refuses at once above the adaptive limit with RESOURCE_EXHAUSTED naming it, and counts the refusal", () => {
    const { admission: subject, clock } = admission(ADAPTIVE);
    // The first window (at the ceiling) ends in the measurement at the floor.
    settle(subject, clock, "a", 1, 64);
    expect(subject.limit).toBe(4);
    const held = Array.from({ length: 4 }, () => subject.enter("a"));
    const refused = refusal(() => subject.enter("a"));
    expect(refused).toEqual({
      code: "RESOURCE_EXHAUSTED",
      limit: "limits.adaptive",
      details:
        "hookd has 4 evaluate calls in flight, its adaptive limit of 4 (pinned to limits.adaptive.floor while it measures the latency of a call with no load; between limits.adaptive.floor = 4 and limits.maxInflight = 64); retry later",
    });
    expect(subject.refused.get("limits.adaptive")).toBe(1);
    for (const release of held) release();
    expect(subject.enter("a")).toBeTypeOf("function");
  });

  it("keeps a share of the limit for an agent while another floods", () => {
    const { admission: subject } = admission(ADAPTIVE, 8);
    // "flood" takes every slot before "quiet" calls.
    const flood = Array.from({ length: 8 }, () => subject.enter("flood"));
    expect(refusal(() => subject.enter("quiet")).limit).toBe("limits.maxInflight");
    // Its calls end one by one; each new one of "flood" is refused until "quiet" can have its share.
    flood.pop()?.();
    const refusedFlood = refusal(() => subject.enter("flood"));
    expect(refusedFlood).toEqual({
      limit: "limits.adaptive.fairShare",
      code: "RESOURCE_EXHAUSTED",
      details: `agent "flood" has 7 evaluate calls in flight, its fair share of hookd's adaptive limit of 8 while 2 agents call (limits.adaptive); retry later`,
    });
    const quiet = subject.enter("quiet");
    for (let i = 0; i < 3; i++) flood.pop()?.();
    // Down to 4 of 8: "flood" is at its share again, "quiet" gets the rest.
    expect(refusal(() => subject.enter("flood")).limit).toBe("limits.adaptive.fairShare");
    const more = Array.from({ length: 3 }, () => subject.enter("quiet"));
    expect(subject.inflight).toBe(8);
    for (const release of [quiet, ...more, ...flood]) release();
  });

  it("forgets an agent that stopped calling: the one left may take the whole limit again", () => {
    const { admission: subject, clock } = admission(ADAPTIVE, 8);
    subject.enter("gone")();
    const held = Array.from({ length: 4 }, () => subject.enter("stays"));
    expect(refusal(() => subject.enter("stays")).limit).toBe("limits.adaptive.fairShare");
    clock.now += 1_000;
    held.push(...Array.from({ length: 4 }, () => subject.enter("stays")));
    expect(subject.inflight).toBe(8);
    for (const release of held) release();
  });

  it("keeps limits.maxInflightPerAgent and limits.maxInflight as ceilings", () => {
    const { admission: subject } = admission(ADAPTIVE, 2);
    const held = [subject.enter("a"), subject.enter("b")];
    expect(refusal(() => subject.enter("c")).limit).toBe("limits.maxInflight");
    for (const release of held) release();
    const perAgent = new Admission(() => ({ maxInflightPerAgent: 1, maxInflight: 64, adaptive: ADAPTIVE }));
    perAgent.enter("a");
    expect(refusal(() => perAgent.enter("a")).limit).toBe("limits.maxInflightPerAgent");
  });

  it("admits up to limits.maxInflight with no fair share when adaptive admission is off", () => {
    const { admission: subject, clock } = admission({ ...ADAPTIVE, enabled: false }, 8);
    settle(subject, clock, "a", 1, 64);
    expect(subject.limit).toBe(8);
    const held = [subject.enter("b"), ...Array.from({ length: 7 }, () => subject.enter("a"))];
    expect(refusal(() => subject.enter("b")).limit).toBe("limits.maxInflight");
    for (const release of held) release();
  });
});
