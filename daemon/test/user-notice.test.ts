// A message for the user and a stop request beside a decision (sdk/src/notice.ts): merged over a
// point's plugins in plugin order (a deciding plugin's and those that passed before it; not a
// later one's), on the applied decision and in its audit records, through the real engine with
// in-process plugins and a real out-of-process plugin over gRPC; checked where untyped code
// answers; carried by the proto decision.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { POINT_TABLE, allow, definePlugin, deny, inject, pass, pluginMessage, reject, servePlugin, stopAgent, tellUser, validateDecision } from "@hookd/sdk";
import type { PluginSpec, PreToolDecision, WaterfallContext } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import { decide } from "../src/engine/decide.js";
import type { PointEnv } from "../src/engine/decide.js";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { toAuditRecord } from "../src/ops/audit-record.js";
import { RemotePlugin } from "../src/plugins/index.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import { preToolEvent } from "./fixtures/listeners.js";

const session = { sessionId: "s1", agentId: "a1", cwd: "/" };

function env(plugins: readonly (PluginSpec & { readonly priority?: number })[], seen: EngineEvent[] = []): PointEnv {
  const registry = new PluginRegistry(plugins.flatMap((p) => inProcessListeners(definePlugin(p)).map((listener) => ({ ...listener, priority: p.priority ?? 0 }))));
  const bus = new EventBus();
  bus.subscribe((event) => void seen.push(event));
  return { registry, bus, signal: new AbortController().signal, scope: { sessionId: "s1", agentId: "a1", turn: 1, step: 1 } };
}

describe("a waterfall's notices", () => {
  test("every called plugin's message reaches the decision in plugin order, passes included; a later plugin is not heard", async () => {
    const seen: EngineEvent[] = [];
    const outcome = await decide(
      env(
        [
          { name: "a-first", priority: 0, points: { "pre-tool": () => tellUser(pass(), "first: logged") } },
          { name: "b-decider", priority: 1, points: { "pre-tool": () => tellUser(deny("no"), "second: refused") } },
          { name: "c-never", priority: 2, points: { "pre-tool": () => tellUser(allow(), "never called") } },
        ],
        seen,
      ),
      "pre-tool",
      preToolEvent(),
    );
    expect(outcome).toMatchObject({ type: "decided", decidedBy: "b-decider", decision: { kind: "deny", reason: "no", userMessage: "first: logged\n\nsecond: refused" } });
    const records = seen.flatMap((event) => {
      const record = toAuditRecord(event);
      return record === undefined ? [] : [record];
    });
    // The applied decision's record has the merged message; each invocation its own.
    expect(records.filter((r) => r.kind === "decision").map((r) => r.userMessage)).toEqual(["first: logged\n\nsecond: refused"]);
    expect(records.filter((r) => r.kind === "invocation").map((r) => [r.plugin, r.userMessage])).toEqual([
      ["a-first", "first: logged"],
      ["b-decider", "second: refused"],
    ]);
  });

  test("when every plugin passes, the default carries what they said; the first stop request gives the reason", async () => {
    const outcome = await decide(
      env([
        { name: "a", priority: 0, points: { "pre-step": () => stopAgent(pass(), "budget spent") } },
        { name: "b", priority: 1, points: { "pre-step": () => stopAgent(tellUser(pass(), "bye"), "second reason") } },
      ]),
      "pre-step",
      { session, turn: 1, step: 1, messages: [] },
    );
    expect(outcome).toMatchObject({ type: "decided", decidedBy: "default", decision: { kind: "enter", userMessage: "bye", stopAgent: { reason: "budget spent" } } });
  });

  test("a wrapper that hands on next()'s decision is heard only for what it added: the inner plugin's message is not repeated", async () => {
    const plugins = (outer: (decision: PreToolDecision) => PreToolDecision) => [
      { name: "a-outer", priority: 0, points: { "pre-tool": async (_e: unknown, ctx: WaterfallContext<PreToolDecision>) => outer(await ctx.next()) } },
      { name: "b-inner", priority: 1, points: { "pre-tool": () => tellUser(deny("no"), "inner says") } },
    ];
    const handedOn = await decide(env(plugins((decision) => decision)), "pre-tool", preToolEvent());
    expect(handedOn).toMatchObject({ decision: { kind: "deny", userMessage: "inner says" } });
    const added = await decide(env(plugins((decision) => stopAgent(tellUser(decision, "outer adds"), "outer stops"))), "pre-tool", preToolEvent());
    expect(added).toMatchObject({ decidedBy: "a-outer", decision: { kind: "deny", userMessage: "outer adds\n\ninner says", stopAgent: { reason: "outer stops" } } });
  });

  test("a decision that says nothing to the user carries no notice fields", async () => {
    const outcome = await decide(env([{ name: "a", points: { "pre-step": () => reject("blocked") } }]), "pre-step", { session, turn: 1, step: 1, messages: [] });
    expect(outcome.type === "decided" ? outcome.decision : undefined).toEqual({ kind: "reject", reason: "blocked" });
  });
});

describe("a notification's notices", () => {
  test("session-start merges every plugin's message in plugin order, a pass's included", async () => {
    const outcome = await decide(
      env([
        { name: "a", priority: 0, points: { "session-start": () => tellUser(pass(), "policy v2 is on") } },
        { name: "b", priority: 1, points: { "session-start": () => tellUser(inject([pluginMessage("b", "ctx")]), "welcome") } },
      ]),
      "session-start",
      { session, source: "startup", tools: [] },
    );
    expect(outcome.notice).toEqual({ userMessage: "policy v2 is on\n\nwelcome" });
  });
});

describe("checked and carried", () => {
  test("untyped answers: a wrong type or an empty stop reason is refused naming the field; the notice stays on the answer", () => {
    const wrongType = validateDecision("pre-tool", { kind: "allow", userMessage: 3 });
    expect(wrongType.ok ? undefined : [wrongType.error.code, wrongType.error.message]).toEqual(["invalid_decision", expect.stringContaining("decision.userMessage")]);
    const emptyStop = validateDecision("pre-tool", { kind: "deny", reason: "x", stopAgent: { reason: " " } });
    expect(emptyStop.ok ? undefined : emptyStop.error.message).toContain("decision.stopAgent.reason");
    expect(validateDecision("pre-tool", { kind: "pass", userMessage: "hi" })).toEqual({ ok: true, decision: { kind: "pass", userMessage: "hi" } });
    // A point without the fields refuses them as any unknown field.
    expect(validateDecision("guard", { kind: "abstain", userMessage: "hi" })).toMatchObject({ ok: false });
  });

  test("the proto decision round-trips user_message and stop_agent; a stop without a reason is refused", () => {
    const codec = POINT_TABLE["pre-step"].decision;
    const proto = codec.toProto(stopAgent(tellUser(reject("no"), "shown to the user"), "ended"));
    expect(proto.userMessage).toBe("shown to the user");
    expect(proto.stopAgent?.reason).toBe("ended");
    expect(codec.fromProto(proto)).toEqual({ ok: true, value: { kind: "reject", reason: "no", userMessage: "shown to the user", stopAgent: { reason: "ended" } } });
    const bad = codec.toProto(reject("no"));
    bad.stopAgent = { ...proto.stopAgent!, reason: "" };
    const refused = codec.fromProto(bad);
    expect(refused.ok ? undefined : refused.error.message).toContain("stop_agent.reason");
  });
});

describe("an out-of-process plugin", () => {
  test("its proto answer's user_message and stop_agent reach the decision, merged after an in-process plugin that passed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-notice-remote-"));
    const server = await servePlugin(definePlugin({ name: "remote", points: { "post-tool": () => stopAgent(tellUser(pass(), "from the remote plugin"), "remote says stop") } }), { address: `unix://${join(dir, "p.sock")}`, onError: () => {} });
    const remote = new RemotePlugin({ name: "remote", target: server.address, health: { initialBackoffMs: 10, maxBackoffMs: 100 } });
    try {
      await remote.start();
      const local = inProcessListeners(definePlugin({ name: "local", points: { "post-tool": () => tellUser(pass(), "from the local plugin") } })).map((l) => ({ ...l, priority: -1 }));
      const registry = new PluginRegistry([...local, ...remote.listeners()]);
      const event = { ...preToolEvent("Read"), result: { isError: false as const, value: "ok", content: [{ type: "text" as const, text: "ok" }], contexts: [] } };
      const outcome = await decide({ registry, bus: new EventBus(), signal: new AbortController().signal, scope: { sessionId: "s1", agentId: "a1", turn: 1, step: 1 } }, "post-tool", event);
      expect(outcome).toMatchObject({ type: "decided", decidedBy: "default", decision: { kind: "accept", userMessage: "from the local plugin\n\nfrom the remote plugin", stopAgent: { reason: "remote says stop" } } });
    } finally {
      await remote.close();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
