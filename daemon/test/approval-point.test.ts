// The approval point through the tool pipeline and decideToolPolicy: a waterfall resolving an
// ask before the agent's approver. A plugin approves once, rejects, or passes; when all pass the
// seam (the agent's approver) decides; guards still deny after an approval; a failing approval
// plugin under fail-closed rejects, naming itself; an agent resolving asks itself gets the ask
// back only when every approval plugin passed.
import { abstain, approve, ask, definePlugin, deny, pass, reject, snapshotJson } from "@hookd/sdk";
import type { ApprovalEvent, ToolCall } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { RETURN_ASK, decideToolPolicy } from "../src/engine/pipeline/index.js";
import type { ApprovalRequest } from "../src/engine/pipeline/index.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import { pipelineHarness } from "./support/pipeline-harness.js";

const asking = { name: "asker", points: { "pre-tool": () => ask("really write?") } };

describe("the approval waterfall in the pipeline", () => {
  test("a plugin's approve lets the call run once; the agent's approver is not asked; the plugin is named", async () => {
    const seen: ApprovalEvent[] = [];
    const seam: ApprovalRequest[] = [];
    const dispatched: string[] = [];
    const h = pipelineHarness({
      plugins: [asking, { name: "approver", points: { approval: (event) => (seen.push(event), approve()) } }],
      approval: async (request) => (seam.push(request), "rejected"),
      dispatch: async (call) => (dispatched.push(call.callId), "done"),
    });
    const { calls } = await h.batch([{ callId: "c1", toolName: "echo", arguments: { a: 1 } }]);
    expect(calls[0]?.result).toMatchObject({ isError: false, value: "done" });
    expect(dispatched).toEqual(["c1"]);
    expect(seam).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ reason: "really write?", askedBy: "asker", session: h.session });
    expect(seen[0]?.call).toBe(calls[0]?.call);
    expect(calls[0]?.trace?.decidedBy).toBe("approver");
    expect(h.events).toContainEqual(expect.objectContaining({ type: "decision", point: "approval", decision: "approve", decidedBy: "approver" }));
    expect(h.events).toContainEqual(expect.objectContaining({ type: "decision", point: "pre-tool", decision: "allowed-once", decidedBy: "approver" }));
  });

  test("a plugin's reject denies with its reason; dispatch and the agent's approver are skipped", async () => {
    const seam: ApprovalRequest[] = [];
    const dispatched: string[] = [];
    const h = pipelineHarness({
      plugins: [asking, { name: "gatekeeper", points: { approval: () => reject("not on a Friday") } }],
      approval: async (request) => (seam.push(request), "allowed-once"),
      dispatch: async (call) => dispatched.push(call.callId),
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "gatekeeper", message: "not on a Friday" });
    expect(dispatched).toEqual([]);
    expect(seam).toEqual([]);
    expect(calls[0]?.trace?.decidedBy).toBe("gatekeeper");
    expect(h.events).toContainEqual(expect.objectContaining({ type: "decision", point: "pre-tool", decision: "rejected", decidedBy: "gatekeeper", reason: "not on a Friday" }));
  });

  test("when every plugin passes, the agent's approver decides, in plugin order", async () => {
    const order: string[] = [];
    const seam: ApprovalRequest[] = [];
    const h = pipelineHarness({
      plugins: [
        asking,
        { name: "first", points: { approval: { handler: () => (order.push("first"), pass()), priority: 1 } } },
        { name: "second", points: { approval: { handler: () => (order.push("second"), pass()), priority: 2 } } },
      ],
      approval: async (request) => (seam.push(request), "allowed-once"),
      dispatch: async () => "ran",
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(order).toEqual(["first", "second"]);
    expect(seam).toHaveLength(1);
    expect(calls[0]?.result).toMatchObject({ isError: false, value: "ran" });
    expect(calls[0]?.trace?.decidedBy).toBe("approval");
    expect(h.events).toContainEqual(expect.objectContaining({ type: "decision", point: "pre-tool", decision: "allowed-once", decidedBy: "approval" }));
  });

  test("an approval does not bypass the guards", async () => {
    const dispatched: string[] = [];
    const h = pipelineHarness({
      plugins: [asking, { name: "approver", points: { approval: () => approve() } }, { name: "guardian", points: { guard: () => deny("never on Fridays") } }],
      dispatch: async (call) => dispatched.push(call.callId),
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "guardian", message: "never on Fridays" });
    expect(dispatched).toEqual([]);
  });

  test("a call that nobody asked about never reaches the approval plugins", async () => {
    const seen: string[] = [];
    const h = pipelineHarness({ plugins: [{ name: "approver", points: { approval: (e) => (seen.push(e.call.callId), reject("no")) } }], dispatch: async () => "ran" });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: false, value: "ran" });
    expect(seen).toEqual([]);
  });

  test("tool matchers apply: a plugin scoped to another tool is not asked", async () => {
    const seen: string[] = [];
    const h = pipelineHarness({
      plugins: [asking, { name: "bash-approver", points: { approval: { handler: () => (seen.push("bash"), approve()), tools: ["Bash"] } } }],
      approval: async () => "rejected",
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(seen).toEqual([]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "approval" });
  });

  test("a fail-closed approval plugin that misses its deadline rejects, naming itself; it never approves", async () => {
    const dispatched: string[] = [];
    const h = pipelineHarness(
      {
        plugins: [asking, { name: "slow-approver", points: { approval: () => new Promise<never>(() => {}) } }],
        approval: async () => "allowed-once",
        dispatch: async (call) => dispatched.push(call.callId),
      },
      { "slow-approver": { approval: { deadlineMs: 5, failurePolicy: "fail-closed" } } },
    );
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(dispatched).toEqual([]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "slow-approver" });
    expect((calls[0]?.result as { message: string }).message).toMatch(/slow-approver/);
    expect(calls[0]?.trace).toMatchObject({ decidedBy: "slow-approver", failureCause: "deadline_exceeded" });
  });

  test("an approval handler that throws is a final listener failure, never an approval", async () => {
    const h = pipelineHarness({
      plugins: [asking, { name: "broken", points: { approval: () => { throw new Error("boom"); } } }],
      approval: async () => "allowed-once",
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "listener_error", name: "broken" });
  });
});

describe("the agent's approver: reasons that say what happened", () => {
  const reasonFor = async (approval: () => Promise<unknown>): Promise<string> => {
    const h = pipelineHarness({ plugins: [asking], approval: approval as never });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "approval" });
    return (calls[0]?.result as { message: string }).message;
  };

  test("no approver is not a cancellation; an unanswered request says no answer in time; the agent's note is kept", async () => {
    const noApprover = await reasonFor(async () => "no-approver");
    expect(noApprover).toMatch(/the agent has no approver \(asker asked: really write\?\)/);
    expect(noApprover).not.toMatch(/cancel/);
    expect(await reasonFor(async () => "timed-out")).toMatch(/^no approval answer in time/);
    expect(await reasonFor(async () => ({ outcome: "rejected", note: "the user said no" }))).toBe("approval rejected: the user said no (asker asked: really write?)");
  });
});

describe("decideToolPolicy with RETURN_ASK runs the approval plugins first", () => {
  const session = { sessionId: "s", agentId: "a", cwd: "/" };
  const args = snapshotJson({ command: "sudo ls" });
  const call: ToolCall = { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s", turn: 1, step: 1 };

  async function verdictWith(answer: () => ReturnType<typeof approve> | ReturnType<typeof reject> | ReturnType<typeof pass>, guard = () => abstain() as ReturnType<typeof abstain> | ReturnType<typeof deny>) {
    const plugin = definePlugin({ name: "p", points: { "pre-tool": () => ask("sudo needs a human"), approval: answer, guard } });
    const bus = new EventBus();
    const events: EngineEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const env = { registry: new PluginRegistry(inProcessListeners(plugin)), bus, signal: new AbortController().signal, scope: { sessionId: "s", agentId: "a", turn: 1, step: 1 } };
    return decideToolPolicy(env, session, call, RETURN_ASK);
  }

  test("an approval plugin's approve is an allow (after the guards), not an ask", async () => {
    expect(await verdictWith(() => approve())).toMatchObject({ kind: "allow", decidedBy: "p", askedBy: "p" });
    expect(await verdictWith(() => approve(), () => deny("never sudo"))).toMatchObject({ kind: "deny", phase: "guard", reason: "never sudo" });
  });

  test("a reject is a deny; the ask comes back only when every approval plugin passed", async () => {
    expect(await verdictWith(() => reject("no sudo"))).toMatchObject({ kind: "deny", phase: "approval", decidedBy: "p", reason: "no sudo" });
    expect(await verdictWith(() => pass())).toMatchObject({ kind: "ask", decidedBy: "p", reason: "sudo needs a human" });
  });
});
