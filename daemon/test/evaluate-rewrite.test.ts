// EvaluateService.evaluate("rewrite") over a real registry: a tool nobody rewrites is given back as
// the same call without entering the chain (no rewrite decision on the bus), yet the in-flight
// caps still refuse it and a cancelled caller still gets CANCELLED; a rewritten tool runs the chain.
import { status } from "@grpc/grpc-js";
import { definePlugin, patch, snapshotJson } from "@hookd/sdk";
import type { SessionInfo, ToolCall } from "@hookd/sdk";
import { StatusError } from "@hookd/sdk/internal";
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../src/engine/events.js";
import { PluginRegistry } from "../src/engine/registry.js";
import type { Admission } from "../src/host/admission.js";
import type { EvaluateService } from "../src/host/evaluate.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import { evaluateServiceOver } from "./support/evaluate-service.js";

const session: SessionInfo = { sessionId: "s1", agentId: "rita", cwd: "/" };
function service(maxInflightPerAgent: number): { evaluate: EvaluateService; events: EngineEvent[]; admission: Admission } {
  const confine = definePlugin({ name: "confine", points: { rewrite: { tools: ["Bash"], handler: () => patch({ confined: true }) } } });
  const { evaluate, bus, admission } = evaluateServiceOver(new PluginRegistry(inProcessListeners(confine, {})), { maxInflightPerAgent });
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return { evaluate, events, admission };
}

function call(toolName: string): ToolCall {
  const snapshot = snapshotJson({ path: "a" });
  return { callId: `c-${toolName}`, rootCallId: `c-${toolName}`, toolName, arguments: snapshot.value, argumentsJson: snapshot.text, sessionId: session.sessionId, turn: 1, step: 1 };
}

const rewriteDecisions = (events: readonly EngineEvent[]) => events.filter((e) => e.type === "decision" && e.point === "rewrite");
const live = (): AbortSignal => new AbortController().signal;

describe("evaluate rewrite of a tool nobody rewrites", () => {
  it("gives back the same call, decided by default, without running the chain", async () => {
    const { evaluate, events, admission } = service(4);
    const read = call("Read");
    const evaluation = await evaluate.evaluate("rewrite", { session, call: read }, { signal: live() });
    expect(evaluation.outcome).toEqual({ kind: "call", call: read });
    expect(evaluation.outcome.kind === "call" && evaluation.outcome.call).toBe(read);
    expect(evaluation.trace.decidedBy).toBe("default");
    expect(admission.inflight).toBe(0);

    // The subscribed tool runs the chain: rewritten, and its decision is recorded.
    const bash = await evaluate.evaluate("rewrite", { session, call: call("Bash") }, { signal: live() });
    expect(bash.outcome.kind === "call" && bash.outcome.call.argumentsJson).toBe('{"path":"a","confined":true}');
    expect(bash.trace.decidedBy).toBe("confine");
    expect(rewriteDecisions(events).map((e) => e.type === "decision" && e.scope.callId)).toEqual(["c-Bash"]);
  });

  it("is still refused over the per-agent cap, and counts toward it only while answering", async () => {
    const { evaluate, admission } = service(1);
    const held = admission.enter(session.agentId);
    const refused = evaluate.evaluate("rewrite", { session, call: call("Read") }, { signal: live() });
    await expect(refused).rejects.toBeInstanceOf(StatusError);
    await expect(refused).rejects.toMatchObject({ code: status.RESOURCE_EXHAUSTED });
    await expect(refused).rejects.toThrow(/limits\.maxInflightPerAgent = 1/);
    held();
    await expect(evaluate.evaluate("rewrite", { session, call: call("Read") }, { signal: live() })).resolves.toMatchObject({ outcome: { kind: "call" } });
    expect(admission.inflight).toBe(0);
  });

  it("answers CANCELLED to a caller that already gave up, as the chain does", async () => {
    const { evaluate } = service(4);
    const cancelled = new AbortController();
    cancelled.abort(new Error("the agent went away"));
    for (const tool of ["Read", "Bash"]) {
      const evaluation = evaluate.evaluate("rewrite", { session, call: call(tool) }, { signal: cancelled.signal });
      await expect(evaluation).rejects.toMatchObject({ code: status.CANCELLED });
      await expect(evaluation).rejects.toThrow(/the agent went away/);
    }
  });
});
