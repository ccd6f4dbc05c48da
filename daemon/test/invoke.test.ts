// callListener: deadlines and the point budget (fake timers, performance.now() faked too), the
// failure policy per point, answer validation by listener kind, caller cancellation and cleanup.
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HookdError, allow, deny, pass } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { isPluginFault, pluginFault } from "../src/engine/faults.js";
import { LazyAbort, NextContext } from "@hookd/sdk/internal";
import { callListener } from "../src/engine/invoke.js";
import type { CallResult, ContextFactory } from "../src/engine/invoke.js";
import { deferred, listener, preToolEvent, sessionStartEvent } from "./fixtures/listeners.js";
import { CountingAbort } from "../../sdk/test/support/counting-abort.js";

const ctxFor =
  <P extends PointName>(plugin = "test"): ContextFactory<P> =>
  (abort) =>
    ({ signal: abort.signal, plugin, next: () => Promise.reject(new Error("no inner plugins")) });

/** As the runners build contexts: the call's signal is made only when the handler reads it. */
const lazyCtxFor =
  <P extends PointName>(plugin = "test"): ContextFactory<P> =>
  (signal) =>
    new NextContext(signal, plugin, () => Promise.reject(new Error("no inner plugins")));

const open = (): { signal: AbortSignal } => ({ signal: new AbortController().signal });

/** A handler that never answers. */
const stuck = (): Promise<never> => new Promise<never>(() => {});

/** A handler that never answers and records when (fake performance.now()) its signal aborted. */
function recordAbort(abortedAt: number[]) {
  return (_event: unknown, ctx: { signal: AbortSignal }): Promise<never> => {
    ctx.signal.addEventListener("abort", () => abortedAt.push(performance.now()), { once: true });
    return new Promise<never>(() => {});
  };
}

describe("callListener deadlines", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fakes performance.now() along with the timers", () => {
    const before = performance.now();
    vi.advanceTimersByTime(1234);
    expect(performance.now() - before).toBe(1234);
  });

  it("turns a missed deadline into a fault that fail-closed turns into a deny at pre-tool", async () => {
    const abortedAt: number[] = [];
    const start = performance.now();
    const slow = listener("pre-tool", "slow", recordAbort(abortedAt), { deadlineMs: 250, failurePolicy: "fail-closed" });
    let settled: CallResult<"pre-tool"> | undefined;
    const pending = callListener(slow, preToolEvent(), ctxFor(), open()).then((result) => (settled = result));
    await vi.advanceTimersByTimeAsync(249);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(abortedAt).toEqual([start + 250]);
    expect(result.type).toBe("answer");
    if (result.type !== "answer") return;
    expect(result.answer).toEqual({ kind: "deny", reason: expect.stringMatching(/^plugin slow at pre-tool: deadline exceeded: no answer within 250 ms \(failure policy of slow: fail-closed\)$/) as unknown });
    expect(result.invocation).toMatchObject({ plugin: "slow", point: "pre-tool", kind: "in-process", outcome: "fault", decision: "deny", fault: "deadline_exceeded" });
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes for a fail-open plugin that misses its deadline", async () => {
    const slow = listener("pre-tool", "slow", stuck, { deadlineMs: 100, failurePolicy: "fail-open" });
    const pending = callListener(slow, preToolEvent(), ctxFor(), open());
    await vi.advanceTimersByTimeAsync(100);
    expect(await pending).toMatchObject({ type: "answer", answer: { kind: "pass" }, invocation: { outcome: "fault", decision: "pass", fault: "deadline_exceeded" } });
  });

  it.each([
    ["pre-step", { kind: "reject" }],
    ["guard", { kind: "deny" }],
    ["post-tool", { kind: "block" }],
    ["execute", { isError: true, code: "plugin_failure", name: "slow" }],
    ["session-start", { kind: "pass" }],
    ["turn-stopping", { kind: "pass" }],
  ] as const)("fail-closed at %s stands for %o", async (point, expected) => {
    const slow = listener(point as PointName, "slow", stuck, { deadlineMs: 10, failurePolicy: "fail-closed" });
    const pending = callListener(slow, preToolEvent() as never, ctxFor(), open());
    await vi.advanceTimersByTimeAsync(10);
    expect(await pending).toMatchObject({ type: "answer", answer: expected, invocation: { outcome: "fault" } });
  });

  it("gives each sequential plugin min(its deadline, what is left of the point budget)", async () => {
    const abortedAt: number[] = [];
    const start = performance.now();
    const budgetEnd = start + 100;
    const first = listener("pre-tool", "first", recordAbort(abortedAt), { deadlineMs: 60, failurePolicy: "fail-open" });
    const second = listener("pre-tool", "second", recordAbort(abortedAt), { deadlineMs: 60, failurePolicy: "fail-open" });
    const third = listener("pre-tool", "third", recordAbort(abortedAt), { deadlineMs: 60, failurePolicy: "fail-closed" });

    const firstCall = callListener(first, preToolEvent(), ctxFor(), { ...open(), budgetEnd });
    await vi.advanceTimersByTimeAsync(60);
    expect(await firstCall).toMatchObject({ invocation: { fault: "deadline_exceeded", detail: expect.stringMatching(/within 60 ms/) as unknown } });

    const secondCall = callListener(second, preToolEvent(), ctxFor(), { ...open(), budgetEnd });
    await vi.advanceTimersByTimeAsync(40);
    expect(await secondCall).toMatchObject({ invocation: { fault: "deadline_exceeded", detail: expect.stringMatching(/within 40 ms/) as unknown } });

    // The budget is spent: the next plugin faults at once, under its own failure policy.
    const thirdCall = callListener(third, preToolEvent(), ctxFor(), { ...open(), budgetEnd });
    await vi.advanceTimersByTimeAsync(0);
    expect(await thirdCall).toMatchObject({ answer: { kind: "deny" }, invocation: { fault: "deadline_exceeded", detail: expect.stringMatching(/within 0 ms/) as unknown } });
    expect(abortedAt).toEqual([start + 60, start + 100, start + 100]);
  });

  it("keeps a plugin's own deadline when it is shorter than the budget left", async () => {
    const abortedAt: number[] = [];
    const start = performance.now();
    const quick = listener("pre-tool", "quick", recordAbort(abortedAt), { deadlineMs: 30, failurePolicy: "fail-open" });
    const pending = callListener(quick, preToolEvent(), ctxFor(), { ...open(), budgetEnd: start + 1_000 });
    await vi.advanceTimersByTimeAsync(30);
    await pending;
    expect(abortedAt).toEqual([start + 30]);
  });
});

describe("callListener answers", () => {
  it("returns a valid answer with its invocation and clears its timer and abort listener", async () => {
    const caller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const quick = listener("pre-tool", "quick", (_event, ctx) => {
      handlerSignal = ctx.signal;
      return deny("no");
    });
    const result = await callListener(quick, preToolEvent(), ctxFor(), { signal: caller.signal });
    expect(result).toMatchObject({ type: "answer", answer: { kind: "deny", reason: "no" }, invocation: { plugin: "quick", outcome: "answered", decision: "deny", detail: "no" } });
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    // Work the handler left running is told the call is over.
    expect(handlerSignal?.aborted).toBe(true);
    expect(handlerSignal?.reason).toMatchObject({ code: "cancelled" });
  });

  it("records pass as passed", async () => {
    const result = await callListener(listener("pre-tool", "p", () => pass()), preToolEvent(), ctxFor(), open());
    expect(result).toMatchObject({ type: "answer", answer: { kind: "pass" }, invocation: { outcome: "passed", decision: "pass" } });
  });

  it("gives an allow's invocation no reason, a deny's its own", async () => {
    const allowed = await callListener(listener("pre-tool", "a", () => allow()), preToolEvent(), ctxFor(), open());
    expect(allowed.invocation).not.toHaveProperty("detail");
    const denied = await callListener(listener("pre-tool", "d", () => deny("not here")), preToolEvent(), ctxFor(), open());
    expect(denied.invocation).toMatchObject({ outcome: "answered", decision: "deny", detail: "not here" });
  });

  it("treats an invalid answer from an in-process handler as a listener error naming the field", async () => {
    const bad = listener("pre-tool", "bad", () => ({ kind: "deny" }), { failurePolicy: "fail-open" });
    const result = await callListener(bad, preToolEvent(), ctxFor(), open());
    expect(result.type).toBe("error");
    if (result.type !== "error") return;
    expect(result.error).toMatchObject({ details: { plugin: "bad", point: "pre-tool", error: { code: "invalid_decision" } } });
    expect(result.error.message).toMatch(/decision\.reason/);
    expect(result.invocation).toMatchObject({ outcome: "error", decision: "error" });
  });

  it("refuses pass() from a guard, singleton or not: a guard can only deny or abstain", async () => {
    for (const answer of [pass(), { kind: "pass" }]) {
      const result = await callListener(listener("guard", "g", () => answer), preToolEvent(), ctxFor(), open());
      expect(result).toMatchObject({ type: "error", error: { details: { error: { code: "invalid_decision" } } } });
    }
  });

  it("treats an invalid answer from a remote plugin as an invalid_answer fault under its policy", async () => {
    const closed = listener("guard", "remote-guard", () => allow(), { kind: "remote", failurePolicy: "fail-closed" });
    const result = await callListener(closed, preToolEvent(), ctxFor(), open());
    expect(result).toMatchObject({ type: "answer", answer: { kind: "deny" }, invocation: { outcome: "fault", fault: "invalid_answer", kind: "remote" } });
    if (result.type === "answer" && result.answer.kind === "deny") expect(result.answer.reason).toMatch(/decision\.kind: a guard can only deny or abstain/);

    const openPlugin = listener("pre-tool", "remote-open", () => ({ kind: "maybe" }), { kind: "remote", failurePolicy: "fail-open" });
    expect(await callListener(openPlugin, preToolEvent(), ctxFor(), open())).toMatchObject({
      type: "answer",
      answer: { kind: "pass" },
      invocation: { outcome: "fault", fault: "invalid_answer", decision: "pass" },
    });
  });

  it("decides a PluginFault raised by the listener through the failure policy", async () => {
    const down = listener("pre-tool", "down", () => {
      throw pluginFault("down", "pre-tool", "unavailable", "connection refused");
    });
    expect(await callListener(down, preToolEvent(), ctxFor(), open())).toMatchObject({
      type: "answer",
      answer: { kind: "deny" },
      invocation: { outcome: "fault", fault: "unavailable" },
    });
  });

  it("turns a throwing handler into a listener error that keeps a HookdError's code", async () => {
    const thrower = listener("pre-tool", "thrower", () => {
      throw new HookdError("invalid_argument", "bad input");
    });
    const result = await callListener(thrower, preToolEvent(), ctxFor(), open());
    expect(result).toMatchObject({ type: "error", error: { details: { plugin: "thrower", error: { code: "invalid_argument", message: "bad input" } } } });
    const rejecter = listener("session-start", "rejecter", () => Promise.reject(new Error("boom")), { failurePolicy: "fail-open" });
    expect(await callListener(rejecter, sessionStartEvent(), ctxFor(), open())).toMatchObject({ type: "error", error: { details: { error: { code: "plugin_error" } } } });
  });
});

describe("callListener cancellation", () => {
  it("rejects without calling the handler when the caller is already cancelled", async () => {
    const caller = new AbortController();
    const reason = new Error("turn aborted");
    caller.abort(reason);
    const handler = vi.fn(() => allow());
    await expect(callListener(listener("pre-tool", "p", handler), preToolEvent(), ctxFor(), { signal: caller.signal })).rejects.toBe(reason);
    expect(handler).not.toHaveBeenCalled();
  });

  // The daemon's callers: a turn's AbortSignal, and an agent's evaluate call, whose LazyAbort
  // makes no AbortSignal unless a call waits.
  const callers = [
    ["a turn's AbortSignal", () => new AbortController()],
    ["an evaluate call's LazyAbort", () => new LazyAbort()],
  ] as const;

  it.each(callers)("with %s, rejects with the caller's reason, not a decision, as soon as the caller cancels, even if the handler ignores its signal", async (_name, makeCaller) => {
    const caller = makeCaller();
    const cancellation = caller instanceof LazyAbort ? caller : caller.signal;
    const started = deferred();
    let handlerSignal: AbortSignal | undefined;
    const deaf = listener(
      "pre-tool",
      "deaf",
      (_event, ctx) => {
        handlerSignal = ctx.signal;
        started.resolve();
        return new Promise<never>(() => {});
      },
      { deadlineMs: 3_600_000, failurePolicy: "fail-closed" },
    );
    const pending = callListener(deaf, preToolEvent(), lazyCtxFor(), { signal: cancellation });
    await started.promise;
    const reason = new Error("agent disconnected");
    caller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(handlerSignal?.reason).toBe(reason);
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("rejects with the caller's reason when the handler rejects because of the cancellation", async () => {
    const caller = new AbortController();
    const started = deferred();
    const polite = listener(
      "pre-tool",
      "polite",
      (_event, ctx) =>
        new Promise<never>((_, reject) => {
          ctx.signal.addEventListener("abort", () => reject(new HookdError("cancelled", "stopped")), { once: true });
          started.resolve();
        }),
      { failurePolicy: "fail-closed" },
    );
    const pending = callListener(polite, preToolEvent(), ctxFor(), { signal: caller.signal });
    await started.promise;
    caller.abort(new Error("bye"));
    await expect(pending).rejects.toThrow("bye");
  });
});

describe("callListener with a lazily made signal", () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("arms no timer for a synchronous answer, and one for a promise", async () => {
    const timers = vi.spyOn(globalThis, "setTimeout");
    await callListener(listener("pre-tool", "sync", () => allow()), preToolEvent(), lazyCtxFor(), open());
    expect(timers).not.toHaveBeenCalled();
    await callListener(listener("pre-tool", "async", () => Promise.resolve(allow())), preToolEvent(), lazyCtxFor(), open());
    expect(timers).toHaveBeenCalledTimes(1);
  });

  it("keeps the signal an own enumerable property: spreading a context copies it", async () => {
    let spread: { signal?: AbortSignal; plugin?: string } = {};
    await callListener(
      listener("pre-tool", "spreader", (_event, ctx) => {
        spread = { ...ctx };
        return allow();
      }),
      preToolEvent(),
      lazyCtxFor("spreader"),
      open(),
    );
    expect(spread.plugin).toBe("spreader");
    expect(spread.signal).toBeInstanceOf(AbortSignal);
    expect(spread.signal?.aborted).toBe(true);
  });

  it("a signal first read after the call is over is born aborted with the end of the call", async () => {
    let kept: { signal: AbortSignal } | undefined;
    const result = await callListener(
      listener("pre-tool", "keeper", (_event, ctx) => {
        kept = ctx;
        return allow();
      }),
      preToolEvent(),
      lazyCtxFor(),
      open(),
    );
    expect(result).toMatchObject({ type: "answer", answer: { kind: "allow" } });
    expect(kept?.signal.aborted).toBe(true);
    expect(kept?.signal.reason).toMatchObject({ code: "cancelled", message: "plugin call finished" });
  });

  it("a signal first read after an await still learns of the caller's cancellation", async () => {
    const caller = new AbortController();
    const started = deferred();
    const aborted = deferred();
    const late = listener("pre-tool", "late", async (_event, ctx) => {
      started.resolve();
      await aborted.promise;
      return ctx.signal;
    });
    const pending = callListener(late, preToolEvent(), lazyCtxFor(), { signal: caller.signal });
    await started.promise;
    const reason = new Error("agent disconnected");
    caller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    aborted.resolve();
  });

  it("a signal read after the deadline passed carries the deadline fault", async () => {
    vi.useFakeTimers();
    let ctxSeen: { signal: AbortSignal } | undefined;
    const slow = listener(
      "pre-tool",
      "slow",
      (_event, ctx) => {
        ctxSeen = ctx;
        return new Promise<never>(() => {});
      },
      { deadlineMs: 100, failurePolicy: "fail-closed" },
    );
    const pending = callListener(slow, preToolEvent(), lazyCtxFor(), open());
    await vi.advanceTimersByTimeAsync(150);
    expect(await pending).toMatchObject({ invocation: { outcome: "fault", fault: "deadline_exceeded" } });
    expect(isPluginFault(ctxSeen?.signal.reason)).toBe(true);
    expect(ctxSeen?.signal.reason).toMatchObject({ details: { fault: "deadline_exceeded" } });
  });

  it("with a lazy caller (an agent's evaluate call), a synchronous answer never makes the caller's signal", async () => {
    const caller = new CountingAbort();
    const result = await callListener(listener("pre-tool", "sync", () => allow()), preToolEvent(), lazyCtxFor(), { signal: caller });
    expect(result).toMatchObject({ type: "answer", answer: { kind: "allow" } });
    expect(caller.reads).toBe(0);
  });

  it("with a lazy caller already cancelled, refuses at once without calling the handler", async () => {
    const caller = new LazyAbort();
    const reason = new Error("agent disconnected");
    caller.abort(reason);
    const handler = vi.fn(() => allow());
    await expect(callListener(listener("pre-tool", "p", handler), preToolEvent(), lazyCtxFor(), { signal: caller })).rejects.toBe(reason);
    expect(handler).not.toHaveBeenCalled();
  });
});
