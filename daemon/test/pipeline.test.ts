// The tool pipeline's policy rules, through runToolBatch with in-process plugins: sealing,
// frozen results, deny, ask and the approval seam, guard precedence, throwing listeners,
// finalizeContent and the tool-result notification.
import { abstain, allow, ask, deny, pass, text } from "@hookd/sdk";
import type { ContentBlock, ToolCall, ToolResult } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import { runToolCall } from "../src/engine/pipeline/index.js";
import type { ApprovalOutcome, ApprovalRequest, ToolSpec } from "../src/engine/pipeline/index.js";
import { pipelineHarness } from "./support/pipeline-harness.js";

function deepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen);
}

/** A tool that records every finalizeContent call. */
function finalizingTool(log: ToolResult[], finalize: (result: ToolResult) => readonly ContentBlock[] | undefined = () => undefined): ToolSpec {
  return {
    name: "echo",
    concurrencySafe: true,
    finalizeContent: (result) => {
      log.push(result);
      return finalize(result);
    },
  };
}

describe("sealing", () => {
  test("arguments become a frozen lossless snapshot; caller input is neither frozen nor shared", async () => {
    const input = { path: "/tmp/a", big: 2n ** 70n, nested: { list: [1, 2] } };
    const seen: ToolCall[] = [];
    const h = pipelineHarness({ plugins: [{ name: "spy", points: { "pre-tool": (event) => (seen.push(event.call), pass()) } }] });
    const { calls } = await h.batch([{ callId: "c1", toolName: "echo", arguments: input }]);
    const call = calls[0]?.call;
    expect(call?.argumentsJson).toBe('{"path":"/tmp/a","big":1180591620717411303424,"nested":{"list":[1,2]}}');
    expect(call?.arguments).toEqual(input);
    expect(call?.arguments).not.toBe(input);
    expect(deepFrozen(call)).toBe(true);
    expect(Object.isFrozen(input) || Object.isFrozen(input.nested)).toBe(false);
    input.nested.list.push(3); // the caller may still change its own object; the call does not see it
    expect(call?.argumentsJson).toContain("[1,2]");
    expect(seen[0]).toBe(call); // one identity from policy to the final outcome
    expect(calls[0]?.result).toMatchObject({ isError: false, value: { path: "/tmp/a" } });
  });

  test("arguments given as JSON text are stored canonically", async () => {
    const h = pipelineHarness();
    const { calls } = await h.batch([{ toolName: "echo", argumentsJson: ' { "n" : 9223372036854775807 } ' }]);
    expect(calls[0]?.call.argumentsJson).toBe('{"n":9223372036854775807}');
    expect(calls[0]?.call.callId).not.toBe(""); // an opaque identity is generated when the agent gives none
    expect(calls[0]?.call.rootCallId).toBe(calls[0]?.call.callId);
  });

  const cyclic: Record<string, unknown> = {};
  cyclic.self = cyclic;
  test.each([
    ["a function", { toolName: "echo", arguments: { cb: () => 1 } }],
    ["a cycle", { toolName: "echo", arguments: cyclic }],
    ["a hole in an array", { toolName: "echo", arguments: [1, , 3] }], // eslint-disable-line no-sparse-arrays
    ["text that is not JSON", { toolName: "echo", argumentsJson: "{" }],
  ])("arguments with %s fail at once and skip every policy phase; finalize and tool-result still run", async (_what, proposed) => {
    const called: string[] = [];
    const finalized: ToolResult[] = [];
    const h = pipelineHarness({
      tools: [finalizingTool(finalized)],
      dispatch: async () => called.push("dispatch"),
      plugins: [
        {
          name: "everywhere",
          points: {
            "pre-tool": () => (called.push("pre-tool"), pass()),
            guard: () => (called.push("guard"), abstain()),
            execute: () => (called.push("execute"), pass()),
            "post-tool": () => (called.push("post-tool"), pass()),
            "tool-result": () => void called.push("tool-result"),
          },
        },
      ],
    });
    const { calls } = await h.batch([proposed]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "invalid_arguments" });
    expect(calls[0]?.result.content[0]).toEqual(text(`Error: ${(calls[0]?.result as { message: string }).message}`));
    expect(called).toEqual(["tool-result"]);
    expect(finalized).toHaveLength(1);
    expect(calls[0]?.call.argumentsJson).toBe("null");
  });

  test("a nested call carries only its parent's token", async () => {
    const h = pipelineHarness();
    const outer = (await h.call({ callId: "outer", toolName: "echo", arguments: {} })).call;
    expect(outer.parentCallId).toBeUndefined();
    const child = await runToolCall({ ...h.options, parent: outer }, { callId: "child", toolName: "echo", arguments: {} });
    expect(child.call).toMatchObject({ callId: "child", parentCallId: "outer", rootCallId: "outer" });
  });
});

describe("frozen results", () => {
  test("every result handed to a wrapper, post-tool and tool-result is frozen; mutating it throws", async () => {
    const checks: { where: string; frozen: boolean; threw: boolean }[] = [];
    const probe = (where: string, result: ToolResult): void => {
      let threw = false;
      try {
        (result as { isError: boolean }).isError = true;
      } catch (error) {
        threw = error instanceof TypeError;
      }
      checks.push({ where, frozen: deepFrozen(result), threw });
    };
    const h = pipelineHarness({
      plugins: [
        {
          name: "probe",
          points: {
            execute: async (_event, ctx) => {
              const inner = await ctx.next();
              probe("execute", inner);
              return inner;
            },
            "post-tool": (event) => (probe("post-tool", event.result), pass()),
            "tool-result": (event) => probe("tool-result", event.result),
          },
        },
      ],
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: { a: [1] } }]);
    expect(checks).toEqual([
      { where: "execute", frozen: true, threw: true },
      { where: "post-tool", frozen: true, threw: true },
      { where: "tool-result", frozen: true, threw: true },
    ]);
    expect(deepFrozen(calls[0]?.result)).toBe(true);
    expect(calls[0]?.result).toMatchObject({ isError: false, value: { a: [1] } });
  });
});

describe("deny", () => {
  test("a deny skips execute and dispatch; the model sees Error: <reason>; post-tool still runs over the frozen failure", async () => {
    const called: string[] = [];
    const postSaw: ToolResult[] = [];
    const h = pipelineHarness({
      dispatch: async () => called.push("dispatch"),
      plugins: [
        {
          name: "policy",
          points: {
            "pre-tool": () => deny("rm -rf is not allowed"),
            execute: () => (called.push("execute"), pass()),
            "post-tool": (event) => (postSaw.push(event.result), pass()),
          },
        },
      ],
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    const denied = { isError: true, code: "denied", name: "policy", message: "rm -rf is not allowed", content: [text("Error: rm -rf is not allowed")], contexts: [] };
    expect(calls[0]?.result).toEqual(denied);
    expect(called).toEqual([]);
    expect(postSaw).toEqual([denied]);
    expect(Object.isFrozen(postSaw[0])).toBe(true);
  });
});

describe("ask and the approval seam", () => {
  const asking = { name: "asker", points: { "pre-tool": () => ask("really write?") } };

  test("without a seam, ask is a deny with a clear reason", async () => {
    const h = pipelineHarness({ plugins: [asking] });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "approval" });
    expect((calls[0]?.result as { message: string }).message).toMatch(/no approval channel.*asker asked: really write\?/);
  });

  test("allowed-once continues to dispatch, and the seam sees the sealed call, reason, asker and the turn's signal", async () => {
    const requests: ApprovalRequest[] = [];
    const dispatched: string[] = [];
    const h = pipelineHarness({
      plugins: [asking],
      approval: async (request) => (requests.push(request), "allowed-once"),
      dispatch: async (call) => (dispatched.push(call.callId), "done"),
    });
    const { calls } = await h.batch([{ callId: "c1", toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: false, value: "done" });
    expect(dispatched).toEqual(["c1"]);
    expect(requests[0]).toMatchObject({ reason: "really write?", askedBy: "asker", session: h.session });
    expect(requests[0]?.call).toBe(calls[0]?.call);
    expect(requests[0]?.signal).toBe(h.turn.signal);
    expect(h.events).toContainEqual(expect.objectContaining({ type: "decision", point: "pre-tool", decision: "allowed-once", decidedBy: "approval" }));
  });

  test("allowed-once does not bypass the guards", async () => {
    const dispatched: string[] = [];
    const h = pipelineHarness({
      plugins: [asking, { name: "guardian", points: { guard: () => deny("never on Fridays") } }],
      approval: async () => "allowed-once",
      dispatch: async (call) => dispatched.push(call.callId),
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "guardian", message: "never on Fridays" });
    expect(dispatched).toEqual([]);
  });

  test("rejected, cancelled, unavailable and a missing seam are denials with distinct reasons; a throwing seam is unavailable", async () => {
    const reasonFor = async (approval?: () => Promise<ApprovalOutcome>): Promise<string> => {
      const dispatched: string[] = [];
      const h = pipelineHarness({ plugins: [asking], dispatch: async (c) => dispatched.push(c.callId), ...(approval ? { approval } : {}) });
      const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
      expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "approval" });
      expect(dispatched).toEqual([]);
      return (calls[0]?.result as { message: string }).message;
    };
    const reasons = {
      missing: await reasonFor(),
      rejected: await reasonFor(async () => "rejected"),
      cancelled: await reasonFor(async () => "cancelled"),
      unavailable: await reasonFor(async () => "unavailable"),
    };
    expect(new Set(Object.values(reasons)).size).toBe(4);
    expect(reasons.rejected).toMatch(/rejected/);
    expect(reasons.cancelled).toMatch(/cancelled/);
    expect(reasons.unavailable).toMatch(/unavailable/);
    const throwing = await reasonFor(async () => {
      throw new Error("socket closed");
    });
    expect(throwing).toBe(reasons.unavailable);
    expect(await reasonFor(async () => "maybe" as ApprovalOutcome)).toBe(reasons.unavailable);
  });
});

describe("guards", () => {
  test("a guard denial wins over any allow, whatever the listener order; the first denying guard wins", async () => {
    const guardCalls: string[] = [];
    const guard = (name: string, priority: number, answer: "deny" | "abstain") => ({
      name,
      points: { guard: { priority, handler: () => (guardCalls.push(name), answer === "deny" ? deny(`${name} says no`) : abstain()) } },
    });
    const h = pipelineHarness({
      plugins: [
        // The allowing plugin runs outermost (lowest priority) and answers allow outright.
        { name: "allower", points: { "pre-tool": { priority: -100, handler: () => allow() } } },
        guard("g-late", 10, "deny"),
        guard("g-first", 1, "deny"),
        guard("g-abstain", -5, "abstain"),
      ],
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "denied", name: "g-first", message: "g-first says no" });
    expect(guardCalls).toEqual(["g-abstain", "g-first"]);
  });
});

describe("a throwing listener", () => {
  const cases = [
    ["pre-tool", { "pre-tool": () => Promise.reject(new Error("pre-tool broke")) }],
    ["guard", { guard: () => Promise.reject(new Error("guard broke")) }],
    ["execute", { execute: () => Promise.reject(new Error("execute broke")) }],
  ] as const;
  test.each(cases)("at %s yields a final failure that bypasses post-tool; finalize and tool-result still run", async (point, handlers) => {
    const called: string[] = [];
    const finalized: ToolResult[] = [];
    const observed: ToolResult[] = [];
    const h = pipelineHarness({
      tools: [finalizingTool(finalized)],
      dispatch: async () => called.push("dispatch"),
      plugins: [
        { name: "broken", points: handlers },
        {
          name: "watcher",
          points: { "post-tool": () => (called.push("post-tool"), pass()), "tool-result": (event) => void observed.push(event.result) },
        },
      ],
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    const result = calls[0]?.result;
    expect(result).toMatchObject({ isError: true, code: "listener_error", name: "broken" });
    expect((result as { message: string }).message).toContain(`${point} broke`);
    expect(called).toEqual([]);
    expect(finalized).toEqual([result]);
    expect(observed).toEqual([result]);
  });

  test("an inner wrapper's throw stays final even when an outer wrapper returns a success", async () => {
    const h = pipelineHarness({
      plugins: [
        {
          name: "outer",
          points: {
            execute: {
              priority: 0,
              handler: async (_event, ctx) => {
                await ctx.next();
                return { isError: false, value: "all good", content: [], contexts: [] };
              },
            },
          },
        },
        { name: "inner", points: { execute: { priority: 1, handler: () => Promise.reject(new Error("inner broke")) } } },
        { name: "post", points: { "post-tool": () => Promise.reject(new Error("post-tool must not run")) } },
      ],
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "listener_error", name: "inner" });
  });

  test("a plugin answering an invalid decision is a listener error, not a decision", async () => {
    const h = pipelineHarness({ plugins: [{ name: "sloppy", points: { "pre-tool": () => ({ kind: "deny", reason: "" }) } }] });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "listener_error", name: "sloppy" });
  });
});

describe("finalizeContent", () => {
  test("runs exactly once per call, on successes and on denials, and may only replace content", async () => {
    const finalized: ToolResult[] = [];
    const h = pipelineHarness({
      tools: [finalizingTool(finalized, (result) => [text(`[final] ${result.isError ? "failed" : "ok"}`)])],
      plugins: [{ name: "policy", points: { "pre-tool": (event) => ((event.call.arguments as { deny?: boolean }).deny ? deny("nope") : pass()) } }],
    });
    const { calls } = await h.batch([
      { toolName: "echo", arguments: { deny: false } },
      { toolName: "echo", arguments: { deny: true } },
    ]);
    expect(finalized).toHaveLength(2);
    expect(calls[0]?.result).toMatchObject({ isError: false, value: { deny: false }, content: [text("[final] ok")] });
    expect(calls[1]?.result).toEqual({ isError: true, code: "denied", name: "policy", message: "nope", content: [text("[final] failed")], contexts: [] });
  });

  test("a throwing finalize makes the result an error and is not run again", async () => {
    const finalized: ToolResult[] = [];
    const observed: ToolResult[] = [];
    const h = pipelineHarness({
      tools: [
        finalizingTool(finalized, () => {
          throw new Error("secret leaked");
        }),
      ],
      plugins: [{ name: "watch", points: { "tool-result": (event) => void observed.push(event.result) } }],
    });
    const { calls } = await h.batch([{ toolName: "echo", arguments: { a: 1 } }]);
    expect(finalized).toHaveLength(1);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "finalize_error", name: "echo" });
    expect(calls[0]?.result.content).toEqual([text("Error: finalizeContent of echo failed: secret leaked")]);
    expect(observed).toEqual([calls[0]?.result]);
  });

  test("content that is not JSON-safe from finalize is a finalize_error", async () => {
    const finalized: ToolResult[] = [];
    const h = pipelineHarness({ tools: [finalizingTool(finalized, () => [{ type: "json", json: "{not json" }])] });
    const { calls } = await h.batch([{ toolName: "echo", arguments: 1 }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "finalize_error" });
    expect(finalized).toHaveLength(1);
  });

  test("the definition is snapshotted when the call is sealed", async () => {
    const finalized: string[] = [];
    const spec: { -readonly [K in keyof ToolSpec]: ToolSpec[K] } = { name: "echo", concurrencySafe: true, finalizeContent: () => void finalized.push("v1") };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = pipelineHarness({ tools: [spec], dispatch: async () => (await gate, "x") });
    const running = h.batch([{ toolName: "echo", arguments: {} }]);
    spec.finalizeContent = () => void finalized.push("v2");
    release();
    await running;
    expect(finalized).toEqual(["v1"]);
  });
});

describe("tool-result", () => {
  test("a throwing observer changes nothing; every observer fires exactly once per call, before the engine event", async () => {
    const log: string[] = [];
    const run = async (withThrower: boolean) => {
      const h = pipelineHarness({
        plugins: [
          ...(withThrower ? [{ name: "thrower", points: { "tool-result": () => Promise.reject(new Error("observer broke")) } }] : []),
          { name: "observer", points: { "tool-result": (event: { call: ToolCall }) => void log.push(`observer ${event.call.callId}`) } },
        ],
      });
      h.bus.subscribe((event) => {
        if (event.type === "call-settled") log.push(`event ${event.call.callId}`);
      });
      return (await h.batch([{ callId: "c1", toolName: "echo", arguments: { x: 1 } }])).calls[0]?.result;
    };
    const plain = await run(false);
    log.length = 0;
    const withThrower = await run(true);
    expect(withThrower).toEqual(plain);
    expect(log).toEqual(["observer c1", "event c1"]);
  });

  test("the call-settled engine event carries the sealed call, the final result and who decided", async () => {
    const h = pipelineHarness();
    const { calls } = await h.batch([{ callId: "c1", toolName: "echo", arguments: "hi" }]);
    const events = h.events.filter((e) => e.type === "call-settled");
    expect(events).toEqual([
      {
        type: "call-settled",
        scope: { sessionId: "s1", agentId: "agent-1", turn: 1, step: 1, callId: "c1" },
        call: calls[0]?.call,
        result: calls[0]?.result,
        trace: { decidedBy: "default", durationUs: expect.any(Number) as unknown },
      },
    ]);
    expect(calls[0]?.trace).toEqual({ decidedBy: "default", durationUs: expect.any(Number) as unknown });
    expect(calls[0]?.result.content).toEqual([text("hi")]); // a string value is presented as one text block
  });
});
