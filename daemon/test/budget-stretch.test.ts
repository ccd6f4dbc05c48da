// A point budget the config leaves to its default grows, per call, by the own needs
// (`ownBudgetMs`) of the listeners that match it; an explicit one is exact (engine/registry.ts,
// decide.ts). Timers and the clock are faked: the test advances time, it never waits.
import { afterEach, describe, expect, it, vi } from "vitest";
import { decide } from "../src/engine/decide.js";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import type { Invocation } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { deferred, listener, preToolEvent } from "./fixtures/listeners.js";

afterEach(() => {
  vi.useRealTimers();
});

/** A command-like listener that never answers: only a deadline or the budget ends its call. */
function hanging(plugin: string, deadlineMs: number, ownBudgetMs?: number, started?: () => void): Listener<"pre-tool"> {
  return {
    ...listener("pre-tool", plugin, () => undefined, { kind: "command", deadlineMs, failurePolicy: "fail-open", ...(ownBudgetMs === undefined ? {} : { ownBudgetMs }) }),
    traits: { wraps: false, answersOverWire: true, settlesItself: false, sendsOnNextTurn: false },
    call: () => {
      started?.();
      return new Promise(() => {});
    },
  };
}

function run(listeners: readonly Listener[], stretchBudgets: boolean, pointBudgetMs: number) {
  const invocations: Invocation[] = [];
  const bus = new EventBus((error) => {
    throw error;
  });
  bus.subscribe((e: EngineEvent) => {
    if (e.type === "invocation") invocations.push(e.invocation);
  });
  const registry = new PluginRegistry(listeners, { stretchBudgets });
  const env = { registry, bus, signal: new AbortController().signal, pointBudgetMs, scope: { sessionId: "s1", agentId: "a", turn: 1, step: 1 } };
  return { invocations, outcome: decide(env, "pre-tool", preToolEvent()) };
}

describe("point budgets and listeners' own needs", () => {
  it("a default budget grows by a matching command listener's need: the hook gets its own time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const started = deferred();
    const { invocations, outcome } = run([hanging("cc-hooks", 5_000, 5_000, () => started.resolve())], true, 100);
    await started.promise;
    await vi.advanceTimersByTimeAsync(100);
    expect(invocations).toEqual([]); // the 100 ms budget alone would have ended it here
    await vi.advanceTimersByTimeAsync(4_900);
    await outcome;
    expect(invocations.map((i) => [i.plugin, i.outcome, i.detail])).toEqual([["cc-hooks", "fault", expect.stringMatching(/no answer within 5000 ms/) as unknown]]);
  });

  it("an explicit budget is exact: the same listener is cut by it", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const started = deferred();
    const { invocations, outcome } = run([hanging("cc-hooks", 5_000, 5_000, () => started.resolve())], false, 100);
    await started.promise;
    await vi.advanceTimersByTimeAsync(100);
    await outcome;
    expect(invocations.map((i) => [i.plugin, i.outcome, i.detail])).toEqual([["cc-hooks", "fault", expect.stringMatching(/no answer within 100 ms/) as unknown]]);
  });

  it("the other plugins keep the default budget after the command hooks' time; a listener without a need adds nothing", () => {
    const command = hanging("a-cc", 5_000, 5_000);
    const remote = hanging("b-remote", 2_000);
    const registry = new PluginRegistry([command, remote], { stretchBudgets: true });
    expect(registry.extraBudgetMs(registry.listeners("pre-tool", "Bash"))).toBe(5_000);
    expect(registry.extraBudgetMs([remote])).toBe(0);
    expect(new PluginRegistry([command], { stretchBudgets: false }).extraBudgetMs([command])).toBe(0);
  });
});
