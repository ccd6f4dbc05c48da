// The gradient controller behind adaptive admission (host/adaptive-limit.ts), fed latencies by
// hand on a hand-turned clock: it starts at the ceiling, measures the no-load latency at the
// floor, shrinks while calls are slower than that allows, grows back once they are not, stays
// within floor and ceiling, and measures again after its interval.
import { describe, expect, it } from "vitest";
import { AdaptiveLimit } from "../src/host/adaptive-limit.js";
import type { AdaptiveLimitSettings } from "../src/host/adaptive-limit.js";

function controller(overrides: Partial<AdaptiveLimitSettings> = {}): { limit: AdaptiveLimit; clock: { now: number } } {
  const clock = { now: 0 };
  const settings: AdaptiveLimitSettings = { floor: 4, ceiling: 100, latencyBufferPercent: 25, minRttIntervalMs: 10_000, ...overrides };
  return { limit: new AdaptiveLimit(() => settings, () => clock.now), clock };
}

/** Completes a whole window of calls that each took `latencyMs`. */
function window(limit: AdaptiveLimit, latencyMs: number): void {
  const epoch = limit.epoch;
  const size = limit.measuring ? 32 : Math.max(16, limit.limit);
  for (let i = 0; i < size; i++) limit.sample(latencyMs, epoch);
}

/** Past the start: the first window, then the measurement at the floor. */
function measured(limit: AdaptiveLimit, noLoadMs: number): void {
  window(limit, noLoadMs);
  expect(limit.measuring).toBe(true);
  window(limit, noLoadMs);
  expect(limit.measuring).toBe(false);
}

describe("AdaptiveLimit", () => {
  it("starts at the ceiling and pins the limit to the floor while it measures the no-load latency", () => {
    const { limit } = controller();
    expect(limit.limit).toBe(100);
    window(limit, 2);
    expect({ measuring: limit.measuring, limit: limit.limit }).toEqual({ measuring: true, limit: 4 });
    window(limit, 1);
    expect({ measuring: limit.measuring, minRttMs: limit.minRttMs }).toEqual({ measuring: false, minRttMs: 1 });
  });

  it("shrinks while the median call is slower than the no-load latency allows, never below the floor", () => {
    const { limit } = controller();
    measured(limit, 1);
    const before = limit.limit;
    window(limit, 10);
    expect(limit.limit).toBeLessThan(before);
    for (let i = 0; i < 20; i++) window(limit, 10);
    expect(limit.limit).toBe(4);
  });

  it("grows back once calls are as fast as with no load, never above the ceiling", () => {
    const { limit } = controller();
    measured(limit, 1);
    for (let i = 0; i < 20; i++) window(limit, 10);
    expect(limit.limit).toBe(4);
    window(limit, 1);
    expect(limit.limit).toBeGreaterThan(4);
    for (let i = 0; i < 20; i++) window(limit, 1);
    expect(limit.limit).toBe(100);
  });

  it("ignores the latency of calls admitted before a measurement started or ended", () => {
    const { limit } = controller();
    const before = limit.epoch;
    window(limit, 1);
    expect(limit.measuring).toBe(true);
    // Calls admitted at the ceiling finish during the measurement: slow, and not counted.
    for (let i = 0; i < 100; i++) limit.sample(50, before);
    expect(limit.measuring).toBe(true);
    window(limit, 1);
    expect(limit.minRttMs).toBe(1);
  });

  it("measures the no-load latency again once minRttIntervalMs has passed", () => {
    const { limit, clock } = controller();
    measured(limit, 1);
    window(limit, 1);
    expect(limit.measuring).toBe(false);
    clock.now = 10_000;
    window(limit, 3);
    expect(limit.measuring).toBe(true);
    window(limit, 3);
    // The new measurement replaces the old one, though it is higher: what a call costs changed.
    expect(limit.minRttMs).toBe(3);
  });

  it("follows a reload of its bounds at the next window", () => {
    let ceiling = 100;
    const clock = { now: 0 };
    const limit = new AdaptiveLimit(() => ({ floor: 4, ceiling, latencyBufferPercent: 25, minRttIntervalMs: 10_000 }), () => clock.now);
    measured(limit, 1);
    ceiling = 10;
    expect(limit.limit).toBe(10);
    window(limit, 1);
    expect(limit.limit).toBe(10);
  });
});
