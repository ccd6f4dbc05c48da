// Scheduling of one step's calls: policy in model order, concurrency-safe dispatches overlap up to
// the bound, a call that is not safe runs alone, commits stay in model order, and a turn
// cancelled before a call's dispatch still gives that call a result and one tool-result.
import { abstain, pass } from "@hookd/sdk";
import type { ToolResult } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import type { Dispatch, ToolSpec } from "../src/engine/pipeline/index.js";
import { deferred, pipelineHarness, settle } from "./support/pipeline-harness.js";
import type { Deferred } from "./support/pipeline-harness.js";

const TOOLS: readonly ToolSpec[] = [
  { name: "read", concurrencySafe: true },
  { name: "write", concurrencySafe: false },
];

/** A tool body whose calls start and finish when the test says so, logging both. */
function controlled() {
  const log: string[] = [];
  const gates = new Map<string, { started: Deferred<void>; finish: Deferred<string> }>();
  const gate = (callId: string) => {
    let g = gates.get(callId);
    if (g === undefined) {
      g = { started: deferred(), finish: deferred<string>() };
      gates.set(callId, g);
    }
    return g;
  };
  const dispatch: Dispatch = async (call, signal) => {
    const g = gate(call.callId);
    log.push(`start ${call.callId}`);
    g.started.resolve();
    const aborted = new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(signal.reason as Error)));
    try {
      return await Promise.race([g.finish.promise, aborted]);
    } finally {
      log.push(`end ${call.callId}`);
    }
  };
  return { log, gate, dispatch };
}

const calls = (...ids: string[]) => ids.map((id) => ({ callId: id, toolName: id.startsWith("w") ? "write" : "read", arguments: {} }));

/** Records post-tool and tool-result per call, and when each call's policy finished (its guard ran). */
function recorder(log: string[]) {
  return {
    name: "recorder",
    points: {
      guard: (event: { call: { callId: string } }) => (log.push(`policy ${event.call.callId}`), abstain()),
      "post-tool": (event: { call: { callId: string } }) => (log.push(`post ${event.call.callId}`), pass()),
      "tool-result": (event: { call: { callId: string } }) => void log.push(`result ${event.call.callId}`),
    },
  };
}

describe("dispatch concurrency", () => {
  test("two concurrency-safe calls overlap, and commits stay in model order", async () => {
    const body = controlled();
    const commits: string[] = [];
    const h = pipelineHarness({ tools: TOOLS, dispatch: body.dispatch, plugins: [recorder(commits)] });
    const running = h.batch(calls("r1", "r2"));
    await body.gate("r1").started.promise;
    await body.gate("r2").started.promise; // never resolves if r2 waited for r1
    expect(body.log).toEqual(["start r1", "start r2"]);
    body.gate("r2").finish.resolve("two");
    await settle();
    expect(commits.filter((c) => !c.startsWith("policy"))).toEqual([]); // r2 is done but may not commit before r1
    body.gate("r1").finish.resolve("one");
    const { calls: outcomes } = await running;
    expect(body.log).toEqual(["start r1", "start r2", "end r2", "end r1"]);
    expect(commits.filter((c) => !c.startsWith("policy"))).toEqual(["post r1", "result r1", "post r2", "result r2"]);
    expect(outcomes.map((o) => [o.call.callId, (o.result as { value: string }).value])).toEqual([
      ["r1", "one"],
      ["r2", "two"],
    ]);
    const engineResults = h.events.flatMap((e) => (e.type === "call-settled" ? [e.call.callId] : []));
    expect(engineResults).toEqual(["r1", "r2"]);
  });

  test("a call that is not concurrency-safe waits for earlier dispatches, and later ones wait for it", async () => {
    const body = controlled();
    const log: string[] = [];
    const h = pipelineHarness({ tools: TOOLS, dispatch: body.dispatch, plugins: [recorder(log)] });
    const running = h.batch(calls("r1", "w1", "r2"));
    await body.gate("r1").started.promise;
    await settle();
    // Every policy ran; w1 and r2 were allowed but hold at the gate.
    expect(log).toEqual(["policy r1", "policy w1", "policy r2"]);
    expect(body.log).toEqual(["start r1"]);
    body.gate("r1").finish.resolve("1");
    await body.gate("w1").started.promise;
    await settle();
    expect(body.log).toEqual(["start r1", "end r1", "start w1"]);
    body.gate("w1").finish.resolve("2");
    await body.gate("r2").started.promise;
    expect(body.log).toEqual(["start r1", "end r1", "start w1", "end w1", "start r2"]);
    body.gate("r2").finish.resolve("3");
    const { calls: outcomes } = await running;
    expect(outcomes.map((o) => o.call.callId)).toEqual(["r1", "w1", "r2"]);
  });

  test("overlap is bounded by maxConcurrency", async () => {
    const body = controlled();
    const h = pipelineHarness({ tools: TOOLS, dispatch: body.dispatch, maxConcurrency: 2 });
    const running = h.batch(calls("r1", "r2", "r3"));
    await body.gate("r1").started.promise;
    await body.gate("r2").started.promise;
    await settle();
    expect(body.log).toEqual(["start r1", "start r2"]);
    body.gate("r2").finish.resolve("2");
    await body.gate("r3").started.promise;
    expect(body.log).toEqual(["start r1", "start r2", "end r2", "start r3"]);
    body.gate("r1").finish.resolve("1");
    body.gate("r3").finish.resolve("3");
    await running;
  });

  test("policy phases run one call at a time in model order", async () => {
    const first = deferred();
    const log: string[] = [];
    const h = pipelineHarness({
      tools: TOOLS,
      plugins: [
        {
          name: "policy",
          points: {
            "pre-tool": async (event) => {
              log.push(`pre ${event.call.callId}`);
              if (event.call.callId === "r1") await first.promise;
              return pass();
            },
          },
        },
      ],
    });
    const running = h.batch(calls("r1", "r2"));
    await settle();
    expect(log).toEqual(["pre r1"]);
    first.resolve();
    await running;
    expect(log).toEqual(["pre r1", "pre r2"]);
  });
});

describe("cancellation", () => {
  test("a call cancelled before dispatch gets a cancelled failure and still reaches finalize and tool-result once", async () => {
    const body = controlled();
    const observed: string[] = [];
    const finalized: ToolResult[] = [];
    const tools = TOOLS.map((t) => ({ ...t, finalizeContent: (result: ToolResult) => void finalized.push(result) }));
    const h = pipelineHarness({
      tools,
      dispatch: body.dispatch,
      plugins: [{ name: "observer", points: { "tool-result": (event) => void observed.push(`${event.call.callId}:${event.result.isError ? (event.result as { code: string }).code : "ok"}`) } }],
    });
    const running = h.batch(calls("w1", "r1", "r2"));
    await body.gate("w1").started.promise;
    await settle(); // r1 and r2 wait at the gate behind the exclusive w1
    h.turn.abort(new Error("agent disconnected"));
    const { calls: outcomes } = await running;
    expect(body.log).toEqual(["start w1", "end w1"]); // r1 and r2 never dispatched
    expect(outcomes.map((o) => o.result)).toMatchObject([
      { isError: true, code: "cancelled" },
      { isError: true, code: "cancelled" },
      { isError: true, code: "cancelled" },
    ]);
    expect(observed).toEqual(["w1:cancelled", "r1:cancelled", "r2:cancelled"]);
    expect(finalized).toHaveLength(3);
  });

  test("calls of a batch started on an aborted turn are all cancelled without any policy", async () => {
    const called: string[] = [];
    const h = pipelineHarness({ tools: TOOLS, plugins: [{ name: "p", points: { "pre-tool": () => (called.push("pre-tool"), pass()) } }] });
    h.turn.abort();
    const { calls: outcomes } = await h.batch(calls("r1", "w1"));
    expect(outcomes.map((o) => o.result)).toMatchObject([{ code: "cancelled" }, { code: "cancelled" }]);
    expect(called).toEqual([]);
  });
});
