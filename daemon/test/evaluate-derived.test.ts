// EvaluateService.evaluate, the one method every evaluated point is answered through: each point
// of the evaluate table has its evaluation; a waterfall is answered by its mode (its decision, or
// the point's fail-closed refusal when a handler failed, traced as its record says); an observer
// is heard with the event's place in the session as its scope, and answers nothing.
import { EVALUATED_POINTS, POINT_TABLE, definePlugin, reject, snapshotJson } from "@hookd/sdk";
import type { ToolCall } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../src/engine/events.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { EVALUATIONS } from "../src/host/evaluations.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import { evaluateServiceOver } from "./support/evaluate-service.js";

const session = { sessionId: "s", agentId: "a", cwd: "/" };
const live = { signal: new AbortController().signal };

function toolCall(): ToolCall {
  const args = snapshotJson({ command: "ls" });
  return { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s", turn: 3, step: 4 };
}

function serviceOver(plugin: Parameters<typeof definePlugin>[0]) {
  const { evaluate, bus } = evaluateServiceOver(new PluginRegistry(inProcessListeners(definePlugin(plugin))));
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const decision = (point: string) => {
    const record = events.find((event) => event.type === "decision" && event.point === point);
    if (record?.type !== "decision") throw new Error(`no decision recorded at ${point}`);
    return record;
  };
  return { evaluate, events, decision };
}

describe("EvaluateService.evaluate", () => {
  it("has an evaluation for every point of the evaluate table", () => {
    expect(Object.keys(EVALUATIONS).sort()).toEqual([...EVALUATED_POINTS].sort());
  });

  it("answers a waterfall with its decision, traced as recorded", async () => {
    const { evaluate, decision } = serviceOver({ name: "gate", points: { "pre-step": () => reject("not now") } });
    const evaluation = await evaluate.evaluate("pre-step", { session, turn: 1, step: 1, messages: [] }, live);
    expect(evaluation.decision).toEqual(reject("not now"));
    expect(evaluation.trace).toEqual({ decidedBy: "gate", durationUs: decision("pre-step").durationUs });
  });

  it("answers a waterfall's failed handler with the point's fail-closed refusal, traced as recorded", async () => {
    const failing = () => {
      throw new Error("no answer");
    };
    const { evaluate, decision } = serviceOver({ name: "approver", points: { approval: failing } });
    const evaluation = await evaluate.evaluate("approval", { session, call: toolCall(), reason: "sure?", askedBy: "asker" }, live);
    const record = decision("approval");
    expect(record).toMatchObject({ decision: "error", decidedBy: "approver" });
    expect(evaluation.decision).toEqual(POINT_TABLE.approval.failClosed(record.reason ?? "", "approver"));
    expect(evaluation.trace).toEqual({ decidedBy: "approver", failureCause: "listener_error", durationUs: record.durationUs });
  });

  it("hears an observer at the event's place in the session, and answers nothing", async () => {
    const { evaluate, events } = serviceOver({
      name: "watcher",
      points: { "tool-result": () => undefined, "turn-end": () => undefined, "session-end": () => undefined, "agent-event": () => undefined },
    });
    const result = { isError: false, value: null, content: [], contexts: [] } as const;
    const answers = [
      await evaluate.evaluate("tool-result", { session, call: toolCall(), result }, live),
      await evaluate.evaluate("turn-end", { session, turn: 5, outcome: "completed", detail: "", steps: 6 }, live),
      await evaluate.evaluate("session-end", { session, reason: "closed", detail: "", turns: 7 }, live),
      await evaluate.evaluate("agent-event", { session, dialect: "claude-code", eventName: "Notification", payload: {} }, live),
    ];
    expect(answers).toEqual([undefined, undefined, undefined, undefined]);
    const scopes = events.flatMap((event) => (event.type === "invocation" ? [[event.invocation.point, event.scope]] : []));
    expect(scopes).toEqual([
      ["tool-result", { sessionId: "s", agentId: "a", turn: 3, step: 4, callId: "c1" }],
      ["turn-end", { sessionId: "s", agentId: "a", turn: 5, step: 6 }],
      ["session-end", { sessionId: "s", agentId: "a", turn: 7, step: 0 }],
      ["agent-event", { sessionId: "s", agentId: "a", turn: 0, step: 0, eventName: "Notification" }],
    ]);
  });
});
