// The awaited finalize boundary (a tool whose finalize lives across a wire, as the hosted loop's
// do) through runToolBatch: once per call on every path, content only, total under its deadline;
// and onCommitted, which tells the loop of each call as it commits, in model order.
import { block, deny, pass, pluginMessage, accept, text } from "@hookd/sdk";
import type { ToolCall, ToolResult } from "@hookd/sdk";
import { describe, expect, test, vi } from "vitest";
import type { AwaitedFinalize, ToolCallOutcome, ToolSpec } from "../src/engine/pipeline/index.js";
import { runToolBatch } from "../src/engine/pipeline/index.js";
import { deferred, pipelineHarness } from "./support/pipeline-harness.js";

/** A tool whose awaited finalize records each call and answers what `answer` gives. */
function remoteTool(log: ToolCall[], answer: (result: ToolResult, signal: AbortSignal) => Promise<unknown>, deadlineMs = 5_000): ToolSpec {
  const finalizeAwaited: AwaitedFinalize = {
    deadlineMs,
    run: (result, call, signal) => {
      log.push(call);
      return answer(result, signal);
    },
  };
  return { name: "echo", concurrencySafe: true, finalizeAwaited };
}

const command = (call: ToolCall): string => String((call.arguments as { c?: unknown }).c);

describe("an awaited finalize", () => {
  test("runs once per call on every path, replacing only the content", async () => {
    const log: ToolCall[] = [];
    const h = pipelineHarness({
      tools: [remoteTool(log, async (result) => [text(`[final] ${result.isError ? "failed" : "ok"}`)])],
      dispatch: async (call) => {
        if (command(call) === "throw") throw new Error("tool broke");
        return { isError: false, value: "v", content: [], metadata: { by: "body" }, contexts: [pluginMessage("body", "deferred")] };
      },
      plugins: [
        {
          name: "policy",
          points: {
            "pre-tool": (e) => (command(e.call) === "deny" ? deny("nope") : command(e.call) === "throw-pre" ? Promise.reject(new Error("broke")) : pass()),
            "post-tool": (e) => (command(e.call) === "block" ? block("blocked", [pluginMessage("policy", "why")]) : accept()),
          },
        },
      ],
    });
    const { calls } = await h.batch(["ok", "deny", "throw-pre", "throw", "block"].map((c, i) => ({ callId: `c${i + 1}`, toolName: "echo", arguments: { c } })));
    expect(log.map((call) => call.callId)).toEqual(["c1", "c2", "c3", "c4", "c5"]);
    expect(calls.map((c) => [c.result.isError, c.result.isError ? c.result.code : "", c.result.content])).toEqual([
      [false, "", [text("[final] ok")]],
      [true, "denied", [text("[final] failed")]],
      [true, "listener_error", [text("[final] failed")]],
      [true, "tool_error", [text("[final] failed")]],
      [true, "blocked", [text("[final] failed")]],
    ]);
    // Metadata and contexts stay the candidate's.
    expect(calls[0]?.result).toMatchObject({ metadata: { by: "body" }, contexts: [pluginMessage("body", "deferred")] });
    expect(calls[4]?.result.contexts).toEqual([pluginMessage("policy", "why")]);
  });

  test("keeps the candidate's content when it rejects, answers unusable content, or answers nothing", async () => {
    for (const answer of [() => Promise.reject(new Error("agent gone")), async () => [{ type: "json", json: "{nope" }], async () => ({ isError: true }), async () => undefined]) {
      const log: ToolCall[] = [];
      const h = pipelineHarness({ tools: [remoteTool(log, answer)] });
      const { calls } = await h.batch([{ toolName: "echo", arguments: "kept" }]);
      expect(log).toHaveLength(1);
      expect(calls[0]?.result).toEqual({ isError: false, value: "kept", content: [text("kept")], contexts: [] });
    }
  });

  test("keeps the content once its deadline passes, and aborts the signal it gave", async () => {
    vi.useFakeTimers();
    try {
      const log: ToolCall[] = [];
      const aborted = deferred<unknown>();
      const h = pipelineHarness({
        tools: [
          remoteTool(
            log,
            (_result, signal) =>
              new Promise(() => {
                signal.addEventListener("abort", () => aborted.resolve(signal.reason));
              }),
            250,
          ),
        ],
      });
      const running = h.batch([{ toolName: "echo", arguments: "slow" }]);
      await vi.advanceTimersByTimeAsync(250);
      const { calls } = await running;
      expect(calls[0]?.result.content).toEqual([text("slow")]);
      expect(await aborted.promise).toMatchObject({ code: "deadline_exceeded" });
    } finally {
      vi.useRealTimers();
    }
  });

  test("a cancelled turn still reaches it, exactly once", async () => {
    const log: ToolCall[] = [];
    const started = deferred();
    const h = pipelineHarness({
      tools: [remoteTool(log, async () => [text("final")])],
      dispatch: (_call, signal) =>
        new Promise((_resolve, reject) => {
          started.resolve();
          signal.addEventListener("abort", () => reject(signal.reason as Error));
        }),
    });
    const running = h.batch([{ toolName: "echo", arguments: {} }]);
    await started.promise;
    h.turn.abort(new Error("stop"));
    const { calls } = await running;
    expect(log).toHaveLength(1);
    expect(calls[0]?.result).toMatchObject({ isError: true, code: "cancelled", content: [text("final")] });
  });
});

describe("onCommitted", () => {
  test("tells of each call in model order as it commits, before the batch settles", async () => {
    const h = pipelineHarness({ plugins: [{ name: "lint", points: { "post-tool": (e) => accept({ additionalContexts: [pluginMessage("lint", e.call.callId)] }) } }] });
    const second = deferred<string>();
    const committed: ToolCallOutcome[] = [];
    const firstCommitted = deferred();
    let settled = false;
    const running = runToolBatch(
      {
        ...h.options,
        dispatch: async (call) => (call.callId === "c2" ? second.promise : "first"),
        onCommitted: (outcome) => {
          committed.push(outcome);
          if (outcome.call.callId === "c1") firstCommitted.resolve();
        },
      },
      [
        { callId: "c1", toolName: "echo", arguments: {} },
        { callId: "c2", toolName: "echo", arguments: {} },
      ],
    ).then((outcome) => ((settled = true), outcome));
    await firstCommitted.promise;
    expect(committed.map((c) => c.call.callId)).toEqual(["c1"]);
    expect(settled).toBe(false);
    second.resolve("second");
    const outcome = await running;
    expect(committed.map((c) => [c.call.callId, c.result.contexts.map((m) => m.content)])).toEqual([
      ["c1", [[text("c1")]]],
      ["c2", [[text("c2")]]],
    ]);
    expect(outcome.calls).toEqual(committed);
  });
});
