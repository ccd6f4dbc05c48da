// decide()'s verdict: a deciding point's verdict carries the
// trace its decision record gives (one measurement, one decider, one cause), for a decision, a
// failed handler, a chain and the turn-stopping merge; an ask the agent's approver resolved is
// traced and recorded by APPROVER_DECIDER.
import { definePlugin, deny, patch, snapshotJson, steer, userMessage } from "@hookd/sdk";
import type { DecisionTrace, PointName, ToolCall } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import { decide } from "../src/engine/decide.js";
import type { PointEnv } from "../src/engine/decide.js";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { decideTurnStop } from "../src/engine/loop/index.js";
import { APPROVER_DECIDER, decideToolPolicy } from "../src/engine/pipeline/index.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";

const session = { sessionId: "s", agentId: "a", cwd: "/" };
const live = new AbortController().signal;

function toolCall(command: string): ToolCall {
  const args = snapshotJson({ command });
  return { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s", turn: 1, step: 1 };
}

function over(...plugins: Parameters<typeof definePlugin>[0][]): { env: PointEnv; events: EngineEvent[] } {
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const registry = new PluginRegistry(plugins.flatMap((plugin) => inProcessListeners(definePlugin(plugin))));
  return { env: { registry, bus, signal: live, scope: { sessionId: "s", agentId: "a", turn: 1, step: 1 } }, events };
}

/** The one decision recorded at `point`, as the trace it should agree with. */
function recordedTrace(events: readonly EngineEvent[], point: PointName): DecisionTrace {
  const records = events.filter((event) => event.type === "decision" && event.point === point);
  expect(records).toHaveLength(1);
  const [record] = records;
  if (record?.type !== "decision") throw new Error("no decision recorded");
  return { decidedBy: record.decidedBy, ...(record.cause === undefined ? {} : { failureCause: record.cause }), durationUs: record.durationUs };
}

describe("decide() gives a deciding point's verdict with its trace", () => {
  it("a waterfall's decision is traced as it is recorded", async () => {
    const { env, events } = over({ name: "judge", points: { "pre-tool": () => deny("no") } });
    const verdict = await decide(env, "pre-tool", { session, call: toolCall("ls") });
    expect(verdict).toEqual({ type: "decided", decision: { kind: "deny", reason: "no" }, decidedBy: "judge" });
    expect(verdict.trace).toEqual(recordedTrace(events, "pre-tool"));
    expect(verdict.trace.decidedBy).toBe("judge");
  });

  it("a failed handler's verdict names it, with listener_error as its cause", async () => {
    const { env, events } = over({
      name: "broken",
      points: {
        "pre-step": () => {
          throw new Error("boom");
        },
      },
    });
    const verdict = await decide(env, "pre-step", { session, turn: 1, step: 1, messages: [] });
    expect(verdict.type).toBe("error");
    expect(verdict.trace).toEqual({ decidedBy: "broken", failureCause: "listener_error", durationUs: recordedTrace(events, "pre-step").durationUs });
  });

  it("a chain's verdict is traced by the plugins that changed the call, in order", async () => {
    const { env, events } = over({ name: "first", points: { rewrite: { priority: 1, handler: () => patch({ a: 1 }) } } }, { name: "second", points: { rewrite: { priority: 2, handler: () => patch({ b: 2 }) } } });
    const verdict = await decide(env, "rewrite", { session, call: toolCall("ls") });
    expect(verdict.type).toBe("chained");
    expect(verdict.trace).toEqual({ decidedBy: "first,second", durationUs: recordedTrace(events, "rewrite").durationUs });
  });

  it("the turn-stopping merge is traced as it is recorded", async () => {
    const { env, events } = over({ name: "nudger", points: { "turn-stopping": () => steer([userMessage("go on")]) } });
    const stop = await decideTurnStop(env, { session, turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0 }, { maxSteeredContinuations: 2 });
    expect(stop.kind).toBe("steer");
    expect(stop.trace).toEqual(recordedTrace(events, "turn-stopping"));
    expect(stop.trace.decidedBy).toBe("nudger");
  });
});

describe("an ask the agent's approver resolved", () => {
  it("is traced and recorded by APPROVER_DECIDER, a decider's name and no point's", async () => {
    const { env, events } = over({ name: "asker", points: { "pre-tool": () => ({ kind: "ask", reason: "sure?" }) } });
    const verdict = await decideToolPolicy(env, session, toolCall("ls"), () => Promise.resolve("allowed-once"));
    expect(verdict).toMatchObject({ kind: "allow", decidedBy: APPROVER_DECIDER, askedBy: "asker" });
    const approved = events.find((event) => event.type === "decision" && event.decision === "allowed-once");
    expect(approved).toMatchObject({ point: "pre-tool", decidedBy: APPROVER_DECIDER });
    expect(verdict.kind === "allow" ? verdict.trace : undefined).toEqual({ decidedBy: APPROVER_DECIDER, durationUs: approved?.type === "decision" ? approved.durationUs : -1 });
  });
});
