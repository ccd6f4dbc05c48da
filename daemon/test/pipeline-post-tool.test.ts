// post-tool through the pipeline: accept with content or value, the invalid combinations, block,
// and the order of contexts (deferred first, then the decision's; a block keeps only its own),
// including two calls in one step.
import { accept, block, pass, pluginMessage, text, userMessage } from "@hookd/sdk";
import type { AgentMessage, JsonValue, PostToolDecision, ToolResult } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import type { ToolSpec } from "../src/engine/pipeline/index.js";
import { pipelineHarness } from "./support/pipeline-harness.js";

const counter: ToolSpec = {
  name: "count",
  concurrencySafe: true,
  present: (value) => [text(`count=${JSON.stringify(value)}`)],
  validateValue: (value) => {
    if (typeof value !== "number" || value < 0) throw new Error("a count is a number >= 0");
  },
};

/** One post-tool plugin answering `decide`, plus a finalize/tool-result tally. */
function withPostTool(decide: (result: ToolResult) => PostToolDecision | ReturnType<typeof pass>, dispatch?: () => Promise<unknown>) {
  const finalized: ToolResult[] = [];
  const observed: ToolResult[] = [];
  const tool: ToolSpec = { ...counter, finalizeContent: (result) => void finalized.push(result) };
  const h = pipelineHarness({
    tools: [tool],
    dispatch: dispatch ?? (async () => 3),
    plugins: [{ name: "post", points: { "post-tool": (event) => decide(event.result), "tool-result": (event) => void observed.push(event.result) } }],
  });
  return { h, finalized, observed };
}

const run = async (h: ReturnType<typeof pipelineHarness>) => (await h.batch([{ toolName: "count", arguments: {} }])).calls[0]?.result;

describe("accept", () => {
  test("the tool's own presentation is computed from the value", async () => {
    const { h } = withPostTool(() => pass());
    expect(await run(h)).toEqual({ isError: false, value: 3, content: [text("count=3")], contexts: [] });
  });

  test("accept-content replaces only the presentation; the canonical value is kept", async () => {
    const { h } = withPostTool(() => accept({ content: [text("three")] }));
    expect(await run(h)).toEqual({ isError: false, value: 3, content: [text("three")], contexts: [] });
  });

  test("accept-value revalidates the value and recomputes the presentation", async () => {
    const { h } = withPostTool(() => accept({ value: 42 }));
    expect(await run(h)).toEqual({ isError: false, value: 42, content: [text("count=42")], contexts: [] });
  });

  test("accept-value with a value the tool refuses is a failure", async () => {
    const { h, finalized } = withPostTool(() => accept({ value: -1 }));
    const result = await run(h);
    expect(result).toMatchObject({ isError: true, code: "invalid_value", name: "post" });
    expect(finalized).toEqual([result]);
  });

  test("accept with both content and value is a listener failure; finalize and tool-result still run", async () => {
    const both = { kind: "accept", content: [text("x")], value: 1 } as unknown as PostToolDecision;
    const { h, finalized, observed } = withPostTool(() => both);
    const result = await run(h);
    expect(result).toMatchObject({ isError: true, code: "listener_error", name: "post" });
    expect((result as { message: string }).message).toMatch(/both content and value/);
    expect(finalized).toEqual([result]);
    expect(observed).toEqual([result]);
  });

  test("accept-value on a failed result is a listener failure", async () => {
    const { h, finalized, observed } = withPostTool(
      (result) => (result.isError ? accept({ value: 1 }) : pass()),
      () => Promise.reject(new Error("disk full")),
    );
    const result = await run(h);
    expect(result).toMatchObject({ isError: true, code: "listener_error", name: "post" });
    expect((result as { message: string }).message).toMatch(/value of a failed result/);
    expect(finalized).toEqual([result]);
    expect(observed).toEqual([result]);
  });

  test("accept-content on a failure keeps it a failure with its identity", async () => {
    const { h } = withPostTool(() => accept({ content: [text("the disk is full, try later")] }), () => Promise.reject(new Error("disk full")));
    expect(await run(h)).toEqual({
      isError: true,
      code: "tool_error",
      name: "Error",
      message: "disk full",
      content: [text("the disk is full, try later")],
      contexts: [],
    });
  });

  test("a post-tool listener that throws makes a final failure", async () => {
    const { h, finalized } = withPostTool(() => {
      throw new Error("post broke");
    });
    const result = await run(h);
    expect(result).toMatchObject({ isError: true, code: "listener_error", name: "post" });
    expect(finalized).toEqual([result]);
  });
});

describe("block", () => {
  test("block yields a valueless failure whose content is the feedback verbatim", async () => {
    const { h } = withPostTool(() => block("Output withheld: contains a token."));
    expect(await run(h)).toEqual({
      isError: true,
      code: "blocked",
      name: "post",
      message: "Output withheld: contains a token.",
      content: [text("Output withheld: contains a token.")],
      contexts: [],
    });
  });

  test("an empty feedback falls back to a text naming the plugin", async () => {
    const { h } = withPostTool(() => block(""));
    const result = await run(h);
    expect(result).toMatchObject({ isError: true, code: "blocked", name: "post" });
    expect(result?.content).toEqual([text("The result was blocked by plugin post.")]);
    expect(result).not.toHaveProperty("value");
  });
});

describe("contexts", () => {
  const deferredContext = (tag: string): AgentMessage => ({ ...userMessage(`deferred ${tag}`), source: { kind: "tool", callId: tag } });
  const decisionContext = (tag: string): AgentMessage => pluginMessage("post", `decision ${tag}`);
  /** A body that returns a whole result carrying one deferred context. */
  const bodyWithContext = async (call: { arguments: JsonValue }) => {
    const tag = (call.arguments as { tag: string }).tag;
    return { isError: false, value: 1, content: [], contexts: [deferredContext(tag)] };
  };

  test("an accepted call keeps its deferred contexts, then the decision's", async () => {
    const h = pipelineHarness({
      tools: [counter],
      dispatch: bodyWithContext,
      plugins: [{ name: "post", points: { "post-tool": () => accept({ additionalContexts: [decisionContext("a")] }) } }],
    });
    const { calls, contexts } = await h.batch([{ toolName: "count", arguments: { tag: "a" } }]);
    expect(calls[0]?.result.contexts).toEqual([deferredContext("a"), decisionContext("a")]);
    expect(contexts).toEqual([deferredContext("a"), decisionContext("a")]);
  });

  test("a blocked call keeps only the blocker's contexts", async () => {
    const h = pipelineHarness({
      tools: [counter],
      dispatch: bodyWithContext,
      plugins: [{ name: "post", points: { "post-tool": () => block("no", [decisionContext("a")]) } }],
    });
    const { contexts } = await h.batch([{ toolName: "count", arguments: { tag: "a" } }]);
    expect(contexts).toEqual([decisionContext("a")]);
  });

  test("two calls in one step: both results first, then their contexts in call order", async () => {
    const h = pipelineHarness({
      tools: [counter],
      dispatch: bodyWithContext,
      plugins: [
        {
          name: "post",
          points: { "post-tool": (event) => accept({ additionalContexts: [decisionContext((event.call.arguments as { tag: string }).tag)] }) },
        },
      ],
    });
    const { calls, contexts } = await h.batch([
      { callId: "c1", toolName: "count", arguments: { tag: "1" } },
      { callId: "c2", toolName: "count", arguments: { tag: "2" } },
    ]);
    expect(calls.map((c) => c.call.callId)).toEqual(["c1", "c2"]);
    expect(contexts).toEqual([deferredContext("1"), decisionContext("1"), deferredContext("2"), decisionContext("2")]);
    // The batch hands results and contexts over separately: the loop appends the contexts only
    // after every result was recorded, so tool results stay adjacent.
    const toolResults = h.events.filter((e) => e.type === "call-settled").map((e) => (e.type === "call-settled" ? e.call.callId : ""));
    expect(toolResults).toEqual(["c1", "c2"]);
  });
});
