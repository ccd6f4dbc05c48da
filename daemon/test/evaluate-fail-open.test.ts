// A failure a fail-open policy passed over is named wherever the decision is reported: the trace
// of every evaluate answer with one (pre-step, rewrite, pre-tool, approval, post-tool,
// turn-stopping) and the point's decision record (what the audit, `hookd tail`, `hookd eval` and
// the console show). With several failures the first in plugin order is named; when a later
// plugin decides, the decision is its own and names none. Plugins are hand-built listeners
// answering garbage or failing as a wire plugin would, so each call faults at once.
import { deny, snapshotJson } from "@hookd/sdk";
import type { PointName, SessionInfo, ToolCall } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../src/engine/events.js";
import { pluginFault } from "../src/engine/faults.js";
import type { FaultCause } from "../src/engine/faults.js";
import type { Listener } from "../src/engine/listener.js";
import { PluginRegistry } from "../src/engine/registry.js";
import type { EvaluateService } from "../src/host/evaluate.js";
import { listener } from "./fixtures/listeners.js";
import { evaluateServiceOver } from "./support/evaluate-service.js";

const session: SessionInfo = { sessionId: "s1", agentId: "agent", cwd: "/" };
const live = { signal: new AbortController().signal };

function toolCall(): ToolCall {
  const snapshot = snapshotJson({ command: "ls" });
  return { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: snapshot.value, argumentsJson: snapshot.text, sessionId: session.sessionId, turn: 1, step: 1 };
}

/** A remote-kind listener under fail-open whose every call faults with `cause`. */
function failing(point: PointName, plugin: string, cause: FaultCause, priority = 0): Listener {
  const base = listener(point, plugin, () => undefined, { kind: "remote", failurePolicy: "fail-open", priority });
  // A garbage answer is invalid_answer; any other cause is what the wire reported.
  const call = cause === "invalid_answer" ? async () => ({ kind: "bogus" }) : async () => Promise.reject(pluginFault(plugin, point, cause, "connection refused"));
  return { ...base, call };
}

function service(listeners: readonly Listener[]): { evaluate: EvaluateService; events: EngineEvent[] } {
  const { evaluate, bus } = evaluateServiceOver(new PluginRegistry(listeners));
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return { evaluate, events };
}

const defaultWith = (failureCause: string) => ({ decidedBy: "default", failureCause, durationUs: expect.any(Number) as number });
const decisionAt = (events: readonly EngineEvent[], point: PointName) => events.find((e) => e.type === "decision" && e.point === point);

describe("a fail-open failure in the evaluate answers and the decision records", () => {
  it("pre-tool: the default allow names the failure, in the trace and the decision record", async () => {
    const { evaluate, events } = service([failing("pre-tool", "gate", "unavailable")]);
    const answer = await evaluate.evaluate("pre-tool", { session, call: toolCall() }, live);
    expect(answer).toEqual({ decision: { kind: "allow" }, trace: defaultWith("unavailable") });
    expect(decisionAt(events, "pre-tool")).toMatchObject({ decision: "allow", decidedBy: "default", cause: "unavailable" });
  });

  it("pre-step, approval, post-tool, rewrite and turn-stopping: the default names the failure", async () => {
    const { evaluate, events } = service([
      failing("pre-step", "steps", "deadline_exceeded"),
      failing("approval", "approver", "unavailable"),
      failing("post-tool", "reviewer", "invalid_answer"),
      failing("rewrite", "rewriter", "crashed"),
      failing("turn-stopping", "stopper", "error_status"),
    ]);
    const preStep = await evaluate.evaluate("pre-step", { session, turn: 1, step: 1, messages: [] }, live);
    expect(preStep).toEqual({ decision: { kind: "enter", messages: [] }, trace: defaultWith("deadline_exceeded") });
    const approval = await evaluate.evaluate("approval", { session, call: toolCall(), reason: "may it?", askedBy: "asker" }, live);
    expect(approval).toEqual({ decision: { kind: "pass" }, trace: defaultWith("unavailable") });
    const result = { isError: false as const, value: "ok", content: [{ type: "text" as const, text: "ok" }], contexts: [] };
    const postTool = await evaluate.evaluate("post-tool", { session, call: toolCall(), result }, live);
    expect(postTool.trace).toEqual(defaultWith("invalid_answer"));
    expect(postTool.decision).toEqual({ kind: "accept" });
    const call = toolCall();
    const rewrite = await evaluate.evaluate("rewrite", { session, call }, live);
    expect(rewrite).toEqual({ outcome: { kind: "call", call }, trace: defaultWith("crashed") });
    const stopping = await evaluate.evaluate("turn-stopping", { session, turn: 1, step: 1, stopHookActive: false, steeredContinuations: 0 }, live);
    expect(stopping).toEqual({ decision: { kind: "pass" }, capped: false, trace: defaultWith("error_status") });

    const causes = Object.fromEntries(events.flatMap((e) => (e.type === "decision" ? [[e.point, [e.decidedBy, e.cause]]] : [])));
    expect(causes).toEqual({
      "pre-step": ["default", "deadline_exceeded"],
      approval: ["default", "unavailable"],
      "post-tool": ["default", "invalid_answer"],
      rewrite: ["default", "crashed"],
      "turn-stopping": ["default", "error_status"],
    });
  });

  it("names the first failure in plugin order (priority, then name), not the first by name", async () => {
    const { evaluate } = service([failing("pre-tool", "a-later", "unavailable", 5), failing("pre-tool", "z-earlier", "invalid_answer", -5)]);
    const answer = await evaluate.evaluate("pre-tool", { session, call: toolCall() }, live);
    expect(answer.trace).toEqual(defaultWith("invalid_answer"));
  });

  it("names no failure when a later plugin decides: the decision is that plugin's answer", async () => {
    const { evaluate, events } = service([failing("pre-tool", "down", "unavailable", -5), listener("pre-tool", "judge", () => deny("judged"))]);
    const answer = await evaluate.evaluate("pre-tool", { session, call: toolCall() }, live);
    expect(answer).toEqual({ decision: { kind: "deny", reason: "judged" }, trace: { decidedBy: "judge", durationUs: expect.any(Number) as number } });
    expect(decisionAt(events, "pre-tool")).not.toHaveProperty("cause");
    // The failure itself is in its invocation record either way.
    expect(events).toContainEqual(expect.objectContaining({ type: "invocation", invocation: expect.objectContaining({ plugin: "down", outcome: "fault", fault: "unavailable" }) as unknown }));
  });
});
