// The runners: waterfall (ordering, pass, first decision, default, next() wrapping, a second
// next(), sticky listener errors), guards, notifications and the execute chain, and the failure
// a default names when failing plugins counted as passing. Handlers are synchronized with
// deferred promises (and a wrapper's deadline with fake timers); nothing sleeps.
import { afterEach, describe, expect, it, vi } from "vitest";
import { abstain, allow, ask, deny, inject, pass, patch, userMessage } from "@hookd/sdk";
import type { PreToolDecision, ToolResult } from "@hookd/sdk";
import type { ListenerError } from "../src/engine/faults.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { DEFAULT_DECIDER, runAround, runChain, runGuards, runNotification, runWaterfall } from "../src/engine/runners/index.js";
import type { Listener } from "../src/engine/listener.js";
import type { PointName } from "@hookd/sdk";
import type { RunOptions } from "../src/engine/runners/index.js";
import { deferred, listener, preToolEvent, runOptions, sessionStartEvent } from "./fixtures/listeners.js";

/** The around runner with its dispatch, normalization and error handling given one by one. */
function runExecute(
  listeners: readonly Listener[],
  event: unknown,
  dispatch: (signal: AbortSignal) => Promise<ToolResult>,
  normalize: (raw: ToolResult, source: string) => ToolResult,
  onError: (error: ListenerError) => ToolResult,
  options: RunOptions,
): Promise<ToolResult> {
  return runAround(listeners, event, { dispatch, normalize, onError }, options);
}

const allowByDefault = (): PreToolDecision => ({ kind: "allow" });

function okResult(text: string): ToolResult {
  return { isError: false, value: text, content: [{ type: "text", text }], contexts: [] };
}

/** Fails the test if the runner leaves a rejection unhandled (which would crash the daemon). */
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => {
  unhandled.push(reason);
};
process.on("unhandledRejection", onUnhandled);
afterEach(async () => {
  // Unhandled rejections are reported after a macrotask turn.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const seen = unhandled.splice(0);
  expect(seen).toEqual([]);
});

describe("waterfall", () => {
  it("calls listeners in registry order (priority, then plugin name), passing on until the first decision, which is final", async () => {
    const calls: string[] = [];
    const record = (name: string, answer: () => PreToolDecision | ReturnType<typeof pass>) =>
      listener("pre-tool", name, () => {
        calls.push(name);
        return answer();
      });
    const registry = new PluginRegistry([
      { ...record("late", () => allow()), priority: 10 },
      { ...record("zulu", () => pass()), priority: 0 },
      { ...record("bravo", () => pass()), priority: 0 },
      { ...record("early", () => pass()), priority: -5 },
      { ...record("mid", () => deny("mid says no")), priority: 5 },
    ]);
    const options = runOptions();
    const outcome = await runWaterfall(registry.listeners("pre-tool", "Bash"), preToolEvent(), allowByDefault, options);
    expect(calls).toEqual(["early", "bravo", "zulu", "mid"]);
    expect(outcome).toEqual({ type: "decided", decision: { kind: "deny", reason: "mid says no" }, decidedBy: "mid" });
    expect(options.invocations.map((i) => [i.plugin, i.outcome])).toEqual([
      ["early", "passed"],
      ["bravo", "passed"],
      ["zulu", "passed"],
      ["mid", "answered"],
    ]);
  });

  it("applies the default when every listener passes, and with no listeners", async () => {
    const fallback = vi.fn(allowByDefault);
    const listeners = [listener("pre-tool", "a", () => pass()), listener("pre-tool", "b", () => pass())];
    expect(await runWaterfall(listeners, preToolEvent(), fallback, runOptions())).toEqual({ type: "decided", decision: { kind: "allow" }, decidedBy: DEFAULT_DECIDER });
    expect(await runWaterfall([], preToolEvent(), fallback, runOptions())).toEqual({ type: "decided", decision: { kind: "allow" }, decidedBy: DEFAULT_DECIDER });
    expect(fallback).toHaveBeenCalledTimes(2);
  });

  it("lets an outer handler wrap next() and see the inner decision", async () => {
    const seen: unknown[] = [];
    const inner = vi.fn(() => deny("inner says no"));
    const outer = listener("pre-tool", "outer", async (_event, ctx) => {
      const decision = await ctx.next();
      seen.push(decision);
      return decision.kind === "deny" ? ask(`confirm: ${decision.reason}`) : decision;
    });
    const outcome = await runWaterfall([outer, listener("pre-tool", "inner", inner)], preToolEvent(), allowByDefault, runOptions());
    expect(seen).toEqual([{ kind: "deny", reason: "inner says no" }]);
    expect(outcome).toEqual({ type: "decided", decision: { kind: "ask", reason: "confirm: inner says no" }, decidedBy: "outer" });
    expect(inner).toHaveBeenCalledTimes(1);
  });

  it("keeps the inner outcome when an outer handler calls next() and then passes, without calling the inner plugins again", async () => {
    const inner = vi.fn(() => deny("inner"));
    const outer = listener("pre-tool", "outer", async (_event, ctx) => {
      await ctx.next();
      return pass();
    });
    const outcome = await runWaterfall([outer, listener("pre-tool", "inner", inner)], preToolEvent(), allowByDefault, runOptions());
    expect(outcome).toEqual({ type: "decided", decision: { kind: "deny", reason: "inner" }, decidedBy: "inner" });
    expect(inner).toHaveBeenCalledTimes(1);
  });

  it("sees the default through next() when the inner plugins all pass", async () => {
    const outer = listener("pre-tool", "outer", async (_event, ctx) => {
      const decision = await ctx.next();
      return deny(`inner gave ${decision.kind}`);
    });
    const outcome = await runWaterfall([outer, listener("pre-tool", "inner", () => pass())], preToolEvent(), allowByDefault, runOptions());
    expect(outcome).toMatchObject({ decision: { kind: "deny", reason: "inner gave allow" }, decidedBy: "outer" });
  });

  it("rejects a second next() call", async () => {
    const inner = vi.fn(() => allow());
    let secondError: unknown;
    const outer = listener("pre-tool", "outer", async (_event, ctx) => {
      await ctx.next();
      try {
        await ctx.next();
      } catch (error) {
        secondError = error;
      }
      return deny("after two nexts");
    });
    const outcome = await runWaterfall([outer, listener("pre-tool", "inner", inner)], preToolEvent(), allowByDefault, runOptions());
    expect(secondError).toMatchObject({ code: "invalid_decision", message: "plugin outer called next() twice at pre-tool" });
    expect(inner).toHaveBeenCalledTimes(1);
    expect(outcome).toMatchObject({ type: "decided", decidedBy: "outer" });
  });

  it("makes a handler that lets the second next() rejection escape a listener error", async () => {
    const outer = listener("pre-tool", "outer", async (_event, ctx) => {
      await ctx.next();
      return ctx.next();
    });
    const outcome = await runWaterfall([outer, listener("pre-tool", "inner", () => allow())], preToolEvent(), allowByDefault, runOptions());
    expect(outcome.type).toBe("error");
    if (outcome.type === "error") expect(outcome.error).toMatchObject({ details: { plugin: "outer" }, message: expect.stringMatching(/called next\(\) twice/) as unknown });
  });

  it("does not leave a rejection unhandled when a handler drops next() promises", async () => {
    const innerDone = deferred();
    const outer = listener("pre-tool", "outer", async (_event, ctx) => {
      const first = ctx.next();
      void ctx.next(); // dropped: rejects because next() was already called
      await first.catch(() => undefined);
      return pass();
    });
    const failing = listener("pre-tool", "failing", () => {
      innerDone.resolve();
      throw new Error("inner bug");
    });
    const outcome = await runWaterfall([outer, failing], preToolEvent(), allowByDefault, runOptions());
    await innerDone.promise;
    expect(outcome).toMatchObject({ type: "error", error: { details: { plugin: "failing" } } });

    // A handler that fires next() and forgets it while the inner plugin fails.
    const forgetful = listener("pre-tool", "forgetful", (_event, ctx) => {
      void ctx.next();
      return pass();
    });
    const outcome2 = await runWaterfall([forgetful, failing], preToolEvent(), allowByDefault, runOptions());
    expect(outcome2).toMatchObject({ type: "error", error: { details: { plugin: "failing" } } });
  });

  it("keeps a listener error sticky even when an outer handler catches next()'s rejection", async () => {
    let caught: unknown;
    const outer = listener("pre-tool", "outer", async (_event, ctx) => {
      try {
        return await ctx.next();
      } catch (error) {
        caught = error;
        return allow();
      }
    });
    const broken = listener("pre-tool", "broken", () => {
      throw new Error("inner bug");
    });
    const options = runOptions();
    const outcome = await runWaterfall([outer, broken], preToolEvent(), allowByDefault, options);
    expect((caught as ListenerError).details.plugin).toBe("broken");
    expect(outcome.type).toBe("error");
    if (outcome.type === "error") {
      expect(outcome.error.details.plugin).toBe("broken");
      expect(outcome.error.message).toMatch(/inner bug/);
    }
    expect(options.invocations.map((i) => [i.plugin, i.outcome])).toEqual([
      ["broken", "error"],
      ["outer", "answered"],
    ]);
  });

  it("shows outer handlers the sticky error through next(), not the catching handler's decision", async () => {
    let outerSaw: unknown;
    const outer = listener("pre-tool", "outer", async (_event, ctx) => {
      try {
        outerSaw = await ctx.next();
      } catch (error) {
        outerSaw = error;
      }
      return allow();
    });
    const catcher = listener("pre-tool", "catcher", async (_event, ctx) => ctx.next().catch(() => allow()));
    const broken = listener("pre-tool", "broken", () => {
      throw new Error("innermost bug");
    });
    const outcome = await runWaterfall([outer, catcher, broken], preToolEvent(), allowByDefault, runOptions());
    expect(outerSaw).toMatchObject({ code: "listener_error", details: { plugin: "broken" } });
    expect(outcome).toMatchObject({ type: "error", error: { details: { plugin: "broken" } } });
  });

  it("stops at a listener error: later listeners are not called", async () => {
    const later = vi.fn(() => allow());
    const outcome = await runWaterfall(
      [listener("pre-tool", "bad", () => ({ kind: "nope" })), listener("pre-tool", "later", later)],
      preToolEvent(),
      allowByDefault,
      runOptions(),
    );
    expect(outcome).toMatchObject({ type: "error", error: { details: { plugin: "bad" } } });
    expect(later).not.toHaveBeenCalled();
  });

  it("records a fault decision with the invocation that caused it, and treats a fail-open fault as pass", async () => {
    const down = (policy: "fail-open" | "fail-closed") =>
      listener(
        "pre-tool",
        `down-${policy}`,
        () => {
          throw new (class extends Error {})("never");
        },
        { failurePolicy: policy, kind: "remote" },
      );
    // A remote listener returning an invalid answer is a fault.
    const invalid = (policy: "fail-open" | "fail-closed") => ({ ...down(policy), call: async () => ({ kind: "bogus" }) });
    const open = await runWaterfall([invalid("fail-open"), listener("pre-tool", "next", () => deny("next"))], preToolEvent(), allowByDefault, runOptions());
    expect(open).toEqual({ type: "decided", decision: { kind: "deny", reason: "next" }, decidedBy: "next" });
    const closed = await runWaterfall([invalid("fail-closed"), listener("pre-tool", "next", () => allow())], preToolEvent(), allowByDefault, runOptions());
    expect(closed).toMatchObject({ type: "decided", decision: { kind: "deny" }, decidedBy: "down-fail-closed", fault: { fault: "invalid_answer" } });
  });
});

describe("guards", () => {
  it("calls guards in order until the first deny, which wins; later guards are not called", async () => {
    const calls: string[] = [];
    const guard = (name: string, answer: () => ReturnType<typeof abstain> | ReturnType<typeof deny>) =>
      listener("guard", name, () => {
        calls.push(name);
        return answer();
      });
    const outcome = await runGuards(
      [guard("one", () => abstain()), guard("two", () => deny("two says no")), guard("three", () => deny("three"))],
      preToolEvent(),
      runOptions(),
      abstain(),
    );
    expect(outcome).toEqual({ type: "decided", decision: { kind: "deny", reason: "two says no" }, decidedBy: "two" });
    expect(calls).toEqual(["one", "two"]);
  });

  it("abstains when every guard abstains", async () => {
    const outcome = await runGuards([listener("guard", "one", () => abstain())], preToolEvent(), runOptions(), abstain());
    expect(outcome).toEqual({ type: "decided", decision: { kind: "abstain" }, decidedBy: DEFAULT_DECIDER });
  });

  it("returns a guard's error and calls no later guard; a guard cannot allow", async () => {
    const later = vi.fn(() => deny("later"));
    const thrower = await runGuards(
      [
        listener("guard", "thrower", () => {
          throw new Error("guard bug");
        }),
        listener("guard", "later", later),
      ],
      preToolEvent(),
      runOptions(),
      abstain(),
    );
    expect(thrower).toMatchObject({ type: "error", error: { details: { plugin: "thrower" }, message: expect.stringMatching(/guard bug/) as unknown } });
    const allower = await runGuards([listener("guard", "allower", () => allow()), listener("guard", "later", later)], preToolEvent(), runOptions(), abstain());
    expect(allower).toMatchObject({ type: "error", error: { details: { plugin: "allower" }, message: expect.stringMatching(/a guard can only deny or abstain/) as unknown } });
    expect(later).not.toHaveBeenCalled();
  });
});

describe("notification", () => {
  it("collects answers and errors in listener order even when later listeners finish first", async () => {
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: string[] = [];
    const waitThen = (index: number, name: string, answer: () => unknown) =>
      listener(
        "session-start",
        name,
        async () => {
          started.push(name);
          await gates[index]?.promise;
          return answer();
        },
        { failurePolicy: "fail-open" },
      );
    const finished: string[] = [];
    const options = { ...runOptions(), onInvocation: (invocation: { plugin: string }) => finished.push(invocation.plugin) };
    const running = runNotification(
      [
        waitThen(0, "first", () => inject([userMessage("from first")])),
        waitThen(1, "second", () => {
          throw new Error("second failed");
        }),
        waitThen(2, "third", () => undefined),
        waitThen(3, "fourth", () => inject([userMessage("from fourth")])),
      ],
      sessionStartEvent(),
      options,
    );
    // All run at once; release them last to first.
    expect(started).toEqual(["first", "second", "third", "fourth"]);
    for (const gate of [...gates].reverse()) {
      gate.resolve();
      await gate.promise;
    }
    const outcome = await running;
    expect(finished).toEqual(["fourth", "third", "second", "first"]);
    expect(outcome.answers.map((a) => [a.plugin, a.decision.messages[0]?.content])).toEqual([
      ["first", [{ type: "text", text: "from first" }]],
      ["fourth", [{ type: "text", text: "from fourth" }]],
    ]);
    expect(outcome.errors.map((e) => e.details.plugin)).toEqual(["second"]);
  });
});

describe("a default reached because failing plugins counted as passing", () => {
  /** A remote-kind listener under fail-open answering garbage: every call faults (invalid_answer) and passes. */
  const garbage = <P extends PointName>(point: P, plugin: string): Listener<P> => ({
    ...listener(point, plugin, () => undefined, { kind: "remote", failurePolicy: "fail-open" }),
    call: async () => ({ kind: "bogus" }),
  });

  it("waterfall: names the first failure in listener order, even a wrapper's that completes after the calls inside its next()", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      // The wrapper calls next(), then never answers: its deadline cuts it after the inner call failed.
      const wrapper = listener("pre-tool", "wrapper", async (_event, ctx) => (await ctx.next(), new Promise<never>(() => {})), { deadlineMs: 50, failurePolicy: "fail-open" });
      const options = runOptions();
      const running = runWaterfall([wrapper, garbage("pre-tool", "inner")], preToolEvent(), allowByDefault, options);
      await vi.advanceTimersByTimeAsync(50);
      const outcome = await running;
      expect(options.invocations.map((i) => [i.plugin, i.outcome, i.fault])).toEqual([
        ["inner", "fault", "invalid_answer"],
        ["wrapper", "fault", "deadline_exceeded"],
      ]);
      expect(outcome).toMatchObject({ type: "decided", decision: { kind: "allow" }, decidedBy: DEFAULT_DECIDER, fault: { plugin: "wrapper", fault: "deadline_exceeded" } });
    } finally {
      vi.useRealTimers();
    }
  });

  it("waterfall: a wrapper that answers with what next() gave decides itself, naming no failure", async () => {
    const wrapper = listener("pre-tool", "wrapper", (_event, ctx) => ctx.next());
    const outcome = await runWaterfall([wrapper, garbage("pre-tool", "inner")], preToolEvent(), allowByDefault, runOptions());
    expect(outcome).toEqual({ type: "decided", decision: { kind: "allow" }, decidedBy: "wrapper" });
  });

  it("guards: the abstention names the failed guard; a later guard's deny names none", async () => {
    const abstained = await runGuards([garbage("guard", "down"), listener("guard", "fine", () => abstain())], preToolEvent(), runOptions(), abstain());
    expect(abstained).toMatchObject({ type: "decided", decision: { kind: "abstain" }, decidedBy: DEFAULT_DECIDER, fault: { plugin: "down", fault: "invalid_answer" } });
    const denied = await runGuards([garbage("guard", "down"), listener("guard", "strict", () => deny("no"))], preToolEvent(), runOptions(), abstain());
    expect(denied).toEqual({ type: "decided", decision: { kind: "deny", reason: "no" }, decidedBy: "strict" });
  });

  it("chain: a chain nobody changed names the failure; one a later plugin changed names none", async () => {
    const apply = (event: { by: string[] }, _decision: unknown, plugin: string) => ({ by: [...event.by, plugin] });
    const run = (listeners: readonly Listener[]) => runChain(listeners, { by: [] as string[] }, apply, (event) => event, runOptions());
    const unchanged = await run([garbage("rewrite", "down"), listener("rewrite", "idle", () => pass())]);
    expect(unchanged).toMatchObject({ type: "chained", changedBy: [], fault: { plugin: "down", fault: "invalid_answer" } });
    const changed = await run([garbage("rewrite", "down"), listener("rewrite", "patcher", () => patch({ confined: true }))]);
    expect(changed).toEqual({ type: "chained", event: { by: ["patcher"] }, changedBy: ["patcher"] });
  });

  it("notification: names the first failure in listener order, even when it completes last", async () => {
    const release = deferred();
    const slow: Listener<"session-start"> = { ...garbage("session-start", "first"), call: async () => (await release.promise, { kind: "bogus" }) };
    const options = runOptions();
    const running = runNotification([slow, garbage("session-start", "second")], sessionStartEvent(), options);
    await vi.waitFor(() => expect(options.invocations.map((i) => i.plugin)).toEqual(["second"]));
    release.resolve();
    expect(await running).toMatchObject({ answers: [], errors: [], fault: { plugin: "first", fault: "invalid_answer" } });
  });
});

describe("execute chain", () => {
  const normalize = (raw: ToolResult, source: string): ToolResult => ({ ...raw, content: [...raw.content, { type: "text", text: `via ${source}` }] });
  const onError = (error: ListenerError): ToolResult => ({ isError: true, code: "plugin_failure", name: error.details.plugin, message: error.message, content: [], contexts: [] });

  it("runs wrappers outermost first around dispatch; pass calls next for the wrapper", async () => {
    const order: string[] = [];
    const wrapper = listener("execute", "wrapper", async (_event, ctx) => {
      order.push("wrapper:before");
      const result = await ctx.next();
      order.push("wrapper:after");
      return result.isError ? result : { ...result, value: `wrapped ${JSON.stringify(result.value)}` };
    });
    const passer = listener("execute", "passer", () => {
      order.push("passer");
      return pass();
    });
    const result = await runExecute(
      [wrapper, passer],
      preToolEvent(),
      async () => {
        order.push("dispatch");
        return okResult("done");
      },
      normalize,
      onError,
      runOptions(),
    );
    expect(order).toEqual(["wrapper:before", "passer", "dispatch", "wrapper:after"]);
    expect(result).toMatchObject({ isError: false, value: 'wrapped "done"', content: [{ text: "done" }, { text: "via wrapper" }] });
  });

  it("returns a wrapper's listener error as a result through onError", async () => {
    const dispatch = vi.fn(async () => okResult("never"));
    const result = await runExecute(
      [
        listener("execute", "broken", () => {
          throw new Error("wrapper bug");
        }),
      ],
      preToolEvent(),
      dispatch,
      normalize,
      onError,
      runOptions(),
    );
    expect(result).toMatchObject({ isError: true, name: "broken", message: expect.stringMatching(/wrapper bug/) as unknown });
    expect(dispatch).not.toHaveBeenCalled();
  });

  it("lets a wrapper replace the signal for next(); dispatch sees both the replacement and the caller's cancellation", async () => {
    const caller = new AbortController();
    const replacement = new AbortController();
    const dispatched = deferred<AbortSignal>();
    const wrapper = listener("execute", "wrapper", (_event, ctx) => ctx.next({ signal: replacement.signal }));
    const running = runExecute(
      [wrapper],
      preToolEvent(),
      (signal) => {
        dispatched.resolve(signal);
        return new Promise<ToolResult>((resolve) => signal.addEventListener("abort", () => resolve(okResult("stopped")), { once: true }));
      },
      normalize,
      onError,
      runOptions(caller.signal),
    );
    const signal = await dispatched.promise;
    expect(signal).not.toBe(caller.signal);
    expect(signal.aborted).toBe(false);
    const reason = new Error("turn cancelled");
    caller.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    await expect(running).rejects.toBe(reason);
  });

  it("passes a replaced signal's own abort to dispatch", async () => {
    const replacement = new AbortController();
    const dispatched = deferred<AbortSignal>();
    const wrapper = listener("execute", "wrapper", (_event, ctx) => ctx.next({ signal: replacement.signal }));
    const running = runExecute(
      [wrapper],
      preToolEvent(),
      (signal) => {
        dispatched.resolve(signal);
        return new Promise<ToolResult>((resolve) => signal.addEventListener("abort", () => resolve(okResult(`stopped: ${String(signal.reason)}`)), { once: true }));
      },
      normalize,
      onError,
      runOptions(),
    );
    const signal = await dispatched.promise;
    replacement.abort("wrapper timeout");
    expect(signal.aborted).toBe(true);
    expect(await running).toMatchObject({ value: "stopped: wrapper timeout" });
  });

  it("rejects a second next() in a wrapper and does not dispatch twice", async () => {
    const dispatch = vi.fn(async () => okResult("once"));
    let second: unknown;
    const wrapper = listener("execute", "wrapper", async (_event, ctx) => {
      const result = await ctx.next();
      second = await ctx.next().catch((error: unknown) => error);
      return result;
    });
    await runExecute([wrapper], preToolEvent(), dispatch, normalize, onError, runOptions());
    expect(second).toMatchObject({ code: "invalid_decision", message: "plugin wrapper called next() twice at execute" });
    expect(dispatch).toHaveBeenCalledTimes(1);
  });
});
