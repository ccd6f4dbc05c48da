// The fleet pieces on their own: the instance id's sources, the config version's stability, and
// the retry answers' key, window, bound and failure handling.
import { describe, expect, it } from "vitest";
import { configVersion, resolveInstanceId } from "../src/config/instance.js";
import { restartOnlyChanges } from "../src/config/reload.js";
import { configSchema } from "../src/config/schema.js";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { RetryAnswers, retryKey } from "../src/host/retries.js";

const parse = (value: unknown) => configSchema.parse(value);
const base = { listeners: [{ unix: "/a.sock" }] };

describe("instance id", () => {
  it("is the configured one, else $HOOKD_INSTANCE_ID, else the short host name and six hex digits", () => {
    expect(resolveInstanceId(parse({ ...base, instance: { id: "a-1" } }), { HOOKD_INSTANCE_ID: "env" }, "h")).toBe("a-1");
    expect(resolveInstanceId(parse(base), { HOOKD_INSTANCE_ID: "pod-3" }, "h")).toBe("pod-3");
    expect(resolveInstanceId(parse(base), {}, "web-2.example.org")).toMatch(/^web-2-[0-9a-f]{6}$/);
    expect(resolveInstanceId(parse(base), {}, "")).toMatch(/^hookd-[0-9a-f]{6}$/);
    expect(resolveInstanceId(parse(base), {}, "h")).not.toBe(resolveInstanceId(parse(base), {}, "h"));
    expect(() => resolveInstanceId(parse(base), { HOOKD_INSTANCE_ID: "a b" }, "h")).toThrow(/HOOKD_INSTANCE_ID/);
    expect(configSchema.safeParse({ ...base, instance: { id: "a b" } }).error?.issues[0]?.path).toEqual(["instance", "id"]);
  });

  it("needs a restart to change", () => {
    expect(restartOnlyChanges(parse({ ...base, instance: { id: "a" } }), parse({ ...base, instance: { id: "b" } }))).toEqual(["instance.id"]);
  });
});

describe("config version", () => {
  it("is the same for the same settings in any key order and any instance id, and changes with a setting", () => {
    const one = configVersion(parse({ listeners: [{ unix: "/a.sock" }], limits: { maxInflight: 5, maxSessions: 9 }, instance: { id: "x" } }));
    const two = configVersion(parse({ limits: { maxSessions: 9, maxInflight: 5 }, listeners: [{ unix: "/a.sock" }], instance: { id: "y" } }));
    expect(one).toMatch(/^[0-9a-f]{12}$/);
    expect(two).toBe(one);
    expect(configVersion(parse({ listeners: [{ unix: "/a.sock" }], limits: { maxInflight: 6, maxSessions: 9 } }))).not.toBe(one);
  });
});

const session = { agentId: "a", sessionId: "s" };
const decision = (callId: string): EngineEvent => ({ type: "decision", scope: { ...session, turn: 1, step: 1, callId }, point: "pre-tool", decision: "deny", decidedBy: "p", durationUs: 1 });

describe("retry answers", () => {
  function setup(limits = { windowMs: 1_000, maxEntries: 10, epoch: 0 }) {
    let now = 0;
    const retried: EngineEvent[][] = [];
    const answers = new RetryAnswers(() => limits, (_point, decisions) => retried.push([...decisions]), () => now);
    let runs = 0;
    const ask = (callId: string, answer = `answer-${callId}`) =>
      answers.answer("pre-tool", { session, call: { callId } }, new EventBus(), async (bus) => {
        runs++;
        bus.emit(decision(callId));
        return answer;
      });
    return { answers, retried, ask, runs: () => runs, advance: (ms: number) => (now += ms) };
  }

  it("answers a call id seen within the window with the first answer and hands its decisions to the audit", async () => {
    const t = setup();
    expect(await t.ask("c1")).toBe("answer-c1");
    expect(await t.ask("c1", "other")).toBe("answer-c1");
    expect(t.runs()).toBe(1);
    expect(t.retried).toEqual([[decision("c1")]]);
    expect(t.answers.answered.get("pre-tool")).toBe(1);
    await t.ask("c2");
    expect(t.runs()).toBe(2);
    t.advance(1_000);
    expect(await t.ask("c1", "fresh")).toBe("fresh");
    expect(t.runs()).toBe(3);
  });

  it("keeps at most maxEntries answers, the oldest going first", async () => {
    const t = setup({ windowMs: 60_000, maxEntries: 2, epoch: 0 });
    await t.ask("c1");
    await t.ask("c2");
    await t.ask("c3");
    expect(t.answers.size).toBe(2);
    await t.ask("c1");
    expect(t.runs()).toBe(4);
    await t.ask("c3");
    expect(t.runs()).toBe(4);
  });

  it("drops every answer when the config generation changes (a reload changes who decides)", async () => {
    const limits = { windowMs: 60_000, maxEntries: 10, epoch: 0 };
    const t = setup(limits);
    await t.ask("c1");
    limits.epoch = 1;
    expect(await t.ask("c1", "after reload")).toBe("after reload");
    expect(t.runs()).toBe(2);
  });

  it("does not keep a failed first call: its retry is evaluated again", async () => {
    const answers = new RetryAnswers(() => ({ windowMs: 1_000, maxEntries: 10, epoch: 0 }), () => {});
    const failing = answers.answer("pre-tool", { session, call: { callId: "c" } }, new EventBus(), () => Promise.reject(new Error("cancelled")));
    const joined = answers.answer("pre-tool", { session, call: { callId: "c" } }, new EventBus(), async () => "second");
    await expect(failing).rejects.toThrow("cancelled");
    expect(await joined).toBe("second");
    expect(answers.answered.size).toBe(0);
  });

  it("keys by the call id and the whole event: a call id reused with other arguments is another call", () => {
    const call = (args: string) => ({ session, call: { callId: "c", argumentsJson: args } });
    expect(retryKey("pre-tool", call("{}"))).toBe(retryKey("pre-tool", call("{}")));
    expect(retryKey("pre-tool", call("{}"))).not.toBe(retryKey("pre-tool", call('{"a":1}')));
    expect(retryKey("pre-tool", call("{}"))).not.toBe(retryKey("post-tool", call("{}")));
    const event = (name: string) => ({ session, eventName: name, payload: { n: 1 } });
    expect(retryKey("agent-event", event("A"))).toBe(retryKey("agent-event", event("A")));
    expect(retryKey("agent-event", event("A"))).not.toBe(retryKey("agent-event", event("B")));
    expect(retryKey("agent-event", event("A"))).not.toBe(retryKey("agent-event", { ...event("A"), session: { ...session, agentId: "b" } }));
  });

  it("is off with a window of 0", async () => {
    const t = setup({ windowMs: 0, maxEntries: 10, epoch: 0 });
    await t.ask("c1");
    await t.ask("c1");
    expect(t.runs()).toBe(2);
    expect(t.answers.size).toBe(0);
  });
});
