// The agent-event point through decide() and the registry: subscribers are chosen by the agent's
// event name with the same whole-name globs tool matchers use (the spec's match key), every
// matching observer is called with the frozen envelope, answers change nothing, a failing
// observer is contained, shadows are matched the same way, and the audit records name the event.
import { definePlugin, deny, parseJson } from "@hookd/sdk";
import type { AgentEventEvent, PluginSpec } from "@hookd/sdk";
import { describe, expect, test } from "vitest";
import { decide } from "../src/engine/decide.js";
import type { PointEnv } from "../src/engine/decide.js";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { recordLine } from "../src/commands/admin.js";
import { toProtoAuditRecord } from "../src/ops/admin-service.js";
import { toAuditRecord } from "../src/ops/audit-record.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";

const session = { sessionId: "s1", agentId: "a1", cwd: "/work" };

function event(eventName: string, payload = parseJson(`{"hook_event_name":"${eventName}","n":9223372036854775807}`)): AgentEventEvent {
  return { session, dialect: "claude-code", eventName, payload };
}

/** Plugins that record the event names they were called with; `mode: "shadow"` entries become shadow listeners. */
function setup(plugins: readonly (PluginSpec & { readonly shadow?: boolean })[]) {
  const listeners = plugins.flatMap((p) => inProcessListeners(definePlugin(p)).map((l) => (p.shadow === true ? { ...l, mode: "shadow" as const } : l)));
  const bus = new EventBus((error) => {
    throw error;
  });
  const events: EngineEvent[] = [];
  let shadowSettled: () => void = () => undefined;
  const shadowed = new Promise<void>((resolve) => (shadowSettled = resolve));
  bus.subscribe((e) => {
    events.push(e);
    if (e.type === "shadow-decision") shadowSettled();
  });
  const env: PointEnv = { registry: new PluginRegistry(listeners), bus, signal: new AbortController().signal, scope: { sessionId: "s1", agentId: "a1", turn: 0, step: 0, eventName: "unset" } };
  return { events, shadowed, run: (e: AgentEventEvent) => decide({ ...env, scope: { ...env.scope, eventName: e.eventName } }, "agent-event", e) };
}

function observer(name: string, seen: string[], events?: readonly string[]): PluginSpec {
  const handler = (e: AgentEventEvent): void => void seen.push(`${name}:${e.eventName}`);
  return { name, points: { "agent-event": events === undefined ? handler : { handler, tools: events } } };
}

describe("agent-event: subscription by event name", () => {
  test("only the observers whose matchers match the whole event name are called; no matcher means every event", async () => {
    const seen: string[] = [];
    const { run } = setup([
      observer("compaction", seen, ["PreCompact", "PostCompact"]),
      observer("worktrees", seen, ["Worktree*"]),
      observer("everything", seen),
    ]);
    for (const name of ["PreCompact", "PreCompactX", "WorktreeCreate", "Notification", "precompact"]) await run(event(name));
    // Observers of one event run concurrently: who saw what, not in which order.
    expect(seen).toHaveLength(7);
    expect(new Set(seen)).toEqual(
      new Set(["compaction:PreCompact", "everything:PreCompact", "everything:PreCompactX", "everything:WorktreeCreate", "worktrees:WorktreeCreate", "everything:Notification", "everything:precompact"]),
    );
  });

  test("the registry filters by the match key and keeps the order", () => {
    const registry = new PluginRegistry([
      ...inProcessListeners(definePlugin({ name: "b", points: { "agent-event": { handler: () => undefined, tools: ["Task*"], priority: 1 } } })),
      ...inProcessListeners(definePlugin({ name: "a", points: { "agent-event": { handler: () => undefined, tools: ["TaskCreated"], priority: 2 } } })),
      ...inProcessListeners(definePlugin({ name: "c", points: { "agent-event": () => undefined } })),
    ]);
    expect(registry.listeners("agent-event", "TaskCreated").map((l) => l.plugin)).toEqual(["c", "b", "a"]);
    expect(registry.listeners("agent-event", "TaskCompleted").map((l) => l.plugin)).toEqual(["c", "b"]);
    expect(registry.listeners("agent-event", "Stop").map((l) => l.plugin)).toEqual(["c"]);
  });

  test("observers get the lossless, frozen envelope; their answers are ignored and a failing observer is contained", async () => {
    const got: AgentEventEvent[] = [];
    const { run } = setup([
      { name: "thrower", points: { "agent-event": () => { throw new Error("observer broke"); } } },
      // An observer cannot answer: a deny from a plain-JS plugin is ignored.
      { name: "denier", points: { "agent-event": (e) => (got.push(e), deny("no") as unknown as undefined) } },
    ]);
    const outcome = await run(event("PreCompact"));
    expect(outcome.answers).toEqual([]);
    expect(outcome.errors).toMatchObject([{ details: { plugin: "thrower" }, message: expect.stringContaining("observer broke") as string }]);
    expect(got).toHaveLength(1);
    expect(got[0]?.payload).toEqual({ hook_event_name: "PreCompact", n: 9223372036854775807n });
    expect(Object.isFrozen(got[0]?.payload)).toBe(true);
  });

  test("every invocation is audited with the event name; shadows are matched by name too", async () => {
    const seen: string[] = [];
    const { run, events, shadowed } = setup([observer("watcher", seen, ["Notification"]), { ...observer("shadowed", seen, ["Notification"]), shadow: true }]);
    await run(event("Notification"));
    await run(event("PreCompact"));
    await shadowed;
    const records = events.map((e) => toAuditRecord(e)).filter((r) => r !== undefined);
    expect(records.map((r) => [r.kind, r.plugin, r.point, r.eventName])).toEqual(
      expect.arrayContaining([
        ["invocation", "watcher", "agent-event", "Notification"],
        ["shadow", "shadowed", "agent-event", "Notification"],
      ]),
    );
    // Nobody subscribes to PreCompact: no call, nothing recorded for it.
    expect(records.filter((r) => r.eventName === "PreCompact")).toEqual([]);
    expect(new Set(seen)).toEqual(new Set(["watcher:Notification", "shadowed:Notification"]));
  });
});

describe("agent-event: subscriptions", () => {
  test("matchers are accepted at agent-event and tool points, refused elsewhere naming the field", () => {
    expect(() => definePlugin({ name: "p", points: { "agent-event": { handler: () => undefined, tools: ["Pre*"] } } })).not.toThrow();
    expect(() => definePlugin({ name: "p", points: { "session-end": { handler: () => undefined, tools: ["Pre*"] } } })).toThrow(
      'p: points.session-end.tools: matchers apply only to tool points and agent-event',
    );
    expect(() => definePlugin({ name: "p", points: { "agent-event": { handler: () => undefined, tools: [""] } } })).toThrow("p: points.agent-event.tools[0]: a tool matcher must be a non-empty string");
  });
});

describe("agent-event: the audit record over HookAdmin and `hookd tail`", () => {
  test("the event name travels in AuditRecord.event_name and is shown in the tail line", () => {
    const record = toAuditRecord({
      type: "invocation",
      scope: { sessionId: "s1", agentId: "a1", turn: 0, step: 0, eventName: "PreCompact" },
      invocation: { plugin: "watcher", point: "agent-event", kind: "in-process", durationUs: 12, outcome: "passed", decision: "pass" },
    });
    expect(record).toMatchObject({ eventName: "PreCompact", callId: "" });
    const proto = toProtoAuditRecord(record as NonNullable<typeof record>);
    expect(proto.eventName).toBe("PreCompact");
    expect(recordLine(proto)).toContain("[a1/s1 t0s0 PreCompact]");
    // Records of other points carry no event name.
    const other = toProtoAuditRecord(toAuditRecord({ type: "invocation", scope: { sessionId: "s1", agentId: "a1", turn: 1, step: 1, callId: "c1" }, invocation: { plugin: "p", point: "pre-tool", kind: "in-process", durationUs: 1, outcome: "answered", decision: "allow" } }) as NonNullable<typeof record>);
    expect(other.eventName).toBe("");
    expect(recordLine(other)).toContain("[a1/s1 t1s1 c1]");
  });
});
