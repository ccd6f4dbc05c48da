// The session loop through its public entry point (EngineSession), with in-process plugins, a
// scripted model and a fake tool runner. Synchronisation is by deferred promises only.
import { assistantMessage, definePlugin, enter, messageText, pass, pluginMessage, reject, steer } from "@hookd/sdk";
import type { AgentMessage, PluginSpec, PreStepEvent, ToolCall, ToolResult, TurnStoppingEvent } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import { EngineSession } from "../src/engine/loop/index.js";
import type { LoopLimits, ProposedCall, StepInput, StepReply, ToolBatchContext, ToolBatchOutcome, ToolBatchRunner } from "../src/engine/loop/index.js";
import { PluginRegistry } from "../src/engine/registry.js";

// ---- harness ---------------------------------------------------------------------------------

interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const texts = (messages: readonly AgentMessage[]): string[] => messages.map((m) => messageText(m));

function registryOf(...specs: PluginSpec[]): PluginRegistry {
  return new PluginRegistry(specs.flatMap((spec) => inProcessListeners(definePlugin(spec))));
}

type Responder = (input: StepInput) => StepReply | Promise<StepReply>;

/** A model that answers each step with the next scripted responder; when out of script, it stops. */
class ScriptedModel {
  readonly calls: StepInput[] = [];
  readonly #script: Responder[];
  constructor(...script: Responder[]) {
    this.#script = script;
  }
  readonly runStep = async (input: StepInput): Promise<StepReply> => {
    this.calls.push(input);
    const responder = this.#script.shift();
    return responder === undefined ? stop(`answer ${this.calls.length}`) : responder(input);
  };
}

const stop = (answer: string): StepReply => ({ assistant: assistantMessage(answer), toolCalls: [] });
const callTools = (...ids: string[]): Responder => () => ({
  assistant: assistantMessage(`calling ${ids.join(", ")}`),
  toolCalls: ids.map((callId): ProposedCall => ({ callId, toolName: "Read", arguments: { path: callId } })),
});

function sealed(call: ProposedCall, ctx: ToolBatchContext): ToolCall {
  const callId = call.callId ?? "";
  return {
    callId,
    rootCallId: callId,
    toolName: call.toolName,
    arguments: {},
    argumentsJson: "{}",
    sessionId: ctx.session.sessionId,
    turn: ctx.turn,
    step: ctx.step,
  };
}

const ok = (value: string): ToolResult => ({ isError: false, value, content: [{ type: "text", text: value }], contexts: [] });

/** Answers every call with "result <callId>"; optionally waits for `gate` and returns `contexts`. */
function fakeRunner(options: { gate?: Promise<void>; contexts?: readonly AgentMessage[]; onRun?: (ctx: ToolBatchContext) => void } = {}): ToolBatchRunner & {
  batches: { calls: readonly ProposedCall[]; ctx: ToolBatchContext }[];
} {
  const batches: { calls: readonly ProposedCall[]; ctx: ToolBatchContext }[] = [];
  const runner = async (calls: readonly ProposedCall[], ctx: ToolBatchContext): Promise<ToolBatchOutcome> => {
    batches.push({ calls, ctx });
    options.onRun?.(ctx);
    if (options.gate !== undefined) await options.gate;
    return { calls: calls.map((call) => ({ call: sealed(call, ctx), result: ok(`result ${call.callId ?? ""}`) })), contexts: options.contexts ?? [] };
  };
  return Object.assign(runner, { batches });
}

interface Setup {
  readonly plugins?: PluginSpec[];
  readonly registry?: () => PluginRegistry;
  readonly model?: ScriptedModel;
  readonly runTools?: ToolBatchRunner;
  readonly limits?: Partial<LoopLimits>;
  readonly signal?: AbortSignal;
}

function setup(options: Setup = {}) {
  const bus = new EventBus((error) => {
    throw error;
  });
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const registry = registryOf(...(options.plugins ?? []));
  const model = options.model ?? new ScriptedModel();
  const logs: string[] = [];
  const session = new EngineSession({
    info: { sessionId: "s1", agentId: "a1", cwd: "/work" },
    source: "startup",
    tools: [{ name: "Read", description: "reads", inputSchemaJson: "", concurrencySafe: true }],
    runStep: model.runStep,
    runTools: options.runTools ?? fakeRunner(),
    registry: options.registry ?? (() => registry),
    bus,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    log: (message) => logs.push(message),
  });
  const ofType = <T extends EngineEvent["type"]>(type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type);
  return { session, bus, events, model, logs, ofType };
}

/** Records every pre-step event; passes unless `decide` answers. */
function preStepRecorder(decide?: (event: PreStepEvent) => ReturnType<typeof enter> | ReturnType<typeof reject> | undefined) {
  const seen: PreStepEvent[] = [];
  const spec: PluginSpec = {
    name: "recorder",
    points: {
      "pre-step": (event) => {
        seen.push(event);
        return decide?.(event) ?? pass();
      },
    },
  };
  return { seen, spec };
}

// ---- rule 1: the turn opens before the claim; pre-step before every proposed step -------------

describe("pre-step at every proposed step (rule 1)", () => {
  test("the turn is open (turn-started) while the follow-up is still queued, before pre-step claims it", async () => {
    const { seen, spec } = preStepRecorder();
    const { session, bus, events } = setup({ plugins: [spec] });
    const pendingAtTurnStart: number[] = [];
    bus.subscribe((event) => {
      if (event.type === "turn-started") pendingAtTurnStart.push(session.pending.followUps);
    });
    await session.followUp("hello");
    expect(pendingAtTurnStart).toEqual([1]);
    const kinds = events.filter((e) => e.type !== "invocation").map((e) => (e.type === "decision" ? `decision:${e.point}` : e.type));
    expect(kinds.slice(0, 3)).toEqual(["turn-started", "decision:pre-step", "step-started"]);
    expect(texts(seen[0]?.messages ?? [])).toEqual(["hello"]);
  });

  test("a tool continuation with no new input still fires pre-step, with an EMPTY batch", async () => {
    const { seen, spec } = preStepRecorder();
    const model = new ScriptedModel(callTools("c1"), () => stop("done"));
    const { session } = setup({ plugins: [spec], model });
    const outcome = await session.followUp("read it");
    expect(outcome).toMatchObject({ reason: "completed", steps: 2 });
    expect(seen.map((e) => [e.turn, e.step, texts(e.messages)])).toEqual([
      [1, 1, ["read it"]],
      [1, 2, []],
    ]);
    expect(model.calls.map((c) => texts(c.messages))).toEqual([["read it"], []]);
  });
});

// ---- rule 2: reject ---------------------------------------------------------------------------

describe("reject (rule 2)", () => {
  test("closes the turn as blocked: no step, nothing reaches the model, the prompt is consumed; queued follow-ups run as their own turns", async () => {
    const { seen, spec } = preStepRecorder((event) => (texts(event.messages).includes("forbidden") ? reject("policy says no") : undefined));
    const { session, model, ofType } = setup({ plugins: [spec] });
    const first = session.followUp("forbidden");
    const second = session.followUp("allowed");
    expect(await first).toEqual({ turn: 1, reason: "blocked", detail: "policy says no", steps: 0 });
    expect(await second).toMatchObject({ turn: 2, reason: "completed", steps: 1 });
    // Turn 2 claimed only its own prompt: the rejected one was not re-queued.
    expect(seen.map((e) => [e.turn, texts(e.messages)])).toEqual([
      [1, ["forbidden"]],
      [2, ["allowed"]],
    ]);
    expect(model.calls.map((c) => c.turn)).toEqual([2]);
    expect(texts(session.history)).not.toContain("forbidden");
    expect(ofType("step-started").map((e) => e.scope.turn)).toEqual([2]);
    expect(ofType("turn-ended").map((e) => [e.scope.turn, e.reason, e.detail])).toEqual([
      [1, "blocked", "policy says no"],
      [2, "completed", ""],
    ]);
    expect(session.pending).toEqual({ followUps: 0, steering: 0, injections: 0 });
  });

  test("a reject at a tool continuation blocks the turn after the steps that ran", async () => {
    const { spec } = preStepRecorder((event) => (event.step === 2 ? reject("no more tools") : undefined));
    const model = new ScriptedModel(callTools("c1"));
    const { session } = setup({ plugins: [spec], model });
    expect(await session.followUp("go")).toEqual({ turn: 1, reason: "blocked", detail: "no more tools", steps: 1 });
    expect(model.calls).toHaveLength(1);
  });
});

// ---- rule 3: enter carries the complete batch -------------------------------------------------

describe("enter (rule 3)", () => {
  test("a listener rewrites, drops and appends; every entered message is recorded and announced before the model is asked", async () => {
    const { spec } = preStepRecorder((event) =>
      enter([
        ...event.messages
          .filter((m) => messageText(m) !== "drop me")
          .map((m) => (messageText(m) === "rewrite me" ? { ...m, content: [{ type: "text" as const, text: "rewritten" }] } : m)),
        pluginMessage("recorder", "request-scoped context"),
      ]),
    );
    const seenByModel: { history: string[]; announced: string[] }[] = [];
    let events: EngineEvent[] = [];
    const model = new ScriptedModel((input) => {
      seenByModel.push({
        history: texts(input.history),
        announced: events.flatMap((e) => (e.type === "step-started" ? texts(e.messages) : [])),
      });
      return stop("ok");
    });
    const harness = setup({ plugins: [spec], model });
    events = harness.events;
    const { session } = harness;
    session.inject("drop me");
    session.inject("rewrite me");
    await session.followUp("prompt");
    const batch = ["rewritten", "prompt", "request-scoped context"];
    expect(texts(model.calls[0]?.messages ?? [])).toEqual(batch);
    expect(seenByModel).toEqual([{ history: batch, announced: batch }]);
    const recorded = session.history;
    expect(texts(recorded)).toEqual([...batch, "ok"]);
    expect(recorded[2]?.source).toEqual({ kind: "plugin", name: "recorder" });
    const ids = recorded.map((m) => m.id);
    expect(ids.every((id) => id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(recorded.every((m) => Object.isFrozen(m) && Object.isFrozen(m.content))).toBe(true);
    expect(Object.isFrozen(recorded)).toBe(true);
  });

  test("enter([]) on step 1 completes the turn with no step and no model call", async () => {
    const { spec } = preStepRecorder(() => enter([]));
    const { session, model, ofType } = setup({ plugins: [spec] });
    const outcome = await session.followUp("swallowed");
    expect(outcome).toMatchObject({ turn: 1, reason: "completed", steps: 0 });
    expect(model.calls).toHaveLength(0);
    expect(ofType("step-started")).toHaveLength(0);
    expect(session.history).toEqual([]);
  });
});

// ---- rule 4: a throwing loop listener ends the turn, the session survives ---------------------

describe("listener errors at loop points (rule 4)", () => {
  test("a throwing pre-step listener ends the turn with reason error and the error text; the next prompt runs", async () => {
    let armed = true;
    const { session, model } = setup({
      plugins: [
        {
          name: "boom",
          points: {
            "pre-step": () => {
              if (armed) {
                armed = false;
                throw new Error("pre-step exploded");
              }
              return pass();
            },
          },
        },
      ],
    });
    const failed = await session.followUp("one");
    expect(failed).toMatchObject({ turn: 1, reason: "error", steps: 0 });
    expect(failed.detail).toContain("pre-step exploded");
    expect(failed.detail).toContain("boom");
    expect(await session.followUp("two")).toMatchObject({ turn: 2, reason: "completed", steps: 1 });
    expect(model.calls.map((c) => texts(c.messages))).toEqual([["two"]]);
  });

  test("a throwing turn-stopping listener ends the turn with reason error; the next prompt runs", async () => {
    let armed = true;
    const { session } = setup({
      plugins: [
        {
          name: "stopper",
          points: {
            "turn-stopping": () => {
              if (armed) {
                armed = false;
                throw new Error("stop hook crashed");
              }
            },
          },
        },
      ],
    });
    const failed = await session.followUp("one");
    expect(failed).toMatchObject({ turn: 1, reason: "error", steps: 1 });
    expect(failed.detail).toContain("stop hook crashed");
    expect(await session.followUp("two")).toMatchObject({ turn: 2, reason: "completed" });
  });

  test("a failing model step ends the turn with reason error and its message", async () => {
    const model = new ScriptedModel(() => {
      throw new Error("rate limited");
    });
    const { session } = setup({ model });
    expect(await session.followUp("x")).toEqual({ turn: 1, reason: "error", detail: "model step 1 failed: rate limited", steps: 1 });
    expect(await session.followUp("y")).toMatchObject({ turn: 2, reason: "completed" });
  });
});

// ---- rule 5: the pre-step batch is frozen -----------------------------------------------------

test("the pre-step batch handed to listeners is frozen: mutation throws (rule 5)", async () => {
  const failures: unknown[] = [];
  const { session, model } = setup({
    plugins: [
      {
        name: "mutator",
        points: {
          "pre-step": (event) => {
            const batch = event.messages as AgentMessage[];
            const first = event.messages[0] as { content: unknown };
            for (const attempt of [() => batch.push(pluginMessage("mutator", "sneaked")), () => batch.pop(), () => (first.content = [])]) {
              try {
                attempt();
              } catch (error) {
                failures.push(error);
              }
            }
            return pass();
          },
        },
      },
    ],
  });
  await session.followUp("original");
  expect(failures).toHaveLength(3);
  expect(failures.every((error) => error instanceof TypeError)).toBe(true);
  expect(texts(model.calls[0]?.messages ?? [])).toEqual(["original"]);
});

// ---- rule 16: continuation only through steering, with a cap -----------------------------------

describe("steering at turn-stopping (rule 16)", () => {
  test("a steer runs another step in the SAME turn and turn-stopping fires again at the next stop", async () => {
    const stops: TurnStoppingEvent[] = [];
    const { session, model, ofType } = setup({
      plugins: [
        {
          name: "reviewer",
          points: {
            "turn-stopping": (event) => {
              stops.push(event);
              return event.stopHookActive ? pass() : steer([pluginMessage("ignored-name", "also run the tests")]);
            },
          },
        },
      ],
    });
    const outcome = await session.followUp("fix the bug");
    expect(outcome).toEqual({ turn: 1, reason: "completed", detail: "", steps: 2 });
    expect(stops.map((e) => [e.turn, e.step, e.stopHookActive, e.steeredContinuations])).toEqual([
      [1, 1, false, 0],
      [1, 2, true, 1],
    ]);
    expect(messageText(stops[0]?.lastAssistantMessage ?? { content: [] })).toBe("answer 1");
    expect(model.calls.map((c) => [c.turn, c.step, texts(c.messages)])).toEqual([
      [1, 1, ["fix the bug"]],
      [1, 2, ["also run the tests"]],
    ]);
    // The steering is sourced to the plugin that steered, whatever source it claimed.
    expect(model.calls[1]?.messages[0]?.source).toEqual({ kind: "plugin", name: "reviewer" });
    expect(ofType("turn-started")).toHaveLength(1);
  });

  test("an unconditional steerer is stopped by the configured cap with reason continuation_cap", async () => {
    const stops: TurnStoppingEvent[] = [];
    const { session, model } = setup({
      limits: { maxSteeredContinuations: 2 },
      plugins: [
        {
          name: "nag",
          points: {
            "turn-stopping": (event) => {
              stops.push(event);
              return steer([pluginMessage("nag", "keep going")]);
            },
          },
        },
      ],
    });
    const outcome = await session.followUp("start");
    expect(outcome).toMatchObject({ turn: 1, reason: "continuation_cap", steps: 3 });
    expect(outcome.detail).toMatch(/already had 2 steered continuation\(s\).*maxSteeredContinuations = 2.*nag/);
    expect(model.calls).toHaveLength(3);
    expect(stops.map((e) => [e.stopHookActive, e.steeredContinuations])).toEqual([
      [false, 0],
      [true, 1],
      [true, 2],
    ]);
    // The refused steering was not queued for the next turn.
    expect(session.pending.steering).toBe(0);
  });

  test("the default cap is 8 steered continuations per turn", async () => {
    const { session, model } = setup({
      plugins: [{ name: "nag", points: { "turn-stopping": () => steer([pluginMessage("nag", "again")]) } }],
    });
    expect(await session.followUp("start")).toMatchObject({ reason: "continuation_cap", steps: 9 });
    expect(model.calls).toHaveLength(9);
  });

  test("several steerers: all their messages continue the turn, in listener order", async () => {
    const { session, model } = setup({
      plugins: [
        { name: "zeta", points: { "turn-stopping": { priority: 1, handler: (e) => (e.stopHookActive ? pass() : steer([pluginMessage("zeta", "z1")])) } } },
        {
          name: "alpha",
          points: {
            "turn-stopping": { priority: 2, handler: (e) => (e.stopHookActive ? pass() : steer([pluginMessage("alpha", "a1"), pluginMessage("alpha", "a2")])) },
          },
        },
        { name: "beta", points: { "turn-stopping": { priority: 2, handler: () => pass() } } },
      ],
    });
    await session.followUp("go");
    expect(model.calls[1]?.messages.map((m) => [messageText(m), m.source])).toEqual([
      ["z1", { kind: "plugin", name: "zeta" }],
      ["a1", { kind: "plugin", name: "alpha" }],
      ["a2", { kind: "plugin", name: "alpha" }],
    ]);
  });
});

// ---- session-start ------------------------------------------------------------------------------

describe("session-start", () => {
  test("fires once before turn 1; its contexts are seeded as injections into the first step's batch", async () => {
    const starts: unknown[] = [];
    const { session, model, ofType } = setup({
      plugins: [
        {
          name: "ctx",
          points: {
            "session-start": (event) => {
              starts.push(event);
              return { kind: "inject", messages: [pluginMessage("whoever", "repo uses pnpm")] };
            },
          },
        },
      ],
    });
    const seeded = await session.start();
    expect(texts(seeded)).toEqual(["repo uses pnpm"]);
    expect(ofType("turn-started")).toHaveLength(0);
    await session.followUp("first");
    await session.followUp("second");
    expect(starts).toEqual([expect.objectContaining({ source: "startup", session: { sessionId: "s1", agentId: "a1", cwd: "/work" } })]);
    expect(model.calls[0]?.messages.map((m) => [messageText(m), m.source.kind])).toEqual([
      ["repo uses pnpm", "plugin"],
      ["first", "user"],
    ]);
    expect(model.calls[0]?.messages[0]?.source).toEqual({ kind: "plugin", name: "ctx" });
    expect(texts(model.calls[1]?.messages ?? [])).toEqual(["second"]);
  });

  test("a follow-up without start() still runs session-start first", async () => {
    const order: string[] = [];
    const { session } = setup({
      plugins: [
        {
          name: "p",
          points: {
            "session-start": () => void order.push("session-start"),
            "pre-step": () => {
              order.push("pre-step");
              return pass();
            },
          },
        },
      ],
    });
    await session.followUp("x");
    expect(order).toEqual(["session-start", "pre-step"]);
  });

  test("a throwing session-start listener is contained and logged: it cannot block the session", async () => {
    const { session, logs } = setup({
      plugins: [
        {
          name: "broken",
          points: {
            "session-start": () => {
              throw new Error("cannot read config");
            },
          },
        },
      ],
    });
    expect(await session.start()).toEqual([]);
    expect(logs.join("\n")).toContain("cannot read config");
    expect(await session.followUp("still works")).toMatchObject({ reason: "completed", steps: 1 });
  });

  test("close() cuts off a session-start listener that waits on its signal", async () => {
    const waiting = deferred();
    let reason: unknown;
    const { session, logs } = setup({
      plugins: [
        {
          name: "slow",
          points: {
            "session-start": (_event, ctx) =>
              new Promise<never>((_, fail) => {
                ctx.signal.addEventListener("abort", () => {
                  reason = ctx.signal.reason;
                  fail(new Error("stopped"));
                });
                waiting.resolve();
              }),
          },
        },
      ],
    });
    const started = session.start();
    await waiting.promise;
    await session.close("agent went away");
    expect(await started).toEqual([]);
    expect(String((reason as Error | undefined)?.message)).toContain("agent went away");
    expect(logs.join("\n")).toContain("session-start did not complete");
  });
});

// ---- the inbox during a turn ---------------------------------------------------------------------

describe("the inbox while a turn runs", () => {
  test("a follow-up arriving during a turn waits and runs as its own next turn", async () => {
    const modelCalled = deferred();
    const release = deferred<StepReply>();
    const model = new ScriptedModel(() => {
      modelCalled.resolve();
      return release.promise;
    });
    const { session } = setup({ model });
    const first = session.followUp("first");
    await modelCalled.promise;
    const second = session.followUp("second");
    expect(session.pending.followUps).toBe(1);
    expect(session.runningTurn).toBe(1);
    release.resolve(stop("done"));
    expect(await first).toMatchObject({ turn: 1, reason: "completed" });
    expect(await second).toMatchObject({ turn: 2, reason: "completed" });
    expect(model.calls.map((c) => [c.turn, texts(c.messages)])).toEqual([
      [1, ["first"]],
      [2, ["second"]],
    ]);
  });

  test("steering during a tool batch is drained at the top of the running turn's next step", async () => {
    const { seen, spec } = preStepRecorder();
    const gate = deferred();
    const running = deferred();
    const runner = fakeRunner({ gate: gate.promise, onRun: () => running.resolve() });
    const model = new ScriptedModel(callTools("c1"), () => stop("done"));
    const { session } = setup({ plugins: [spec], model, runTools: runner });
    const turn = session.followUp("work");
    await running.promise;
    session.steer("use the staging database");
    gate.resolve();
    expect(await turn).toMatchObject({ turn: 1, steps: 2, reason: "completed" });
    expect(seen.map((e) => [e.step, texts(e.messages)])).toEqual([
      [1, ["work"]],
      [2, ["use the staging database"]],
    ]);
    expect(model.calls[1]?.messages[0]?.source).toEqual({ kind: "user" });
  });

  test("steering that arrives during the last model step continues the same turn at the stop", async () => {
    const modelCalled = deferred();
    const release = deferred<StepReply>();
    const stops: TurnStoppingEvent[] = [];
    const model = new ScriptedModel(() => {
      modelCalled.resolve();
      return release.promise;
    });
    const { session } = setup({ model, plugins: [{ name: "obs", points: { "turn-stopping": (e) => void stops.push(e) } }] });
    const turn = session.followUp("write the docs");
    await modelCalled.promise;
    session.steer("in French");
    release.resolve(stop("done"));
    expect(await turn).toMatchObject({ turn: 1, steps: 2, reason: "completed" });
    expect(texts(model.calls[1]?.messages ?? [])).toEqual(["in French"]);
    expect(stops.map((e) => e.steeredContinuations)).toEqual([0, 1]);
  });

  test("history: the batch's results in model order, then one FIFO in arrival order (commits and injections), then the next step", async () => {
    const gate = deferred();
    const running = deferred();
    const lint = [pluginMessage("lint", "c1 has lint warnings"), pluginMessage("lint", "c2 is generated")];
    // c1 commits (its context enters the FIFO), the agent injects while c2 runs, then c2 commits.
    const runner: ToolBatchRunner = async (calls, ctx) => {
      ctx.commitContexts(lint.slice(0, 1));
      running.resolve();
      await gate.promise;
      ctx.commitContexts(lint.slice(1));
      return { calls: calls.map((call) => ({ call: sealed(call, ctx), result: ok(`result ${call.callId ?? ""}`) })), contexts: lint };
    };
    const model = new ScriptedModel(callTools("c1", "c2"), () => stop("summary"));
    const { session, ofType } = setup({ model, runTools: runner });
    const turn = session.followUp("check both");
    await running.promise;
    session.inject("async note from the agent");
    gate.resolve();
    await turn;
    expect(session.history.map((m) => [m.role, m.source.kind, messageText(m)])).toEqual([
      ["user", "user", "check both"],
      ["assistant", "model", "calling c1, c2"],
      ["user", "tool", "result c1"],
      ["user", "tool", "result c2"],
      ["user", "plugin", "c1 has lint warnings"],
      ["user", "user", "async note from the agent"],
      ["user", "plugin", "c2 is generated"],
      ["assistant", "model", "summary"],
    ]);
    expect(session.history[2]?.source).toEqual({ kind: "tool", callId: "c1" });
    expect(ofType("contexts-appended").map((e) => [e.scope.step, texts(e.messages)])).toEqual([
      [1, ["c1 has lint warnings", "async note from the agent", "c2 is generated"]],
    ]);
    // The injection joined the FIFO, not the next step's batch.
    expect(model.calls[1]?.messages).toEqual([]);
  });

  test("a runner that reports no commits: its contexts commit when the batch settles, after earlier injections", async () => {
    const gate = deferred();
    const running = deferred();
    const runner = fakeRunner({ gate: gate.promise, onRun: () => running.resolve(), contexts: [pluginMessage("lint", "c1 has lint warnings")] });
    const model = new ScriptedModel(callTools("c1"), () => stop("summary"));
    const { session } = setup({ model, runTools: runner });
    const turn = session.followUp("check");
    await running.promise;
    session.inject("async note from the agent");
    gate.resolve();
    await turn;
    expect(texts(session.history)).toEqual(["check", "calling c1", "result c1", "async note from the agent", "c1 has lint warnings", "summary"]);
  });
});

// ---- cancellation ------------------------------------------------------------------------------

describe("cancellation", () => {
  test("cancel() mid model step aborts the turn's signal; the turn ends cancelled; the next prompt runs", async () => {
    const modelCalled = deferred<AbortSignal>();
    const model = new ScriptedModel(
      (input) => {
        modelCalled.resolve(input.signal);
        return new Promise<StepReply>(() => {}); // never answers: cancellation must not wait for it
      },
      () => stop("second answer"),
    );
    const { session, ofType } = setup({ model });
    const first = session.followUp("long task");
    const signal = await modelCalled.promise;
    expect(session.cancel("user pressed stop")).toBe(true);
    expect(signal.aborted).toBe(true);
    expect(await first).toEqual({ turn: 1, reason: "cancelled", detail: "user pressed stop", steps: 1 });
    expect(ofType("turn-ended").map((e) => [e.reason, e.detail])).toEqual([["cancelled", "user pressed stop"]]);
    expect(session.cancel("nothing running")).toBe(false);
    expect(await session.followUp("next")).toMatchObject({ turn: 2, reason: "completed" });
  });

  test("plugins see the turn's cancellation: a pre-step listener waiting on its signal is released", async () => {
    const entered = deferred();
    let sawAbort = false;
    const { session, model } = setup({
      plugins: [
        {
          name: "slow",
          points: {
            "pre-step": {
              deadlineMs: 60_000,
              handler: (_event, ctx) =>
                new Promise((resolve) => {
                  entered.resolve();
                  ctx.signal.addEventListener("abort", () => {
                    sawAbort = true;
                    resolve(pass());
                  });
                }),
            },
          },
        },
      ],
    });
    const turn = session.followUp("x");
    await entered.promise;
    session.cancel("agent disconnected");
    expect(await turn).toEqual({ turn: 1, reason: "cancelled", detail: "agent disconnected", steps: 0 });
    expect(sawAbort).toBe(true);
    expect(model.calls).toHaveLength(0);
  });

  test("cancel() mid tool batch: results, then buffered contexts, are appended before the turn closes", async () => {
    const running = deferred<AbortSignal>();
    const runner: ToolBatchRunner = async (calls, ctx) => {
      running.resolve(ctx.signal);
      await new Promise<void>((resolve) => ctx.signal.addEventListener("abort", () => resolve()));
      return {
        calls: calls.map((call) => ({
          call: sealed(call, ctx),
          result: { isError: true, code: "cancelled", name: "cancelled", message: "cancelled", content: [{ type: "text", text: `cancelled ${call.callId ?? ""}` }], contexts: [] },
        })),
        contexts: [pluginMessage("audit", "partial output saved")],
      };
    };
    const model = new ScriptedModel(callTools("c1"));
    const { session, events } = setup({ model, runTools: runner });
    const turn = session.followUp("run it");
    const signal = await running.promise;
    session.inject("injected while running");
    session.cancel("stop now");
    expect(signal.aborted).toBe(true);
    expect(await turn).toEqual({ turn: 1, reason: "cancelled", detail: "stop now", steps: 1 });
    // The runner hands its contexts over only as it settles, so the earlier injection comes first.
    expect(texts(session.history)).toEqual(["run it", "calling c1", "cancelled c1", "injected while running", "partial output saved"]);
    const tail = events.filter((e) => e.type === "contexts-appended" || e.type === "turn-ended").map((e) => e.type);
    expect(tail).toEqual(["contexts-appended", "turn-ended"]);
    expect(model.calls).toHaveLength(1);
  });

  test("a runner that rejects on cancellation still leaves a result per proposed call, then the buffered contexts", async () => {
    const running = deferred();
    const runner: ToolBatchRunner = (_calls, ctx) =>
      new Promise((_resolve, fail) => {
        running.resolve();
        ctx.signal.addEventListener("abort", () => fail(ctx.signal.reason as Error));
      });
    const model = new ScriptedModel(callTools("c1", "c2"));
    const { session } = setup({ model, runTools: runner });
    const turn = session.followUp("run");
    await running.promise;
    session.inject("note");
    session.cancel("bye");
    expect(await turn).toMatchObject({ reason: "cancelled", detail: "bye" });
    expect(session.history.map((m) => [m.source, messageText(m)])).toEqual([
      [{ kind: "user" }, "run"],
      [{ kind: "model" }, "calling c1, c2"],
      [{ kind: "tool", callId: "c1" }, "Error: the tool call did not complete (the turn was aborted: bye)"],
      [{ kind: "tool", callId: "c2" }, "Error: the tool call did not complete (the turn was aborted: bye)"],
      [{ kind: "user" }, "note"],
    ]);
  });

  test("aborting the session's signal aborts the running turn and settles queued follow-ups", async () => {
    const lifetime = new AbortController();
    const modelCalled = deferred();
    const model = new ScriptedModel(() => {
      modelCalled.resolve();
      return new Promise<StepReply>(() => {});
    });
    const { session } = setup({ model, signal: lifetime.signal });
    const first = session.followUp("a");
    await modelCalled.promise;
    const second = session.followUp("b");
    lifetime.abort(new Error("agent disconnected"));
    expect(await first).toMatchObject({ turn: 1, reason: "cancelled", detail: expect.stringContaining("agent disconnected") as unknown });
    expect(await second).toMatchObject({ turn: 0, reason: "cancelled" });
    await session.whenIdle();
    expect(session.closed).toBe(true);
    expect(() => session.followUp("c")).toThrow(/closed/);
  });
});

// ---- caps, registry swaps, idleness ------------------------------------------------------------------

describe("limits and lifecycle", () => {
  test("the step cap ends a runaway tool loop with reason error; what waits stays queued", async () => {
    const model = new ScriptedModel(callTools("c1"), callTools("c2"), callTools("c3"), callTools("c4"));
    const { session } = setup({ model, limits: { maxStepsPerTurn: 3 } });
    const outcome = await session.followUp("loop");
    expect(outcome).toMatchObject({ turn: 1, reason: "error", steps: 3 });
    expect(outcome.detail).toMatch(/step cap.*maxStepsPerTurn = 3/);
    expect(model.calls).toHaveLength(3);
  });

  test("empty or malformed content is refused with invalid_argument; the session is unaffected", async () => {
    const { session } = setup();
    expect(() => session.followUp([])).toThrow(/followUp: content must not be empty/);
    expect(() => session.inject(42 as unknown as string)).toThrow(/inject: content must be text/);
    expect(await session.followUp("fine")).toMatchObject({ turn: 1, reason: "completed" });
  });

  test("invalid limits are refused at construction", () => {
    expect(() => setup({ limits: { maxStepsPerTurn: 0 } })).toThrow(/limits.maxStepsPerTurn/);
    expect(() => setup({ limits: { maxSteeredContinuations: 1.5 } })).toThrow(/limits.maxSteeredContinuations/);
  });

  test("the registry is read per point, so a reload applies to the next turn", async () => {
    let registry = registryOf();
    const { session } = setup({ registry: () => registry });
    expect(await session.followUp("one")).toMatchObject({ reason: "completed" });
    registry = registryOf({ name: "gate", points: { "pre-step": () => reject("closed for maintenance") } });
    expect(await session.followUp("two")).toMatchObject({ reason: "blocked", detail: "closed for maintenance" });
  });

  test("whenIdle resolves once every queued follow-up has run; events carry the session scope", async () => {
    const { session, ofType } = setup();
    void session.followUp("a");
    void session.followUp("b");
    await session.whenIdle();
    expect(ofType("turn-ended").map((e) => [e.scope.sessionId, e.scope.agentId, e.scope.turn, e.steps])).toEqual([
      ["s1", "a1", 1, 1],
      ["s1", "a1", 2, 1],
    ]);
    expect(ofType("step-started").map((e) => [e.scope.turn, e.scope.step])).toEqual([
      [1, 1],
      [2, 1],
    ]);
  });

  test("close() settles queued follow-ups as never run and refuses new input", async () => {
    const modelCalled = deferred();
    const model = new ScriptedModel(() => {
      modelCalled.resolve();
      return new Promise<StepReply>(() => {});
    });
    const { session } = setup({ model });
    const first = session.followUp("a");
    const second = session.followUp("b");
    await modelCalled.promise;
    await session.close("shutting down");
    expect(await first).toEqual({ turn: 1, reason: "cancelled", detail: "shutting down", steps: 1 });
    expect(await second).toEqual({ turn: 0, reason: "cancelled", detail: "shutting down; the follow-up never ran", steps: 0 });
    expect(() => session.steer("x")).toThrow(/closed/);
  });
});
