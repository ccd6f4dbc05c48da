// The budget a point runs under is a field of its spec (`PointSpec.budget`): callers hand
// `decide` every budget at once and it picks the one the point's spec names; the command hooks'
// own needs stretch only the budgets of points whose spec allows it. Timers and the clock are
// faked: the test advances time, it never waits.
import { POINTS, POINT_TABLE, events } from "@hookd/sdk";
import type { PointSpec } from "@hookd/sdk";
import { afterEach, describe, expect, it, vi } from "vitest";
import { configSchema } from "../src/config/schema.js";
import { decide } from "../src/engine/decide.js";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import type { Invocation } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { ownBudget } from "../src/plugins/command/listener.js";
import { evaluateLimits } from "../src/runtime/session-limits.js";
import { deferred, listener } from "./fixtures/listeners.js";

afterEach(() => {
  vi.useRealTimers();
});

/** An observer that never answers: only a deadline or the budget ends its call. */
function hanging<P extends "turn-end" | "session-end">(point: P, started: () => void): Listener<P> {
  return {
    ...listener(point, `${point}-observer`, () => undefined, { deadlineMs: 600_000, failurePolicy: "fail-open" }),
    call: () => {
      started();
      return new Promise(() => {});
    },
  };
}

/** Runs one end point with both budgets in the environment and returns its invocations. */
async function cutAt(point: "turn-end" | "session-end"): Promise<Invocation[]> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  const invocations: Invocation[] = [];
  const bus = new EventBus((error) => {
    throw error;
  });
  bus.subscribe((e: EngineEvent) => {
    if (e.type === "invocation") invocations.push(e.invocation);
  });
  const started = deferred();
  const env = {
    registry: new PluginRegistry([hanging(point, () => started.resolve())]),
    bus,
    signal: new AbortController().signal,
    pointBudgetMs: 1_000,
    sessionEndBudgetMs: 40,
    scope: { sessionId: "s1", agentId: "a", turn: 1, step: 0 },
  };
  const outcome = point === "session-end" ? decide(env, "session-end", events.sessionEnd({ reason: "daemon_stopping" })) : decide(env, "turn-end", events.turnEnd());
  await started.promise;
  await vi.advanceTimersByTimeAsync(1_000);
  await outcome;
  return invocations;
}

describe("the budget a point runs under comes from its spec", () => {
  it("session-end runs under the session-end budget, turn-end under the point budget, from the same environment", async () => {
    expect((await cutAt("session-end")).map((i) => [i.point, i.outcome, i.detail])).toEqual([["session-end", "fault", expect.stringMatching(/no answer within 40 ms/) as unknown]]);
    expect((await cutAt("turn-end")).map((i) => [i.point, i.outcome, i.detail])).toEqual([["turn-end", "fault", expect.stringMatching(/no answer within 1000 ms/) as unknown]]);
  });

  it("every point names its budget; only session-end has its own, and only its budget never stretches", () => {
    expect(POINTS.filter((point) => (POINT_TABLE[point] as PointSpec).endsSession === true)).toEqual(["session-end"]);
    const budgets = POINTS.map((point) => [point, POINT_TABLE[point].budget.of, POINT_TABLE[point].budget.stretches]);
    expect(budgets.filter(([, of]) => of !== "pointBudgetMs")).toEqual([["session-end", "sessionEndBudgetMs", false]]);
    expect(budgets.filter(([, , stretches]) => stretches !== true)).toEqual([["session-end", "sessionEndBudgetMs", false]]);
  });

  it("a command listener declares its own need only where its point's budget stretches", () => {
    expect(POINTS.filter((point) => ownBudget(point, 5_000).ownBudgetMs === undefined)).toEqual(POINTS.filter((point) => !POINT_TABLE[point].budget.stretches));
  });

  it("the evaluate calls read the config's budgets whole, built once per config and not on every call", () => {
    const config = configSchema.parse({ listeners: [{ unix: "/tmp/unused.sock" }], defaults: { pointBudgetMs: 3_000, sessionEndBudgetMs: 500 } });
    expect(evaluateLimits(config)).toEqual({ pointBudgetMs: 3_000, sessionEndBudgetMs: 500, maxSteeredContinuations: 8 });
    expect(evaluateLimits(config)).toBe(evaluateLimits(config));
    const reloaded = configSchema.parse({ listeners: [{ unix: "/tmp/unused.sock" }], defaults: { sessionEndBudgetMs: 700 } });
    expect(evaluateLimits(reloaded)).toEqual({ pointBudgetMs: 10_000, sessionEndBudgetMs: 700, maxSteeredContinuations: 8 });
  });
});
