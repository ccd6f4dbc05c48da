// Tracing through decide(): with a tracer in the environment each decided point is one decision
// span with a child per plugin call (shadow calls marked), the point's events carry its trace
// id, a listener on a wire is handed its call span's traceparent; a point nobody listens to and
// an environment without a tracer make no span at all; a default reached past a plugin that
// failed open carries its cause; a rule that decided is named.
import { describe, expect, it } from "vitest";
import { allow, deny } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { decide } from "../src/engine/decide.js";
import type { PointEnv } from "../src/engine/decide.js";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent, EventScope, ShadowOutcome } from "../src/engine/events.js";
import type { Invocation } from "../src/engine/invoke.js";
import { IN_PROCESS_TRAITS } from "../src/engine/listener.js";
import type { Listener, ListenerCall } from "../src/engine/listener.js";
import { PluginRegistry } from "../src/engine/registry.js";
import type { CallSpan, DecisionSpan, DecisionSummary, DecisionTracer } from "../src/engine/tracing.js";
import { compileRule } from "../src/plugins/rules/compile.js";
import { rulesListeners } from "../src/plugins/rules/source.js";
import { listener, preToolEvent } from "./fixtures/listeners.js";

interface Recorded {
  readonly point: PointName;
  readonly scope: EventScope;
  readonly calls: { plugin: string; shadow: boolean; ended?: Invocation | ShadowOutcome | undefined; done: boolean }[];
  summary?: DecisionSummary;
}

/** A DecisionTracer (the engine's own interface) that records what the engine asked of it. */
class RecordingTracer implements DecisionTracer {
  readonly decisions: Recorded[] = [];
  #next = 0;

  startDecision(point: PointName, scope: EventScope): DecisionSpan {
    const recorded: Recorded = { point, scope, calls: [] };
    this.decisions.push(recorded);
    const traceId = String(++this.#next).padStart(32, "0");
    return {
      traceId,
      startCall: (l: Listener, shadow: boolean): CallSpan => {
        const call: Recorded["calls"][number] = { plugin: l.plugin, shadow, done: false };
        recorded.calls.push(call);
        return {
          traceparent: `00-${traceId}-${String(recorded.calls.length).padStart(16, "0")}-01`,
          end: (result) => {
            call.ended = result;
            call.done = true;
          },
        };
      },
      end: (summary) => {
        recorded.summary = summary;
      },
    };
  }
}

function env(listeners: readonly Listener[], trace?: DecisionTracer): { env: PointEnv; events: EngineEvent[] } {
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const scope = { sessionId: "s1", agentId: "agent", turn: 1, step: 2, callId: "c1" };
  return { env: { registry: new PluginRegistry(listeners), bus, signal: new AbortController().signal, scope, ...(trace === undefined ? {} : { trace }) }, events };
}

/** A listener that records the ListenerCall the engine gave it, as a plugin on a wire would read it. */
function wire(plugin: string, seen: ListenerCall[], answer: () => unknown): Listener {
  return { ...listener("pre-tool", plugin, () => allow()), kind: "remote", traits: { ...IN_PROCESS_TRAITS, wraps: false, answersOverWire: true }, call: (_event, _ctx, call) => (seen.push(call), answer()) };
}

const settled = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describe("tracing through decide()", () => {
  it("makes one decision span with a child per call, shadow calls marked, and the trace id on every event", async () => {
    const tracer = new RecordingTracer();
    const shadow: Listener = { ...listener("pre-tool", "judge", () => deny("risky")), mode: "shadow" };
    const { env: e, events } = env([listener("pre-tool", "first", () => ({ kind: "pass" })), listener("pre-tool", "real", () => deny("no")), shadow], tracer);
    const outcome = await decide(e, "pre-tool", preToolEvent());
    expect(outcome).toMatchObject({ type: "decided", decidedBy: "real" });
    await settled();
    expect(tracer.decisions).toHaveLength(1);
    const [decision] = tracer.decisions;
    expect(decision?.point).toBe("pre-tool");
    expect(decision?.scope).toMatchObject({ sessionId: "s1", agentId: "agent", turn: 1, step: 2, callId: "c1" });
    expect(decision?.summary).toEqual({ outcome: "deny", decidedBy: "real", reason: "no" });
    expect(decision?.calls.map((c) => [c.plugin, c.shadow, c.done])).toEqual([
      ["first", false, true],
      ["real", false, true],
      ["judge", true, true],
    ]);
    expect(decision?.calls[1]?.ended).toMatchObject({ plugin: "real", outcome: "answered", decision: "deny" });
    const traceId = "1".padStart(32, "0");
    const traced = events.filter((event) => event.type === "invocation" || event.type === "decision" || event.type === "shadow-decision");
    expect(traced).toHaveLength(4);
    for (const event of traced) expect(event.scope.traceId).toBe(traceId);
  });

  it("a rule that decided is named on the decision span's summary and on its call's span", async () => {
    const tracer = new RecordingTracer();
    const set = { files: [], params: {}, rules: [compileRule({ file: "policy.yaml", index: 0, rule: { id: "no-bash", point: "pre-tool", tools: ["Bash"], decision: "deny", message: "no" } })] };
    await decide(env(rulesListeners("guardrails", set, {}, 2_000), tracer).env, "pre-tool", preToolEvent());
    const [decision] = tracer.decisions;
    expect(decision?.summary).toEqual({ outcome: "deny", decidedBy: "guardrails", reason: "no", rule: "no-bash" });
    expect(decision?.calls[0]?.ended).toMatchObject({ plugin: "guardrails", decision: "deny", rule: "no-bash" });
  });

  it("hands each call on a wire its own span's traceparent; none to an in-process one, none without a tracer", async () => {
    const seen: ListenerCall[] = [];
    const tracer = new RecordingTracer();
    await decide(env([wire("far", seen, () => ({ kind: "pass" })), wire("near", seen, () => allow())], tracer).env, "pre-tool", preToolEvent());
    expect(seen.map((call) => call.traceparent)).toEqual([`00-${"1".padStart(32, "0")}-${"1".padStart(16, "0")}-01`, `00-${"1".padStart(32, "0")}-${"2".padStart(16, "0")}-01`]);

    const local: ListenerCall[] = [];
    const inProcess: Listener = { ...listener("pre-tool", "local", () => allow()), call: (_event, _ctx, call) => (local.push(call), allow()) };
    await decide(env([inProcess], new RecordingTracer()).env, "pre-tool", preToolEvent());
    expect(local).toHaveLength(1);
    expect(local[0]?.traceparent).toBeUndefined();

    const untraced: ListenerCall[] = [];
    const { env: plain, events } = env([wire("far", untraced, () => allow())]);
    await decide(plain, "pre-tool", preToolEvent());
    expect(untraced[0]?.traceparent).toBeUndefined();
    expect(events.every((event) => event.scope.traceId === undefined)).toBe(true);
  });

  it("makes no span for a point nobody listens to, and records a refusal by a failing plugin's error", async () => {
    const tracer = new RecordingTracer();
    await decide(env([listener("pre-tool", "only-bash", () => allow(), { matches: (tool) => tool === "Bash" })], tracer).env, "pre-tool", preToolEvent("Read"));
    expect(tracer.decisions).toEqual([]);

    const throwing = listener("pre-tool", "broken", () => {
      throw new Error("boom");
    });
    await decide(env([throwing], tracer).env, "pre-tool", preToolEvent());
    expect(tracer.decisions[0]?.summary).toMatchObject({ outcome: "error", decidedBy: "broken" });
    expect(tracer.decisions[0]?.calls[0]?.ended).toMatchObject({ outcome: "error" });
  });

  it("gives the cause of a plugin that failed open to the span of the default it led to, at a waterfall and a chain", async () => {
    const tracer = new RecordingTracer();
    const garbage = (point: PointName): Listener => ({ ...listener(point, "down", () => undefined, { kind: "remote", failurePolicy: "fail-open" }), call: async () => ({ kind: "bogus" }) });
    const { env: e } = env([garbage("pre-tool"), garbage("rewrite")], tracer);
    await decide(e, "pre-tool", preToolEvent());
    await decide(e, "rewrite", preToolEvent());
    await settled();
    expect(tracer.decisions.map((d) => [d.point, d.summary])).toEqual([
      ["pre-tool", { outcome: "allow", decidedBy: "default", cause: "invalid_answer" }],
      ["rewrite", { outcome: "pass", decidedBy: "default", cause: "invalid_answer" }],
    ]);
  });

  it("ends the decision span as cancelled when the caller goes away", async () => {
    const tracer = new RecordingTracer();
    const turn = new AbortController();
    const hanging = listener("pre-tool", "slow", () => new Promise<never>(() => {}));
    const { env: e } = env([hanging], tracer);
    const pending = decide({ ...e, signal: turn.signal }, "pre-tool", preToolEvent());
    turn.abort(new Error("agent gone"));
    await expect(pending).rejects.toThrow("agent gone");
    await settled();
    expect(tracer.decisions[0]?.summary).toEqual({ outcome: "cancelled" });
    expect(tracer.decisions[0]?.calls[0]).toMatchObject({ done: true, ended: undefined });
  });
});
