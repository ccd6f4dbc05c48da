// The concurrent fold of side-effect-free leaf listeners in the waterfall: over a table of
// scenarios, the outcome and the invocations that count equal those of the sequential waterfall;
// the calls really run at once; the calls after the deciding one are cancelled and recorded as
// discarded; budgets and the caller's cancellation behave as documented in runners/fan-out.ts.
// Handlers are synchronized with deferred promises and fake timers; nothing sleeps.
import { afterEach, describe, expect, it, vi } from "vitest";
import { allow, ask, deny, pass } from "@hookd/sdk";
import type { PreToolDecision } from "@hookd/sdk";
import { pluginFault } from "../src/engine/faults.js";
import type { Invocation } from "../src/engine/invoke.js";
import type { ContextOf, Listener } from "../src/engine/listener.js";
import { DEFAULT_DECIDER, runWaterfall } from "../src/engine/runners/index.js";
import type { PointOutcome } from "../src/engine/runners/index.js";
import { deferred, listener, preToolEvent, runOptions } from "./fixtures/listeners.js";
import type { Deferred } from "./fixtures/listeners.js";

const allowByDefault = (): PreToolDecision => ({ kind: "allow" });

const unhandled: unknown[] = [];
process.on("unhandledRejection", (reason: unknown) => unhandled.push(reason));
afterEach(async () => {
  vi.useRealTimers();
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(unhandled.splice(0)).toEqual([]);
});

/** What a leaf listener does in a scenario. */
type LeafAnswer = "pass" | "allow" | "deny" | "ask" | "fault-closed" | "fault-open" | "invalid" | "error";
/** An in-process listener: passes, decides, or wraps next(). */
type InProcess = "ip-pass" | "ip-allow" | "ip-wrap-ask" | "ip-catch-allow";

interface Spec {
  readonly name: string;
  readonly does: LeafAnswer | InProcess;
  readonly kind?: "remote" | "worker" | "command";
  /** Default true for leaf listeners. */
  readonly sideEffectFree?: boolean;
}

const LEAF = new Set<string>(["remote", "worker", "command"]);

function leafAnswer(spec: Spec, does: LeafAnswer): unknown {
  switch (does) {
    case "pass":
      return pass();
    case "allow":
      return allow();
    case "deny":
      return deny(`${spec.name} says no`);
    case "ask":
      return ask(`${spec.name} asks`);
    case "fault-closed":
    case "fault-open":
      throw pluginFault(spec.name, "pre-tool", "unavailable", "connection refused");
    case "invalid":
      return { kind: "bogus" };
    case "error":
      throw new Error(`${spec.name} bug`);
    default: {
      const unknown: never = does;
      throw new Error(`unknown answer ${String(unknown)}`);
    }
  }
}

async function inProcessAnswer(does: InProcess, ctx: ContextOf<"pre-tool">): Promise<unknown> {
  switch (does) {
    case "ip-pass":
      return pass();
    case "ip-allow":
      return allow();
    case "ip-wrap-ask": {
      const inner = await ctx.next();
      return inner.kind === "deny" ? ask(`confirm: ${inner.reason}`) : inner;
    }
    case "ip-catch-allow":
      return ctx.next().catch(() => allow());
    default: {
      const unknown: never = does;
      throw new Error(`unknown answer ${String(unknown)}`);
    }
  }
}

/**
 * Listeners for a scenario. With `concurrent`, leaf listeners are side-effect-free (unless the
 * spec says otherwise) and each one answers only after its right-hand neighbour in the same
 * foldable run has answered, so a run completes last to first: the fold must restore the order.
 * Without it, every listener is sequential and answers at once. (A runner that called such a
 * run one by one would wait forever on the first call: the test times out.)
 */
function build(specs: readonly Spec[], concurrent: boolean): { listeners: Listener<"pre-tool">[]; called: string[] } {
  const called: string[] = [];
  const answered = specs.map(() => deferred());
  const isLeaf = (spec: Spec | undefined): boolean => spec !== undefined && LEAF.has(spec.kind ?? "in-process");
  const foldable = (spec: Spec | undefined): boolean => concurrent && isLeaf(spec) && spec?.sideEffectFree !== false;
  const listeners = specs.map((spec, index): Listener<"pre-tool"> => {
    if (!isLeaf(spec)) {
      return listener("pre-tool", spec.name, (_event, ctx) => {
        called.push(spec.name);
        return inProcessAnswer(spec.does as InProcess, ctx);
      });
    }
    const waitFor: Deferred<void> | undefined = foldable(spec) && foldable(specs[index + 1]) ? answered[index + 1] : undefined;
    const base = listener("pre-tool", spec.name, () => undefined, {
      kind: spec.kind ?? "remote",
      sideEffectFree: foldable(spec),
      failurePolicy: spec.does === "fault-open" ? "fail-open" : "fail-closed",
    });
    return {
      ...base,
      call: async () => {
        called.push(spec.name);
        try {
          if (waitFor !== undefined) await waitFor.promise;
          return leafAnswer(spec, spec.does as LeafAnswer);
        } finally {
          answered[index]?.resolve();
        }
      },
    };
  });
  return { listeners, called };
}

/** The invocations that count, without timings. */
function counted(invocations: readonly Invocation[]): [string, string, string][] {
  return invocations.filter((i) => i.outcome !== "discarded").map((i) => [i.plugin, i.outcome, i.decision]);
}

/** The outcome without the fault invocation's timing. */
function comparable(outcome: PointOutcome<PreToolDecision>): unknown {
  if (outcome.type === "error") return { type: "error", plugin: outcome.error.details.plugin, message: outcome.error.message };
  const { fault, ...rest } = outcome;
  return { ...rest, fault: fault === undefined ? undefined : { plugin: fault.plugin, fault: fault.fault, decision: fault.decision } };
}

const r = (name: string, does: LeafAnswer, extra: Partial<Spec> = {}): Spec => ({ name, does, kind: "remote", ...extra });
const w = (name: string, does: LeafAnswer): Spec => ({ name, does, kind: "worker" });
const ip = (name: string, does: InProcess): Spec => ({ name, does });

const SCENARIOS: readonly { readonly title: string; readonly specs: readonly Spec[]; readonly expected: unknown }[] = [
  { title: "all pass: the default", specs: [r("a", "pass"), r("b", "pass"), r("c", "pass")], expected: { decidedBy: DEFAULT_DECIDER } },
  { title: "a deny by a later plugin", specs: [r("a", "pass"), r("b", "pass"), r("c", "deny")], expected: { decidedBy: "c" } },
  { title: "the first decision wins over later ones", specs: [r("a", "pass"), r("b", "ask"), r("c", "deny"), r("d", "allow")], expected: { decidedBy: "b" } },
  { title: "a fail-closed fault of an earlier plugin denies", specs: [r("a", "pass"), r("b", "fault-closed"), r("c", "allow")], expected: { decidedBy: "b" } },
  { title: "a fail-open fault of an earlier plugin passes", specs: [r("a", "fault-open"), r("b", "pass"), r("c", "deny")], expected: { decidedBy: "c" } },
  { title: "a fail-open fault then all pass: the default names it", specs: [r("a", "pass"), r("b", "fault-open")], expected: { decidedBy: DEFAULT_DECIDER, fault: { plugin: "b", fault: "unavailable" } } },
  {
    title: "two fail-open faults: the default names the first in listener order",
    specs: [r("a", "fault-open"), r("b", "pass"), r("c", "fault-open")],
    expected: { decidedBy: DEFAULT_DECIDER, fault: { plugin: "a", fault: "unavailable" } },
  },
  { title: "an invalid remote answer is a fault", specs: [r("a", "invalid"), r("b", "allow")], expected: { decidedBy: "a" } },
  { title: "a listener error of an earlier plugin is sticky", specs: [r("a", "pass"), w("b", "error"), r("c", "deny")], expected: { type: "error" } },
  { title: "a listener error after a decision does not count", specs: [r("a", "deny"), w("b", "error")], expected: { decidedBy: "a" } },
  { title: "workers and remotes fold together", specs: [w("a", "pass"), r("b", "pass"), w("c", "deny")], expected: { decidedBy: "c" } },
  {
    title: "mixed: in-process listeners around a run keep next() semantics",
    specs: [ip("outer", "ip-pass"), r("a", "pass"), r("b", "deny"), ip("inner", "ip-allow")],
    expected: { decidedBy: "b" },
  },
  {
    title: "mixed: a wrapper sees the folded decision through next()",
    specs: [ip("wrapper", "ip-wrap-ask"), r("a", "pass"), r("b", "pass"), r("c", "deny"), r("d", "allow")],
    expected: { decidedBy: "wrapper" },
  },
  {
    title: "mixed: two runs split by an in-process listener, all pass to the last",
    specs: [r("a", "pass"), r("b", "pass"), ip("middle", "ip-pass"), r("c", "pass"), r("d", "allow")],
    expected: { decidedBy: "d" },
  },
  {
    title: "mixed: an error inside a run stays sticky through a catching wrapper",
    specs: [ip("catcher", "ip-catch-allow"), r("a", "pass"), w("b", "error"), r("c", "allow")],
    expected: { type: "error" },
  },
  {
    title: "a plugin with side effects splits the runs",
    specs: [r("a", "pass"), r("b", "pass"), r("c", "deny", { sideEffectFree: false }), r("d", "allow"), r("e", "allow")],
    expected: { decidedBy: "c" },
  },
];

describe("concurrent fold of side-effect-free leaf listeners", () => {
  it.each(SCENARIOS)("gives the sequential waterfall's outcome and invocations: $title", async ({ specs, expected }) => {
    const sequential = build(specs, false);
    const seqOptions = runOptions();
    const seqOutcome = await runWaterfall(sequential.listeners, preToolEvent(), allowByDefault, seqOptions);

    const concurrent = build(specs, true);
    const conOptions = runOptions();
    const conOutcome = await runWaterfall(concurrent.listeners, preToolEvent(), allowByDefault, conOptions);

    expect(seqOutcome).toMatchObject(expected as object);
    expect(comparable(conOutcome)).toEqual(comparable(seqOutcome));
    expect(counted(conOptions.invocations)).toEqual(counted(seqOptions.invocations));
    // Whatever the fold called on top of the sequential calls is recorded as discarded.
    const discarded = conOptions.invocations.filter((i) => i.outcome === "discarded").map((i) => i.plugin);
    expect([...sequential.called, ...discarded].sort()).toEqual([...concurrent.called].sort());
  });

  it("starts every call of a run before any answers, and folds answers that arrive last to first", async () => {
    const gates = [deferred<unknown>(), deferred<unknown>(), deferred<unknown>(), deferred<unknown>()];
    const started: string[] = [];
    const allStarted = deferred();
    const remote = (index: number): Listener<"pre-tool"> => ({
      ...listener("pre-tool", `p${index}`, () => undefined, { kind: "remote", sideEffectFree: true }),
      call: async () => {
        started.push(`p${index}`);
        if (started.length === gates.length) allStarted.resolve();
        return gates[index]?.promise;
      },
    });
    const options = runOptions();
    const running = runWaterfall([0, 1, 2, 3].map(remote), preToolEvent(), allowByDefault, options);
    await allStarted.promise;
    expect(started).toEqual(["p0", "p1", "p2", "p3"]);
    expect(options.invocations).toEqual([]);
    gates[3]?.resolve(allow());
    gates[2]?.resolve(deny("p2 says no"));
    gates[1]?.resolve(pass());
    gates[0]?.resolve(pass());
    expect(await running).toEqual({ type: "decided", decision: { kind: "deny", reason: "p2 says no" }, decidedBy: "p2" });
    expect(options.invocations.map((i) => [i.plugin, i.outcome, i.decision])).toEqual([
      ["p0", "passed", "pass"],
      ["p1", "passed", "pass"],
      ["p2", "answered", "deny"],
      ["p3", "discarded", "allow"],
    ]);
  });

  it("starts the call after a remote one in a later turn of the event loop, so that the remote request leaves first", async () => {
    const started: string[] = [];
    const remote = (name: string, answer: unknown): Listener<"pre-tool"> => ({
      ...listener("pre-tool", name, () => undefined, { kind: "remote", sideEffectFree: true }),
      call: async () => {
        started.push(name);
        return answer;
      },
    });
    const running = runWaterfall([remote("a", pass()), remote("b", allow())], preToolEvent(), allowByDefault, runOptions());
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(started).toEqual(["a"]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual(["a", "b"]);
    expect(await running).toMatchObject({ type: "decided", decidedBy: "b" });
  });

  it("cancels the calls after the deciding one as soon as the outcome is known, and records them as discarded", async () => {
    const gates = [deferred<unknown>(), deferred<unknown>()];
    const signals: AbortSignal[] = [];
    const hanging = deferred<unknown>(); // never settles: only the abort ends those calls
    const allStarted = deferred();
    const remote = (index: number): Listener<"pre-tool"> => ({
      ...listener("pre-tool", `p${index}`, () => undefined, { kind: "remote", sideEffectFree: true }),
      call: async (_event, ctx) => {
        signals[index] = ctx.signal;
        if (signals.filter(Boolean).length === 4) allStarted.resolve();
        return index < gates.length ? gates[index]?.promise : hanging.promise;
      },
    });
    const options = runOptions();
    const running = runWaterfall([0, 1, 2, 3].map(remote), preToolEvent(), allowByDefault, options);
    await allStarted.promise;
    gates[1]?.resolve(deny("p1 says no"));
    await Promise.resolve();
    expect(signals.map((s) => s.aborted)).toEqual([false, false, false, false]); // p0 may still decide
    gates[0]?.resolve(pass());
    expect(await running).toMatchObject({ type: "decided", decidedBy: "p1" });
    // p0 and p1 finished (a remote call settles itself: its signal is left alone); p2, p3 are cut off.
    expect(signals.map((s) => s.aborted)).toEqual([false, false, true, true]);
    expect(signals[2]?.reason).toMatchObject({ code: "cancelled", message: expect.stringMatching(/^answer not needed: /) as unknown });
    expect(options.invocations.map((i) => [i.plugin, i.outcome, i.decision])).toEqual([
      ["p0", "passed", "pass"],
      ["p1", "answered", "deny"],
      ["p2", "discarded", "cancelled"],
      ["p3", "discarded", "cancelled"],
    ]);
  });

  it("cancels the later calls when an earlier one fails with a listener error", async () => {
    const later = deferred<AbortSignal>();
    const failing: Listener<"pre-tool"> = {
      ...listener("pre-tool", "failing", () => undefined, { kind: "worker", sideEffectFree: true }),
      call: async () => {
        await later.promise;
        throw new Error("worker handler bug");
      },
    };
    const slow: Listener<"pre-tool"> = {
      ...listener("pre-tool", "slow", () => undefined, { kind: "remote", sideEffectFree: true }),
      call: (_event, ctx) => {
        later.resolve(ctx.signal);
        return new Promise(() => {});
      },
    };
    const options = runOptions();
    const outcome = await runWaterfall([failing, slow], preToolEvent(), allowByDefault, options);
    expect(outcome).toMatchObject({ type: "error", error: { details: { plugin: "failing" } } });
    expect((await later.promise).aborted).toBe(true);
    expect(options.invocations.map((i) => [i.plugin, i.outcome, i.decision])).toEqual([
      ["failing", "error", "error"],
      ["slow", "discarded", "cancelled"],
    ]);
  });

  it("gives each concurrent call min(its deadline, the budget left when the run starts)", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    const allStarted = deferred();
    let started = 0;
    const hang = (name: string, deadlineMs: number): Listener<"pre-tool"> => ({
      ...listener("pre-tool", name, () => undefined, { kind: "remote", sideEffectFree: true, deadlineMs, failurePolicy: "fail-open" }),
      call: () => {
        if (++started === 3) allStarted.resolve();
        return new Promise(() => {});
      },
    });
    const options = runOptions(new AbortController().signal, performance.now() + 100);
    const running = runWaterfall([hang("short", 30), hang("long", 1_000), hang("longer", 5_000)], preToolEvent(), allowByDefault, options);
    await allStarted.promise; // each remote call starts in its own turn of the event loop (setImmediate, not faked)
    await vi.advanceTimersByTimeAsync(30);
    expect(options.invocations.map((i) => i.plugin)).toEqual(["short"]);
    await vi.advanceTimersByTimeAsync(70);
    // Every call failed open; the default names the first.
    expect(await running).toMatchObject({ type: "decided", decision: { kind: "allow" }, decidedBy: DEFAULT_DECIDER, fault: { plugin: "short", fault: "deadline_exceeded" } });
    // Sequentially, "longer" would have had only what "long" left of the budget (nothing).
    expect(options.invocations.map((i) => [i.plugin, i.outcome, i.detail])).toEqual([
      ["short", "fault", expect.stringMatching(/no answer within 30 ms/) as unknown],
      ["long", "fault", expect.stringMatching(/no answer within 100 ms/) as unknown],
      ["longer", "fault", expect.stringMatching(/no answer within 100 ms/) as unknown],
    ]);
  });

  it("rejects with the caller's reason when the caller cancels, recording only calls that had answered", async () => {
    const caller = new AbortController();
    const first = deferred<unknown>();
    const signals: AbortSignal[] = [];
    const allStarted = deferred();
    const remote = (name: string, answer: () => Promise<unknown>): Listener<"pre-tool"> => ({
      ...listener("pre-tool", name, () => undefined, { kind: "remote", sideEffectFree: true }),
      call: (_event, ctx) => {
        signals.push(ctx.signal);
        if (signals.length === 3) allStarted.resolve();
        return answer();
      },
    });
    const options = runOptions(caller.signal);
    const running = runWaterfall(
      [remote("slow", () => first.promise), remote("quick", async () => deny("quick")), remote("hung", () => new Promise(() => {}))],
      preToolEvent(),
      allowByDefault,
      options,
    );
    await allStarted.promise;
    const reason = new Error("turn cancelled");
    caller.abort(reason);
    await expect(running).rejects.toBe(reason);
    // The calls still running are cut off; "quick" had answered (a remote call settles itself).
    expect(signals.map((s) => s.aborted)).toEqual([true, false, true]);
    expect(options.invocations.map((i) => [i.plugin, i.outcome, i.decision])).toEqual([["quick", "discarded", "deny"]]);
  });

  it("keeps a lone side-effect-free listener and in-process listeners sequential", async () => {
    const later = vi.fn(async () => allow());
    const outcome = await runWaterfall(
      [
        { ...listener("pre-tool", "lone", () => undefined, { kind: "remote", sideEffectFree: true }), call: async () => deny("lone") },
        listener("pre-tool", "in-process", later, { sideEffectFree: true }),
      ],
      preToolEvent(),
      allowByDefault,
      runOptions(),
    );
    expect(outcome).toMatchObject({ decidedBy: "lone" });
    expect(later).not.toHaveBeenCalled();
  });
});
