// turn-end and session-end through the session loop (EngineSession) with in-process plugins and a
// scripted model: every turn outcome with its step count, nothing for a follow-up that never
// ran, exactly one session-end per session, its budget against a hanging observer, and the
// subagent lineage on every loop event. Synchronisation is by deferred promises only.
import { assistantMessage, definePlugin, pass, reject, steer, userMessage } from "@hookd/sdk";
import type { PluginSpec, SessionEndEvent, SessionInfo, TurnEndEvent } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { EngineSession } from "../src/engine/loop/index.js";
import type { LoopLimits, ModelStep, ToolBatchRunner } from "../src/engine/loop/index.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((res) => (resolve = res));
  return { promise, resolve };
}

const stopStep: ModelStep = () => Promise.resolve({ assistant: assistantMessage("done"), toolCalls: [] });
const noTools: ToolBatchRunner = () => Promise.resolve({ calls: [], contexts: [] });

/** Records every turn-end and session-end event, and every point in the order it fired. */
function recorder(extra: PluginSpec["points"] = {}) {
  const turnEnds: TurnEndEvent[] = [];
  const sessionEnds: SessionEndEvent[] = [];
  const order: string[] = [];
  const spec: PluginSpec = {
    name: "recorder",
    points: {
      "pre-step": (event) => (order.push(`pre-step ${event.turn}`), pass()),
      "turn-end": (event) => {
        order.push(`turn-end ${event.turn}`);
        turnEnds.push(event);
      },
      "session-end": (event) => {
        order.push("session-end");
        sessionEnds.push(event);
      },
      ...extra,
    },
  };
  return { spec, turnEnds, sessionEnds, order };
}

function setup(options: { plugins: PluginSpec[]; runStep?: ModelStep; limits?: Partial<LoopLimits>; info?: SessionInfo }) {
  const registry = new PluginRegistry(options.plugins.flatMap((spec) => inProcessListeners(definePlugin(spec))));
  const bus = new EventBus((error) => {
    throw error;
  });
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const logs: string[] = [];
  const session = new EngineSession({
    info: options.info ?? { sessionId: "s1", agentId: "a1", cwd: "/work" },
    source: options.info?.parentSessionId === undefined ? "startup" : "subagent",
    tools: [],
    runStep: options.runStep ?? stopStep,
    runTools: noTools,
    registry: () => registry,
    bus,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    log: (message) => logs.push(message),
  });
  return { session, events, logs };
}

describe("turn-end: how each turn ended, with its step count", () => {
  test("completed, blocked, continuation cap, error: one turn-end per turn, in order", async () => {
    const rec = recorder({
      "pre-step": (event) => {
        rec.order.push(`pre-step ${event.turn}`);
        return event.messages.some((m) => m.content.some((b) => b.type === "text" && b.text === "forbidden")) ? reject("not that") : pass();
      },
      "turn-stopping": (event) => (event.turn === 3 ? steer([userMessage("again")]) : pass()),
    });
    let failing = false;
    const runStep: ModelStep = () => (failing ? Promise.reject(new Error("model down")) : stopStep({} as never));
    const { session } = setup({ plugins: [rec.spec], runStep, limits: { maxSteeredContinuations: 1 } });

    expect(await session.followUp("hello")).toMatchObject({ reason: "completed", steps: 1 });
    expect(await session.followUp("forbidden")).toMatchObject({ reason: "blocked", steps: 0 });
    expect(await session.followUp("steer me")).toMatchObject({ reason: "continuation_cap", steps: 2 });
    failing = true;
    expect(await session.followUp("fail")).toMatchObject({ reason: "error", steps: 1 });

    expect(rec.turnEnds.map((e) => [e.turn, e.outcome, e.steps])).toEqual([
      [1, "completed", 1],
      [2, "blocked", 0],
      [3, "continuation_cap", 2],
      [4, "error", 1],
    ]);
    expect(rec.turnEnds[0]?.detail).toBe("");
    expect(rec.turnEnds[1]?.detail).toBe("not that");
    expect(rec.turnEnds[2]?.detail).toContain("maxSteeredContinuations = 1");
    expect(rec.turnEnds[3]?.detail).toContain("model down");
    // A turn's turn-end fires before the next turn's first point.
    expect(rec.order.filter((o) => o.startsWith("turn-end 1") || o.startsWith("pre-step 2"))).toEqual(["turn-end 1", "pre-step 2"]);
    await session.close();
  });

  test("a cancelled turn ends cancelled; a follow-up that never ran fires nothing; session-end comes last", async () => {
    const rec = recorder();
    const started = [deferred(), deferred()];
    const runStep: ModelStep = (input) =>
      new Promise((_, fail) => {
        started[input.turn - 1]?.resolve();
        input.signal.addEventListener("abort", () => fail(input.signal.reason as Error), { once: true });
      });
    const { session } = setup({ plugins: [rec.spec], runStep });

    const first = session.followUp("runs");
    await started[0]?.promise;
    expect(session.cancel("the user pressed escape")).toBe(true);
    expect(await first).toMatchObject({ turn: 1, reason: "cancelled", steps: 1 });
    expect(rec.turnEnds.map((e) => [e.turn, e.outcome, e.steps, e.detail])).toEqual([[1, "cancelled", 1, "the user pressed escape"]]);

    const second = session.followUp("hangs");
    const queued = session.followUp("never runs");
    await started[1]?.promise;
    await session.close("bye");
    expect(await second).toMatchObject({ turn: 2, reason: "cancelled" });
    expect(await queued).toMatchObject({ turn: 0, reason: "cancelled" });
    expect(rec.turnEnds.map((e) => [e.turn, e.outcome])).toEqual([
      [1, "cancelled"],
      [2, "cancelled"],
    ]);
    expect(rec.order.slice(-2)).toEqual(["turn-end 2", "session-end"]);
    expect(rec.sessionEnds).toEqual([{ session: session.info, reason: "closed", detail: "bye", turns: 2 }]);
  });
});

describe("session-end: once per session, within its budget", () => {
  test("a second close fires nothing more and keeps the first reason", async () => {
    const rec = recorder();
    const { session } = setup({ plugins: [rec.spec] });
    await session.followUp("hi");
    await Promise.all([session.close("cleared by the agent", "cleared"), session.close("again", "expired")]);
    await session.close("third", "daemon_stopping");
    expect(rec.sessionEnds.map((e) => [e.reason, e.detail, e.turns])).toEqual([["cleared", "cleared by the agent", 1]]);
  });

  test("a hanging observer is cut off at sessionEndBudgetMs, not at its own deadline, and is contained", async () => {
    const received = deferred<SessionEndEvent>();
    const hanging: PluginSpec = {
      name: "hanging",
      // Ignores its signal and never answers; its own deadline is far beyond the budget.
      points: { "session-end": { deadlineMs: 600_000, handler: (event) => (received.resolve(event), new Promise<void>(() => {})) } },
    };
    const rec = recorder();
    const { session, events } = setup({ plugins: [hanging, rec.spec], limits: { sessionEndBudgetMs: 40 } });
    await session.close("hookd is stopping", "daemon_stopping");
    expect((await received.promise).reason).toBe("daemon_stopping");
    // The other observer ran concurrently and was not held up.
    expect(rec.sessionEnds).toHaveLength(1);
    const invocation = events.flatMap((e) => (e.type === "invocation" && e.invocation.plugin === "hanging" ? [e.invocation] : []));
    expect(invocation).toMatchObject([{ point: "session-end", outcome: "fault", fault: "deadline_exceeded" }]);
    // Cut by the budget's end: what was left of the 40 ms when the call started (never its own 600 s).
    const within = /no answer within (\d+) ms/.exec(invocation[0]?.detail ?? "");
    expect(Number(within?.[1])).toBeLessThanOrEqual(40);
  });

  test("a throwing observer is logged and contained", async () => {
    const { session, logs } = setup({ plugins: [{ name: "thrower", points: { "session-end": () => Promise.reject(new Error("boom")), "turn-end": () => Promise.reject(new Error("bang")) } }] });
    expect(await session.followUp("hi")).toMatchObject({ reason: "completed" });
    await session.close();
    expect(logs.filter((l) => l.includes("(contained)"))).toEqual([
      expect.stringContaining("turn-end listener failed (contained): ") as string,
      expect.stringContaining("session-end listener failed (contained): ") as string,
    ]);
    expect(logs.join("\n")).toMatch(/bang[\s\S]*boom/);
  });

  test("the budget must be a positive integer", () => {
    expect(() => setup({ plugins: [], limits: { sessionEndBudgetMs: 0 } })).toThrow("limits.sessionEndBudgetMs: expected an integer >= 1");
  });
});

describe("lineage on every loop event of a subagent's session", () => {
  test("session-start (source subagent), pre-step, turn-stopping, turn-end, session-end carry the parent and agent type", async () => {
    const seen: { point: string; session: SessionInfo; source?: string }[] = [];
    const spy: PluginSpec = {
      name: "spy",
      points: {
        "session-start": (e) => void seen.push({ point: "session-start", session: e.session, source: e.source }),
        "pre-step": (e) => (seen.push({ point: "pre-step", session: e.session }), pass()),
        "turn-stopping": (e) => (seen.push({ point: "turn-stopping", session: e.session }), pass()),
        "turn-end": (e) => void seen.push({ point: "turn-end", session: e.session }),
        "session-end": (e) => void seen.push({ point: "session-end", session: e.session }),
      },
    };
    const info: SessionInfo = { sessionId: "child", agentId: "a1", cwd: "/work", parentSessionId: "parent", agentType: "explorer" };
    const { session } = setup({ plugins: [spy], info });
    await session.start();
    await session.followUp("look around");
    await session.close();
    expect(seen.map((s) => s.point)).toEqual(["session-start", "pre-step", "turn-stopping", "turn-end", "session-end"]);
    expect(seen[0]?.source).toBe("subagent");
    for (const { session: carried } of seen) expect(carried).toEqual(info);
  });
});
