// decideTurnStop / settleTurnStop: the one steering merge and cap check the hosted loop and the
// evaluate API share, called directly as the evaluate API will call it.
import { HookdError, definePlugin, pass, pluginMessage, steer, userMessage } from "@hookd/sdk";
import type { PluginSpec, TurnStoppingEvent } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { listenerError } from "../src/engine/faults.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import { decideTurnStop, settleTurnStop } from "../src/engine/loop/index.js";
import type { PointEnv } from "../src/engine/decide.js";
import { PluginRegistry } from "../src/engine/registry.js";

function envWith(...specs: PluginSpec[]): { env: PointEnv; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  const bus = new EventBus();
  bus.subscribe((event) => events.push(event));
  const registry = new PluginRegistry(specs.flatMap((spec) => inProcessListeners(definePlugin(spec))));
  return { env: { registry, bus, scope: { sessionId: "s", agentId: "a", turn: 3, step: 2 }, signal: new AbortController().signal }, events };
}

const event = (steeredContinuations: number): TurnStoppingEvent => ({
  session: { sessionId: "s", agentId: "a", cwd: "/" },
  turn: 3,
  step: 2,
  stopHookActive: steeredContinuations > 0,
  steeredContinuations,
});

const steerer = (name: string, priority: number, ...texts: string[]): PluginSpec => ({
  name,
  points: { "turn-stopping": { priority, handler: () => steer(texts.map((t) => pluginMessage(name, t))) } },
});

describe("decideTurnStop", () => {
  test("merges every steerer's messages in listener order, each sourced to its plugin, and records the decision", async () => {
    const { env, events } = envWith(steerer("b", 0, "b1", "b2"), { name: "quiet", points: { "turn-stopping": () => pass() } }, steerer("a", 5, "a1"));
    const stop = await decideTurnStop(env, event(0), { maxSteeredContinuations: 8 });
    expect(stop.kind).toBe("steer");
    if (stop.kind !== "steer") return;
    expect(stop.steeredBy).toEqual(["b", "a"]);
    expect(stop.messages.map((m) => [m.content, m.source, m.id])).toEqual([
      [[{ type: "text", text: "b1" }], { kind: "plugin", name: "b" }, ""],
      [[{ type: "text", text: "b2" }], { kind: "plugin", name: "b" }, ""],
      [[{ type: "text", text: "a1" }], { kind: "plugin", name: "a" }, ""],
    ]);
    const decision = events.find((e) => e.type === "decision");
    expect(decision).toMatchObject({ point: "turn-stopping", decision: "steer", decidedBy: "b,a", scope: { turn: 3, step: 2 } });
  });

  test("closes when nobody steers", async () => {
    const { env, events } = envWith({ name: "quiet", points: { "turn-stopping": () => pass() } });
    expect(await decideTurnStop(env, event(0), { maxSteeredContinuations: 8 })).toEqual({ kind: "close" });
    expect(events.find((e) => e.type === "decision")).toMatchObject({ decision: "pass", decidedBy: "default" });
  });

  test("refuses steering once the turn had the cap of continuations, naming the cap and the steerers", async () => {
    const { env, events } = envWith(steerer("nag", 0, "again"));
    expect((await decideTurnStop(env, event(2), { maxSteeredContinuations: 3 })).kind).toBe("steer");
    const capped = await decideTurnStop(env, event(3), { maxSteeredContinuations: 3 });
    expect(capped).toMatchObject({ kind: "capped", steeredBy: ["nag"] });
    if (capped.kind !== "capped") return;
    expect(capped.detail).toContain("maxSteeredContinuations = 3");
    expect(capped.detail).toContain("nag");
    expect(events.filter((e) => e.type === "decision").map((e) => (e.type === "decision" ? e.decision : ""))).toEqual(["steer", "capped"]);
  });

  test("a throwing listener wins over steering: the outcome is the error", async () => {
    const { env } = envWith(steerer("a", 0, "x"), {
      name: "broken",
      points: {
        "turn-stopping": () => {
          throw new Error("nope");
        },
      },
    });
    const stop = await decideTurnStop(env, event(0), { maxSteeredContinuations: 8 });
    expect(stop.kind).toBe("error");
    if (stop.kind === "error") expect(stop.error.message).toContain("nope");
  });
});

describe("settleTurnStop (pure)", () => {
  test("queued steering alone continues the turn, and counts against the cap", () => {
    const none = { answers: [], errors: [] };
    expect(settleTurnStop(none, event(0), { maxSteeredContinuations: 1, pendingSteering: 1 })).toEqual({ kind: "steer", messages: [], steeredBy: [] });
    expect(settleTurnStop(none, event(1), { maxSteeredContinuations: 1, pendingSteering: 1 }).kind).toBe("capped");
    expect(settleTurnStop(none, event(1), { maxSteeredContinuations: 1 })).toEqual({ kind: "close" });
  });

  test("a cap of 0 refuses every continuation", () => {
    const outcome = { answers: [{ plugin: "p", decision: steer([userMessage("go")]) }], errors: [] };
    expect(settleTurnStop(outcome, event(0), { maxSteeredContinuations: 0 }).kind).toBe("capped");
  });

  test("the first error in listener order is reported", () => {
    const first = listenerError("one", "turn-stopping", new HookdError("plugin_error", "first"));
    const second = listenerError("two", "turn-stopping", new HookdError("plugin_error", "second"));
    expect(settleTurnStop({ answers: [], errors: [first, second] }, event(0), { maxSteeredContinuations: 8 })).toEqual({ kind: "error", error: first });
  });
});
