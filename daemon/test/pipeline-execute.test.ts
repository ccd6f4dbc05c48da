// The execute phase through the pipeline: what a wrapper's next() returns for a throwing or
// unknown tool, re-normalized wrapper successes and kept wrapper failures, signal replacement and
// caller cancellation, and plugin faults decided by failure policy.
import { pass, text } from "@hookd/sdk";
import type { ToolCall, ToolResult } from "@hookd/sdk";
import { afterEach, describe, expect, test, vi } from "vitest";
import { unknownTool } from "../src/engine/pipeline/index.js";
import type { ToolSpec } from "../src/engine/pipeline/index.js";
import { deferred, pipelineHarness } from "./support/pipeline-harness.js";

const counter: ToolSpec = {
  name: "count",
  concurrencySafe: true,
  present: (value) => [text(`count=${JSON.stringify(value)}`)],
  validateValue: (value) => {
    if (typeof value !== "number" || value < 0) throw new Error("a count is a number >= 0");
  },
};

/** A wrapper that records what next() returned and hands it on. */
function recordingWrapper(seen: ToolResult[]) {
  return { name: "wrap", points: { execute: async (_e: unknown, ctx: { next: () => Promise<ToolResult> }) => (seen.push(await ctx.next()), pass()) } };
}

describe("next()", () => {
  test("receives the normalized, frozen failure of a throwing tool", async () => {
    const seen: ToolResult[] = [];
    const h = pipelineHarness({ plugins: [recordingWrapper(seen)], dispatch: () => Promise.reject(new TypeError("bad input")) });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    const failure = { isError: true, code: "tool_error", name: "TypeError", message: "bad input", content: [text("Error: bad input")], contexts: [] };
    expect(seen).toEqual([failure]);
    expect(Object.isFrozen(seen[0])).toBe(true);
    expect(calls[0]?.result).toEqual(failure);
  });

  test("receives an unknown_tool failure for a tool nobody declared, without calling the body", async () => {
    const seen: ToolResult[] = [];
    const dispatched: string[] = [];
    const h = pipelineHarness({ plugins: [recordingWrapper(seen)], dispatch: async (call) => dispatched.push(call.toolName) });
    const { calls } = await h.batch([{ toolName: "nope", arguments: {} }]);
    expect(seen[0]).toMatchObject({ isError: true, code: "unknown_tool" });
    expect(calls[0]?.result).toBe(seen[0]);
    expect(dispatched).toEqual([]);
  });

  test("a body that reports an unknown tool gives the same unknown_tool failure", async () => {
    const h = pipelineHarness({ dispatch: (call) => Promise.reject(unknownTool(call.toolName)) });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "unknown_tool", content: [text('Error: unknown tool "echo"')] });
  });

  test("a body returning something that is not JSON gives an invalid_value failure", async () => {
    const h = pipelineHarness({ dispatch: async () => new Map() });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "invalid_value", name: "echo" });
  });

  test("a body's own content is kept, and a wrapper handing on next()'s result does not change it", async () => {
    const h = pipelineHarness({
      tools: [counter],
      dispatch: async () => ({ isError: false, value: 2, content: [text("two items")], contexts: [] }),
      plugins: [{ name: "timer", points: { execute: async (_e, ctx) => ctx.next() } }],
    });
    const { calls } = await h.batch([{ toolName: "count", arguments: {} }]);
    expect(calls[0]?.result).toEqual({ isError: false, value: 2, content: [text("two items")], contexts: [] });
  });
});

describe("wrapper-authored results", () => {
  test("a wrapper success short-circuits dispatch and is re-normalized: presentation recomputed from the value", async () => {
    const dispatched: string[] = [];
    const h = pipelineHarness({
      tools: [counter],
      dispatch: async (call) => dispatched.push(call.callId),
      plugins: [{ name: "cache", points: { execute: () => ({ isError: false, value: 7, content: [text("seven, trust me")], contexts: [] }) } }],
    });
    const { calls } = await h.batch([{ toolName: "count", arguments: {} }]);
    expect(calls[0]?.result).toEqual({ isError: false, value: 7, content: [text("count=7")], contexts: [] });
    expect(dispatched).toEqual([]);
  });

  test("a wrapper success whose value the tool refuses becomes an invalid_value failure", async () => {
    const h = pipelineHarness({
      tools: [counter],
      plugins: [{ name: "cache", points: { execute: () => ({ isError: false, value: -1, content: [], contexts: [] }) } }],
    });
    const { calls } = await h.batch([{ toolName: "count", arguments: {} }]);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "invalid_value", name: "cache" });
  });

  test("a wrapper failure is kept as authored", async () => {
    const authored: ToolResult = { isError: true, code: "timeout", name: "timer", message: "took too long", content: [text("Timed out after 5 s")], contexts: [] };
    const h = pipelineHarness({ plugins: [{ name: "timer", points: { execute: () => authored } }] });
    const { calls } = await h.batch([{ toolName: "echo", arguments: {} }]);
    expect(calls[0]?.result).toEqual(authored);
    expect(calls[0]?.result).not.toBe(authored); // a snapshot, frozen; the plugin's object is not shared
    expect(Object.isFrozen(calls[0]?.result)).toBe(true);
  });
});

describe("signals", () => {
  test("only the signal may be replaced, and caller cancellation still reaches the body", async () => {
    const bodyStarted = deferred();
    let bodySignal: AbortSignal | undefined;
    let bodyCall: ToolCall | undefined;
    let mutationThrew = false;
    const h = pipelineHarness({
      dispatch: (call, signal) => {
        bodySignal = signal;
        bodyCall = call;
        bodyStarted.resolve();
        return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
      },
      plugins: [
        {
          name: "timeout",
          points: {
            execute: async (event, ctx) => {
              try {
                (event.call as { toolName: string }).toolName = "other";
              } catch {
                mutationThrew = true;
              }
              return ctx.next({ signal: new AbortController().signal });
            },
          },
        },
      ],
    });
    const running = h.batch([{ toolName: "echo", arguments: {} }]);
    await bodyStarted.promise;
    expect(bodySignal).not.toBe(h.turn.signal);
    expect(bodySignal?.aborted).toBe(false);
    h.turn.abort(new Error("user pressed escape"));
    const { calls } = await running;
    expect(bodySignal?.aborted).toBe(true);
    expect(bodyCall).toBe(calls[0]?.call);
    expect(mutationThrew).toBe(true);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "cancelled" });
  });

  test("a wrapper's replacement signal reaches the body too (a timeout wrapper)", async () => {
    const bodyStarted = deferred();
    const timer = new AbortController();
    const h = pipelineHarness({
      dispatch: (_call, signal) => {
        bodyStarted.resolve();
        return new Promise((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
      },
      plugins: [{ name: "timeout", points: { execute: (_event, ctx) => ctx.next({ signal: timer.signal }) } }],
    });
    const running = h.batch([{ toolName: "echo", arguments: {} }]);
    await bodyStarted.promise;
    timer.abort(new DOMException("tool took too long", "TimeoutError"));
    const { calls } = await running;
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "deadline_exceeded", message: "tool took too long" });
    expect(h.turn.signal.aborted).toBe(false);
  });

  test("an in-flight plugin call sees the turn's abort; the call is cancelled and still reaches tool-result once", async () => {
    const entered = deferred();
    let sawAbort = false;
    const observed: ToolResult[] = [];
    const h = pipelineHarness({
      plugins: [
        {
          name: "slow",
          points: {
            "pre-tool": (_event, ctx) => {
              entered.resolve();
              return new Promise((resolve) =>
                ctx.signal.addEventListener("abort", () => {
                  sawAbort = true;
                  resolve(pass());
                }),
              );
            },
            "tool-result": (event) => void observed.push(event.result),
          },
        },
      ],
    });
    const running = h.batch([{ toolName: "echo", arguments: {} }]);
    await entered.promise;
    h.turn.abort(new Error("turn aborted"));
    const { calls } = await running;
    expect(sawAbort).toBe(true);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "cancelled" });
    expect(observed).toEqual([calls[0]?.result]);
  });
});

describe("plugin faults are answers decided by failure policy", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  async function hungPreTool(failurePolicy: "fail-closed" | "fail-open") {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const entered = deferred();
    const postSaw: ToolResult[] = [];
    const dispatched: string[] = [];
    const h = pipelineHarness({
      dispatch: async (call) => (dispatched.push(call.callId), "ran"),
      plugins: [
        {
          name: "hung",
          points: {
            "pre-tool": { deadlineMs: 50, failurePolicy, handler: () => (entered.resolve(), new Promise<never>(() => {})) },
            "post-tool": (event) => (postSaw.push(event.result), pass()),
          },
        },
      ],
    });
    const running = h.batch([{ callId: "c1", toolName: "echo", arguments: {} }]);
    await entered.promise;
    await vi.advanceTimersByTimeAsync(49);
    expect(dispatched).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    const { calls } = await running;
    return { result: calls[0]?.result, postSaw, dispatched, h };
  }

  test("a handler that never answers within its deadline denies under fail-closed; post-tool still sees the denial", async () => {
    const { result, postSaw, dispatched, h } = await hungPreTool("fail-closed");
    expect(result).toMatchObject({ isError: true, code: "denied", name: "hung" });
    expect((result as { message: string }).message).toMatch(/deadline exceeded.*fail-closed/);
    expect(dispatched).toEqual([]);
    expect(postSaw).toEqual([result]);
    expect(h.events).toContainEqual(expect.objectContaining({ type: "decision", point: "pre-tool", decision: "deny", decidedBy: "hung", cause: "deadline_exceeded" }));
  });

  test("the same plugin under fail-open passes and the call runs", async () => {
    const { result, dispatched } = await hungPreTool("fail-open");
    expect(result).toMatchObject({ isError: false, value: "ran" });
    expect(dispatched).toEqual(["c1"]);
  });
});
