// Shadow mode through decide(): a shadow listener is called for the same event as the enforcing
// chain, beside it and never awaited by it; its answer, its throw and its fault change nothing
// and apply no failure policy; its outcome is one "shadow-decision" event (audited as "would
// have denied", counted in its own metric series). Every point mode is covered: waterfall,
// guards, notification and around (execute). Synchronized with deferred promises and events.
import { afterEach, describe, expect, it } from "vitest";
import { allow, deny, inject, pass, userMessage } from "@hookd/sdk";
import type { PreToolDecision, ToolResult } from "@hookd/sdk";
import { decide } from "../src/engine/decide.js";
import type { PointEnv } from "../src/engine/decide.js";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent, ShadowOutcome } from "../src/engine/events.js";
import { pluginFault } from "../src/engine/faults.js";
import { runToolBatch } from "../src/engine/pipeline/pipeline.js";
import { toolLookup } from "../src/engine/pipeline/spec.js";
import { PluginRegistry } from "../src/engine/registry.js";
import type { Listener } from "../src/engine/listener.js";
import { shadowVerdict, toAuditRecord } from "../src/ops/audit.js";
import { EngineMetrics } from "../src/ops/metrics.js";
import { renderMetrics } from "../src/ops/prometheus.js";
import type { DaemonGauges } from "../src/ops/prometheus.js";
import { deferred, listener, preToolEvent, sessionStartEvent } from "./fixtures/listeners.js";

interface Harness {
  readonly env: PointEnv;
  readonly events: EngineEvent[];
  readonly turn: AbortController;
  /** Resolves with the next `count` shadow outcomes (already seen ones included). */
  shadows(count: number): Promise<ShadowOutcome[]>;
}

function harness(listeners: readonly Listener[]): Harness {
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  const waiters: (() => void)[] = [];
  bus.subscribe((event) => {
    events.push(event);
    for (const wake of waiters.splice(0)) wake();
  });
  const turn = new AbortController();
  const env: PointEnv = { registry: new PluginRegistry(listeners), bus, signal: turn.signal, scope: { sessionId: "s1", agentId: "agent", turn: 1, step: 1, callId: "c1" } };
  const shadowsSeen = (): ShadowOutcome[] => events.flatMap((e) => (e.type === "shadow-decision" ? [e.shadow] : []));
  const shadows = async (count: number): Promise<ShadowOutcome[]> => {
    while (shadowsSeen().length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return shadowsSeen();
  };
  return { env, events, turn, shadows };
}

const shadowed = <L extends Listener>(l: L): L => ({ ...l, mode: "shadow" });

function okResult(text: string): ToolResult {
  return { isError: false, value: text, content: [{ type: "text", text }], contexts: [] };
}

const unhandled: unknown[] = [];
process.on("unhandledRejection", (reason) => unhandled.push(reason));
afterEach(async () => {
  await new Promise<void>((resolve) => setImmediate(resolve));
  expect(unhandled.splice(0)).toEqual([]);
});

describe("shadow mode at a waterfall point", () => {
  it("a shadow plugin that denies while the real decision allows: the allow applies, the deny is audited as 'would have denied'", async () => {
    const h = harness([listener("pre-tool", "real", () => allow()), shadowed(listener("pre-tool", "judge", () => deny("rm is risky")))]);
    const outcome = await decide(h.env, "pre-tool", preToolEvent());
    expect(outcome).toEqual({ type: "decided", decision: { kind: "allow" }, decidedBy: "real" });
    const [shadow] = await h.shadows(1);
    expect(shadow).toMatchObject({ plugin: "judge", point: "pre-tool", kind: "in-process", outcome: "answered", decision: "deny", reason: "rm is risky" });
    expect(shadow?.durationUs).toBeGreaterThanOrEqual(0);
    // The shadow call is not one of the point's invocations, and the applied decision is the real one.
    expect(h.events.filter((e) => e.type === "invocation").map((e) => (e.type === "invocation" ? e.invocation.plugin : ""))).toEqual(["real"]);
    expect(h.events.find((e) => e.type === "decision")).toMatchObject({ decision: "allow", decidedBy: "real" });

    const record = toAuditRecord(h.events.find((e) => e.type === "shadow-decision") as EngineEvent);
    expect(record).toMatchObject({
      kind: "shadow",
      plugin: "judge",
      point: "pre-tool",
      decision: "deny",
      reason: "rm is risky",
      verdict: "would have denied",
      outcome: "answered",
      sessionId: "s1",
      callId: "c1",
    });
    expect(record?.durationUs).toBe(shadow?.durationUs);
  });

  it("a slow shadow plugin does not hold the real answer: it comes back while the shadow is blocked, and the shadow's record arrives after", async () => {
    const shadowStarted = deferred();
    const latch = deferred();
    const h = harness([
      // The real plugin answers only once the shadow call is running: the two overlap.
      listener("pre-tool", "real", async () => {
        await shadowStarted.promise;
        return allow();
      }),
      shadowed(
        listener("pre-tool", "slow", async () => {
          shadowStarted.resolve();
          await latch.promise;
          return deny("too late to matter");
        }),
      ),
    ]);
    const outcome = await decide(h.env, "pre-tool", preToolEvent());
    expect(outcome).toMatchObject({ type: "decided", decision: { kind: "allow" }, decidedBy: "real" });
    // The real decision is out and recorded; the shadow is still blocked on the latch.
    expect(h.events.map((e) => e.type)).toEqual(["invocation", "decision"]);
    latch.resolve();
    const [shadow] = await h.shadows(1);
    expect(shadow).toMatchObject({ plugin: "slow", decision: "deny", reason: "too late to matter" });
    expect(h.events.map((e) => e.type)).toEqual(["invocation", "decision", "shadow-decision"]);
  });

  it("a cancelled turn does not cancel a shadow call: it still answers and is audited", async () => {
    const started = deferred<AbortSignal>();
    const latch = deferred();
    const h = harness([
      shadowed(
        listener("pre-tool", "watcher", async (_event, ctx) => {
          started.resolve(ctx.signal);
          await latch.promise;
          return deny("seen anyway");
        }),
      ),
    ]);
    expect(await decide(h.env, "pre-tool", preToolEvent())).toMatchObject({ decision: { kind: "allow" }, decidedBy: "default" });
    const signal = await started.promise;
    h.turn.abort(new Error("the agent went away"));
    expect(signal.aborted).toBe(false);
    latch.resolve();
    expect(await h.shadows(1)).toMatchObject([{ plugin: "watcher", outcome: "answered", decision: "deny" }]);
  });

  it("a shadow handler's next() gives the enforcing chain's decision, once", async () => {
    const seen = deferred<PreToolDecision>();
    const second = deferred<unknown>();
    const h = harness([
      listener("pre-tool", "real", () => deny("real says no")),
      shadowed(
        listener("pre-tool", "wrapper", async (_event, ctx) => {
          const decision = await ctx.next();
          seen.resolve(decision);
          second.resolve(await ctx.next().catch((error: unknown) => error));
          return decision.kind === "deny" ? allow() : pass();
        }),
      ),
    ]);
    expect(await decide(h.env, "pre-tool", preToolEvent())).toMatchObject({ decision: { kind: "deny", reason: "real says no" }, decidedBy: "real" });
    expect(await seen.promise).toEqual({ kind: "deny", reason: "real says no" });
    expect(String(await second.promise)).toContain("called next() twice");
    expect(await h.shadows(1)).toMatchObject([{ plugin: "wrapper", decision: "allow" }]);
    // The real plugin was called once: the shadow's next() did not run the chain again.
    expect(h.events.filter((e) => e.type === "invocation")).toHaveLength(1);
  });
});

describe("a shadow plugin's failures", () => {
  it("a throw, a deadline and an unreachable fail-closed plugin change nothing, apply no policy, and are audited and counted as shadow faults", async () => {
    const unreachable: Listener<"pre-tool"> = {
      ...listener("pre-tool", "remote-judge", () => Promise.reject(pluginFault("remote-judge", "pre-tool", "unavailable", "connect ECONNREFUSED")), { kind: "remote" }),
      failurePolicy: "fail-closed",
      mode: "shadow",
    };
    const h = harness([
      shadowed(
        listener("pre-tool", "thrower", () => {
          throw new Error("handler exploded");
        }),
      ),
      shadowed(listener("pre-tool", "sleeper", () => new Promise(() => {}), { deadlineMs: 1, failurePolicy: "fail-closed" })),
      unreachable,
    ]);
    const outcome = await decide(h.env, "pre-tool", preToolEvent());
    // Nobody enforcing decided: the point's default, with no fault behind it.
    expect(outcome).toEqual({ type: "decided", decision: { kind: "allow" }, decidedBy: "default" });
    const shadows = await h.shadows(3);
    const byPlugin = Object.fromEntries(shadows.map((s) => [s.plugin, s]));
    expect(byPlugin.thrower).toMatchObject({ outcome: "error", decision: "none", cause: "listener_error" });
    expect(byPlugin.thrower?.reason).toContain("handler exploded");
    expect(byPlugin.sleeper).toMatchObject({ outcome: "fault", decision: "none", cause: "deadline_exceeded" });
    expect(byPlugin["remote-judge"]).toMatchObject({ outcome: "fault", decision: "none", cause: "unavailable", kind: "remote" });
    expect(h.events.filter((e) => e.type === "invocation")).toEqual([]);

    const records = h.events.map((e) => toAuditRecord(e)).filter((r) => r?.kind === "shadow");
    expect(records.find((r) => r?.plugin === "remote-judge")).toMatchObject({ cause: "unavailable", verdict: "would have given no answer (unavailable); no failure policy applied" });

    const metrics = new EngineMetrics();
    for (const event of h.events) metrics.observe(event);
    expect(metrics.pluginPoints.size).toBe(0); // no ordinary call, no failure-policy effect
    const text = renderMetrics(metrics, GAUGES);
    expect(text).toContain('hookd_shadow_faults_total{plugin="remote-judge",point="pre-tool",cause="unavailable"} 1');
    expect(text).toContain('hookd_shadow_faults_total{plugin="sleeper",point="pre-tool",cause="deadline_exceeded"} 1');
    expect(text).toContain('hookd_shadow_faults_total{plugin="thrower",point="pre-tool",cause="listener_error"} 1');
    expect(text).toContain('hookd_shadow_calls_total{plugin="remote-judge",point="pre-tool",outcome="fault",decision="none"} 1');
    expect(text).not.toMatch(/^hookd_plugin_failure_policy_total\{/m);
    expect(text).toMatch(/^hookd_decisions_total\{point="pre-tool",decision="allow"\} 1$/m);
    expect(metrics.totals("remote-judge")).toMatchObject({ calls: 1, failures: 1 });
  });
});

describe("shadow mode at the other point modes", () => {
  it("guards: a shadow guard's deny is audited; the list abstains", async () => {
    const h = harness([shadowed(listener("guard", "strict", () => deny("never on Fridays")))]);
    expect(await decide(h.env, "guard", preToolEvent())).toMatchObject({ decision: { kind: "abstain" }, decidedBy: "default" });
    expect(await h.shadows(1)).toMatchObject([{ plugin: "strict", point: "guard", decision: "deny", reason: "never on Fridays" }]);
  });

  it("notifications: a shadow listener's contexts are never injected", async () => {
    const h = harness([listener("session-start", "real", () => inject([userMessage("real context")])), shadowed(listener("session-start", "trial", () => inject([userMessage("trial context")])))]);
    const outcome = await decide(h.env, "session-start", sessionStartEvent());
    expect(outcome.answers.map((a) => a.plugin)).toEqual(["real"]);
    expect(await h.shadows(1)).toMatchObject([{ plugin: "trial", point: "session-start", decision: "inject" }]);
    expect(shadowVerdict("inject", "")).toBe("would have injected");
  });

  it("execute: a shadow wrapper's next() gives the real result without dispatching again; its own result is discarded", async () => {
    let dispatched = 0;
    const seen = deferred<ToolResult>();
    const h = harness([
      shadowed(
        listener("execute", "timer", async (_event, ctx) => {
          const result = await ctx.next();
          seen.resolve(result);
          return okResult("the shadow's replacement");
        }),
      ),
    ]);
    const around = {
      dispatch: async () => {
        dispatched++;
        return okResult("dispatched");
      },
      normalize: (raw: ToolResult) => raw,
      onError: () => okResult("error"),
    };
    const result = await decide(h.env, "execute", preToolEvent(), around);
    expect(result).toEqual(okResult("dispatched"));
    expect(await seen.promise).toEqual(okResult("dispatched"));
    expect(await h.shadows(1)).toMatchObject([{ plugin: "timer", point: "execute", decision: "result:ok" }]);
    expect(dispatched).toBe(1);
    expect(shadowVerdict("result:ok", "")).toBe("would have returned a result");
  });
});

describe("shadow mode in the tool pipeline (the hosted loop's)", () => {
  it("a call that shadow plugins would have denied, wrapped and blocked runs as the enforcing plugins say, dispatched once", async () => {
    let dispatched = 0;
    const h = harness([
      shadowed(listener("pre-tool", "judge", () => deny("no writes"))),
      shadowed(listener("guard", "strict", () => deny("never"))),
      shadowed(listener("execute", "wrapper", async (_event, ctx) => ctx.next())),
      shadowed(listener("post-tool", "reviewer", () => ({ kind: "block", feedback: "looks wrong" }))),
      shadowed(listener("tool-result", "observer", () => pass())),
    ]);
    const outcome = await runToolBatch(
      {
        env: h.env,
        session: { sessionId: "s1", agentId: "agent", cwd: "/" },
        tools: toolLookup([{ name: "echo", concurrencySafe: true }]),
        dispatch: async (call) => {
          dispatched++;
          return call.arguments;
        },
      },
      [{ callId: "c1", toolName: "echo", arguments: { text: "hi" } }],
    );
    expect(outcome.calls[0]?.result).toMatchObject({ isError: false, value: { text: "hi" } });
    expect(outcome.calls[0]?.trace).toMatchObject({ decidedBy: "default" });
    expect(dispatched).toBe(1);
    const shadows = await h.shadows(5);
    expect(Object.fromEntries(shadows.map((s) => [s.point, [s.plugin, s.decision]]))).toEqual({
      "pre-tool": ["judge", "deny"],
      guard: ["strict", "deny"],
      execute: ["wrapper", "result:ok"],
      "post-tool": ["reviewer", "block"],
      "tool-result": ["observer", "pass"],
    });
  });
});

describe("the registry", () => {
  it("keeps shadow listeners apart from the enforcing chain, matched by tool the same way", () => {
    const registry = new PluginRegistry([
      listener("pre-tool", "real", () => allow()),
      shadowed(listener("pre-tool", "bash-only", () => deny("x"), { matches: (tool) => tool === "Bash" })),
      { ...listener("pre-tool", "explicit", () => allow()), mode: "enforce" },
    ]);
    expect(registry.listeners("pre-tool", "Bash").map((l) => l.plugin)).toEqual(["explicit", "real"]);
    expect(registry.shadows("pre-tool", "Bash").map((l) => l.plugin)).toEqual(["bash-only"]);
    expect(registry.shadows("pre-tool", "Read")).toEqual([]);
    expect(registry.describeShadows()).toEqual([{ point: "pre-tool", shadows: ["bash-only"] }]);
    expect(() => new PluginRegistry([listener("pre-tool", "p", () => allow()), shadowed(listener("pre-tool", "p", () => allow()))])).toThrow(/subscribes to pre-tool twice/);
  });
});

const GAUGES: DaemonGauges = {
  agentsConnected: 0,
  sessionsOpen: 0,
  streamsOpen: 0,
  evaluateStreamsOpen: 0,
  plugins: [],
  configGeneration: 0,
  reloads: { applied: 0, refused: 0 },
  auditRecords: 0,
  auditWriteErrors: 0,
  startedAt: 0,
  evaluateRefused: new Map(),
  admission: { limit: 256, inflight: 0, admitted: 0, minRttMs: undefined, sampleRttMs: undefined },
  connectionsRefused: new Map(),
  instanceId: "i",
  configVersion: "v",
  evaluateRetries: new Map(),
};
