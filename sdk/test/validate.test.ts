// validate.ts: every point's valid answers come back as fresh, frozen typed decisions; invalid
// ones are an error naming the offending field; nothing ever throws.
import { describe, expect, test } from "vitest";
import type { AgentMessage, PointName, ToolResult } from "../src/index.js";
import {
  abstain,
  accept,
  allow,
  ask,
  block,
  deny,
  enter,
  inject,
  pass,
  pluginMessage,
  reject,
  steer,
  text,
  userMessage,
  validateDecision,
  validateToolResult,
} from "../src/index.js";

const BIG = 9223372036854775807n; // 2^63-1
const UNICODE = "héllo ☃ 𝄞";

const note = pluginMessage("audit", "remember the rules");
const rich: AgentMessage = {
  id: "m1",
  role: "assistant",
  content: [text(UNICODE), { type: "json", json: `{"n": ${BIG}}` }, { type: "image", uri: "file:///a.png", mediaType: "" }],
  source: { kind: "model" },
};
const fromTool: AgentMessage = { id: "", role: "user", content: [text("out")], source: { kind: "tool", callId: "c1" } };
const success: ToolResult = { isError: false, value: { id: BIG, s: UNICODE }, content: [text("ok")], metadata: { ms: 3 }, contexts: [note] };
const failure: ToolResult = { isError: true, message: "boom", code: "tool_error", name: "Error", content: [text("Error: boom")], contexts: [] };

// ---- valid answers -------------------------------------------------------------------------

const VALID: readonly [PointName, string, unknown, unknown][] = [
  ["session-start", "undefined is pass", undefined, pass()],
  ["session-start", "pass", { kind: "pass" }, pass()],
  ["session-start", "inject", inject([note, rich]), inject([note, rich])],
  ["session-start", "inject nothing", inject([]), inject([])],
  ["pre-step", "pass", pass(), pass()],
  ["pre-step", "enter", enter([userMessage("hi"), note, fromTool]), enter([userMessage("hi"), note, fromTool])],
  ["pre-step", "enter an empty batch", enter([]), enter([])],
  ["pre-step", "reject", reject("over budget"), reject("over budget")],
  ["pre-tool", "pass", pass(), pass()],
  ["pre-tool", "allow", allow(), allow()],
  ["pre-tool", "deny", deny(UNICODE), deny(UNICODE)],
  ["pre-tool", "ask", ask("run it?"), ask("run it?")],
  ["guard", "abstain", abstain(), abstain()],
  ["guard", "deny", deny("forbidden"), deny("forbidden")],
  ["execute", "pass", pass(), pass()],
  ["execute", "a success", success, success],
  ["execute", "a success without metadata", { isError: false, value: null, content: [], contexts: [] }, { isError: false, value: null, content: [], contexts: [] }],
  ["execute", "a failure", failure, failure],
  ["post-tool", "pass", pass(), pass()],
  ["post-tool", "accept unchanged", accept(), accept()],
  ["post-tool", "accept with content", accept({ content: [text("short")] }), accept({ content: [text("short")] })],
  ["post-tool", "accept with a 2^63-1 value", accept({ value: { max: BIG } }), accept({ value: { max: BIG } })],
  ["post-tool", "accept with a false value", accept({ value: false }), accept({ value: false })],
  ["post-tool", "accept with a null value", accept({ value: null }), accept({ value: null })],
  ["post-tool", "accept with content: undefined and a value", { kind: "accept", content: undefined, value: 1 }, accept({ value: 1 })],
  ["post-tool", "accept with contexts", accept({ additionalContexts: [note] }), accept({ additionalContexts: [note] })],
  ["post-tool", "accept with empty contexts", accept({ additionalContexts: [] }), accept()],
  ["post-tool", "block", block("too big"), block("too big")],
  ["post-tool", "block with empty feedback and contexts", block("", [note]), block("", [note])],
  ["tool-result", "undefined", undefined, pass()],
  ["tool-result", "whatever an observer returned", 42, pass()],
  ["turn-stopping", "undefined is pass", undefined, pass()],
  ["turn-stopping", "pass", pass(), pass()],
  ["turn-stopping", "steer", steer([userMessage("keep going")]), steer([userMessage("keep going")])],
];

describe("valid answers are accepted", () => {
  test.each(VALID)("%s: %s", (point, _name, input, expected) => {
    const checked = validateDecision(point, input);
    expect(checked).toEqual({ ok: true, decision: expected });
  });

  test.each(VALID)("%s: %s comes back deep-frozen", (point, _name, input) => {
    const checked = validateDecision(point, input);
    if (!checked.ok) throw checked.error;
    expectDeepFrozen(checked.decision);
  });
});

describe("a valid decision shares nothing with the caller's input", () => {
  test("an accepted value is a snapshot", () => {
    const value = { list: [1, 2], big: BIG };
    const checked = validateDecision("post-tool", accept({ value }));
    value.list.push(3);
    expect(checked).toEqual({ ok: true, decision: accept({ value: { list: [1, 2], big: BIG } }) });
    expect(Object.isFrozen(value)).toBe(false);
  });

  test("messages are copied", () => {
    const message = { id: "", role: "user", content: [{ type: "text", text: "a" }], source: { kind: "user" } };
    const checked = validateDecision("turn-stopping", { kind: "steer", messages: [message] });
    message.content[0] = { type: "text", text: "changed" };
    expect(checked).toEqual({ ok: true, decision: steer([userMessage("a")]) });
    expect(Object.isFrozen(message)).toBe(false);
  });

  test("a tool result's value and metadata are snapshots", () => {
    const input = { isError: false, value: { n: [1] }, content: [], metadata: { tags: ["a"] }, contexts: [] };
    const checked = validateToolResult(input);
    input.value.n.push(2);
    input.metadata.tags.push("b");
    expect(checked).toEqual({ ok: true, result: { isError: false, value: { n: [1] }, content: [], metadata: { tags: ["a"] }, contexts: [] } });
  });
});

// ---- invalid answers -----------------------------------------------------------------------

class Widget {}
const cyclic: Record<string, unknown> = {};
cyclic.self = cyclic;
const msg = (patch: Record<string, unknown>) => ({ id: "", role: "user", content: [text("x")], source: { kind: "user" }, ...patch });

const INVALID: readonly [PointName, string, unknown, string, string?][] = [
  // shape and kind
  ["pre-tool", "undefined at a waterfall", undefined, "decision: expected a decision object, got undefined"],
  ["guard", "null", null, "decision: expected a decision object, got null"],
  ["pre-step", "a string", "enter", "decision: expected a decision object, got a string"],
  ["post-tool", "an array", [], "decision: expected a decision object, got an array"],
  ["pre-tool", "an unknown kind", { kind: "allw" }, 'decision.kind: expected one of "allow", "deny", "ask", "pass"'],
  ["pre-tool", "no kind", { reason: "x" }, 'decision.kind: expected one of "allow", "deny", "ask", "pass"'],
  ["pre-tool", "another point's kind", { kind: "accept" }, 'decision.kind: expected one of "allow", "deny", "ask", "pass"'],
  ["session-start", "an unknown kind", { kind: "block" }, 'decision.kind: expected one of "inject", "pass"'],
  ["pre-step", "an unknown kind", { kind: "allow" }, 'decision.kind: expected one of "enter", "reject", "pass"'],
  ["post-tool", "an unknown kind", { kind: "deny", reason: "x" }, 'decision.kind: expected one of "accept", "block", "pass"'],
  ["turn-stopping", "an unknown kind", { kind: "continue" }, 'decision.kind: expected one of "steer", "pass"'],
  ["guard", "an allow", allow(), 'decision.kind: a guard can only deny or abstain, not "allow"'],
  ["guard", "a pass", pass(), 'decision.kind: expected one of "abstain", "deny"'],
  ["guard", "undefined", undefined, "decision: expected a decision object, got undefined"],
  ["pre-tool", "an unknown field", { kind: "allow", reason: "x" }, "decision.reason: unknown field"],
  ["post-tool", "a misspelt field", { kind: "accept", contnet: [] }, "decision.contnet: unknown field"],
  ["pre-tool", "an unknown point", allow(), 'point: unknown point "pre-commit"', "pre-commit"],
  // reasons
  ["pre-tool", "a deny without reason", { kind: "deny" }, "decision.reason: a deny needs a non-empty reason"],
  ["pre-tool", "a deny with an empty reason", deny(""), "decision.reason: a deny needs a non-empty reason"],
  ["guard", "a deny with a blank reason", deny("  \n"), "decision.reason: a deny needs a non-empty reason"],
  ["pre-tool", "an ask with a number", { kind: "ask", reason: 1 }, "decision.reason: an ask needs a non-empty reason"],
  ["pre-step", "a reject without reason", { kind: "reject", reason: "" }, "decision.reason: a reject needs a non-empty reason"],
  ["post-tool", "a block without feedback", { kind: "block" }, "decision.feedback: required"],
  ["post-tool", "a block with a number as feedback", { kind: "block", feedback: 3 }, "decision.feedback: expected a string, got a number"],
  // accept
  ["post-tool", "an accept with content and value", { kind: "accept", content: [text("a")], value: 1 }, "decision: accept cannot replace both content and value"],
  ["post-tool", "an accept with empty content and a null value", { kind: "accept", content: [], value: null }, "decision: accept cannot replace both content and value"],
  ["post-tool", "a function value", { kind: "accept", value: () => 1 }, "decision.value: function is not JSON", "invalid_json"],
  ["post-tool", "an undefined value", { kind: "accept", value: undefined }, "decision.value: undefined is not JSON", "invalid_json"],
  ["post-tool", "a NaN value", accept({ value: [1, NaN] }), "decision.value[1]: NaN is not a JSON number", "invalid_json"],
  ["post-tool", "a class instance value", { kind: "accept", value: { w: new Widget() } }, "decision.value.w: an instance of Widget is not plain JSON data", "invalid_json"],
  ["post-tool", "a cyclic value", { kind: "accept", value: cyclic }, "decision.value.self: circular reference", "invalid_json"],
  ["post-tool", "content that is a string", { kind: "accept", content: "short" }, "decision.content: expected an array, got a string"],
  ["post-tool", "an unknown block type", { kind: "accept", content: [{ type: "html", html: "<b>" }] }, 'decision.content[0].type: expected one of "text", "json", "image"'],
  ["post-tool", "a block that is a string", { kind: "accept", content: ["short"] }, "decision.content[0]: expected an object, got a string"],
  ["post-tool", "a json block that is not JSON", { kind: "accept", content: [{ type: "json", json: "{" }] }, "decision.content[0].json: not valid JSON (Quoted object key or end of object '}' expected but reached end of input at position 1)", "invalid_json"],
  ["post-tool", "an image without media type", { kind: "accept", content: [{ type: "image", uri: "a.png" }] }, "decision.content[0].mediaType: required"],
  ["post-tool", "contexts that are not a list", { kind: "block", feedback: "", additionalContexts: note }, "decision.additionalContexts: expected an array, got an object"],
  // messages
  ["pre-step", "enter without messages", { kind: "enter" }, "decision.messages: required"],
  ["pre-step", "a message with an unknown role", enter([msg({ role: "system" }) as never]), 'decision.messages[0].role: expected one of "user", "assistant"'],
  ["pre-step", "a message with string content", enter([msg({ content: "hi" }) as never]), "decision.messages[0].content: expected an array, got a string"],
  ["pre-step", "a message with no content", enter([note, msg({ content: [] }) as never]), "decision.messages[1].content: a message needs at least one content block"],
  ["pre-step", "a message without a source", enter([msg({ source: undefined }) as never]), "decision.messages[0].source: required"],
  ["session-start", "a message with an unknown source", inject([msg({ source: { kind: "system" } }) as never]), 'decision.messages[0].source.kind: expected one of "user", "plugin", "tool", "model"'],
  ["session-start", "a plugin source without a name", inject([msg({ source: { kind: "plugin" } }) as never]), "decision.messages[0].source.name: required"],
  ["session-start", "a message without an id", inject([{ role: "user", content: [text("x")], source: { kind: "user" } } as never]), "decision.messages[0].id: required"],
  ["session-start", "a message with an extra field", inject([msg({ meta: 1 }) as never]), "decision.messages[0].meta: unknown field"],
  ["turn-stopping", "a steer without messages", steer([]), "decision.messages: a steer needs at least one message"],
  ["turn-stopping", "a steer with a bad message", steer([note, msg({ role: 1 }) as never]), 'decision.messages[1].role: expected one of "user", "assistant"'],
  // execute
  ["execute", "undefined", undefined, "decision: expected a tool result or pass, got undefined"],
  ["execute", "a decision kind", allow(), 'decision.kind: expected "pass" (a tool result has no kind)'],
  ["execute", "a result without isError", { value: 1, content: [], contexts: [] }, "decision.isError: expected true or false"],
  ["execute", "a success without a value", { isError: false, content: [], contexts: [] }, "decision.value: required"],
  ["execute", "a success with a bigint-unsafe value", { isError: false, value: new Map(), content: [], contexts: [] }, "decision.value: an instance of Map is not plain JSON data", "invalid_json"],
  ["execute", "a success with array metadata", { isError: false, value: 1, content: [], metadata: [1], contexts: [] }, "decision.metadata: expected a JSON object, got an array"],
  ["execute", "a success without contexts", { isError: false, value: 1, content: [] }, "decision.contexts: required"],
  ["execute", "a failure with a value", { ...failure, value: 1 }, "decision.value: unknown field"],
  ["execute", "a failure without a message", { isError: true, code: "x", name: "y", content: [], contexts: [] }, "decision.message: required"],
];

describe("invalid answers name the offending field", () => {
  test.each(INVALID)("%s: %s", (point, _name, input, message, codeOrPoint) => {
    const target = codeOrPoint !== undefined && !codeOrPoint.startsWith("invalid_") ? codeOrPoint : point;
    const code = codeOrPoint?.startsWith("invalid_") === true ? codeOrPoint : "invalid_decision";
    const checked = validateDecision(target as PointName, input);
    expect(checked.ok).toBe(false);
    if (checked.ok) return;
    expect(checked.error.message).toBe(message);
    expect(checked.error.code).toBe(code);
  });
});

describe("never throws", () => {
  test("a throwing getter is an error result", () => {
    const hostile = {
      kind: "deny",
      get reason(): string {
        throw new Error("gotcha");
      },
    };
    const checked = validateDecision("pre-tool", hostile);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error.code).toBe("invalid_decision");
  });

  test("a revoked proxy is an error result", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const point of ["pre-tool", "execute", "post-tool"] as const) {
      const checked = validateDecision(point, proxy);
      expect(checked.ok).toBe(false);
    }
  });
});

describe("validateToolResult", () => {
  test("accepts a success and a failure", () => {
    expect(validateToolResult(success)).toEqual({ ok: true, result: success });
    expect(validateToolResult(failure)).toEqual({ ok: true, result: failure });
  });

  test.each([
    [undefined, "result: expected an object, got undefined"],
    [{ isError: false, value: 1, content: [], contexts: [], metadata: "x" }, "result.metadata: expected a JSON object, got a string"],
    [{ isError: false, value: 1, content: [{ type: "text" }], contexts: [] }, "result.content[0].text: required"],
    [{ ...failure, contexts: [{ ...note, role: "tool" }] }, 'result.contexts[0].role: expected one of "user", "assistant"'],
  ])("refuses %j", (input, message) => {
    const checked = validateToolResult(input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.error.message).toBe(message);
      expect(checked.error.code).toBe("invalid_argument");
    }
  });

  test("the root of the path is the caller's", () => {
    const checked = validateToolResult({ isError: true }, "dispatch.result");
    expect(!checked.ok && checked.error.message).toBe("dispatch.result.message: required");
  });
});

function expectDeepFrozen(value: unknown, path = "decision"): void {
  if (typeof value !== "object" || value === null) return;
  expect(Object.isFrozen(value), `${path} is frozen`).toBe(true);
  for (const [key, item] of Object.entries(value)) expectDeepFrozen(item, `${path}.${key}`);
}

describe("a valid input that is already deep-frozen keeps its identity", () => {
  test("a frozen tool result handed on from next() is returned as is", () => {
    const frozen = Object.freeze({ ...failure, content: Object.freeze([Object.freeze(text("Error: boom"))]), contexts: Object.freeze([]) });
    const answer = validateDecision("execute", frozen);
    expect(answer.ok && answer.decision).toBe(frozen);
    const checked = validateToolResult(frozen);
    expect(checked.ok && checked.result).toBe(frozen);
  });

  test("a shallowly frozen input is copied", () => {
    const value = { n: [1] };
    const shallow = Object.freeze(accept({ value }));
    const checked = validateDecision("post-tool", shallow);
    expect(checked.ok && checked.decision).not.toBe(shallow);
    expect(checked).toEqual({ ok: true, decision: accept({ value: { n: [1] } }) });
  });

  test("a frozen invalid input is still refused", () => {
    const checked = validateDecision("pre-tool", Object.freeze({ kind: "deny", reason: "" }));
    expect(!checked.ok && checked.error.message).toBe("decision.reason: a deny needs a non-empty reason");
  });

  test("a frozen object from a tool-result observer is still just pass", () => {
    expect(validateDecision("tool-result", Object.freeze({ kind: "deny", reason: "x" }))).toEqual({ ok: true, decision: pass() });
  });
});

describe("the commonest answers, however they were built, come back as the constructors' singletons", () => {
  // A plugin with its own copy of the SDK, a literal, or a worker's structured clone.
  test.each([
    ["pre-tool", { kind: "allow" }, allow()],
    ["pre-tool", structuredClone(allow()), allow()],
    ["guard", Object.freeze({ kind: "abstain" }), abstain()],
    ...(["session-start", "pre-step", "pre-tool", "execute", "post-tool", "turn-stopping"] as const).map((point) => [point, { kind: "pass" }, pass()] as const),
  ] as const)("%s: %j", (point, input, singleton) => {
    const checked = validateDecision(point, input);
    expect(checked.ok && checked.decision).toBe(singleton);
  });

  test.each([
    ["guard", { kind: "pass" }, /decision.kind/],
    ["post-tool", { kind: "allow" }, /decision.kind/],
    ["pre-step", { kind: "abstain" }, /decision.kind/],
    ["pre-tool", { kind: "allow", reason: "extra" }, /reason/],
    ["pre-tool", { kind: "pass", note: undefined }, /note/],
  ] as const)("%s: %j is still judged by the schema", (point, input, error) => {
    const checked = validateDecision(point, input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error.message).toMatch(error);
  });
});
