// The rewrite point's rule in the SDK: what a plugin may answer (replace, patch, pass; never
// allow or deny; always a JSON object), how its proto answers are read, and how the chain
// applies an answer to the call.
import { create } from "@bufbuild/protobuf";
import { describe, expect, test } from "vitest";
import type { ToolCall } from "../src/index.js";
import { POINT_TABLE, deny, isDeeplyFrozen, patch, replace, snapshotJson, validateDecision } from "../src/index.js";
import { fromProtoDecision, toProtoDecision } from "../src/internal.js";
import * as pb from "../src/proto.js";

const session = { sessionId: "s1", agentId: "a1", cwd: "/" };
function callWith(args: object): ToolCall {
  const snapshot = snapshotJson(args);
  return { callId: "c1", rootCallId: "c1", toolName: "Read", arguments: snapshot.value, argumentsJson: snapshot.text, sessionId: "s1", turn: 1, step: 1 };
}

describe("answers of untyped code", () => {
  test("replace and patch are taken as frozen lossless copies", () => {
    const input = { kind: "replace", arguments: { path: "/safe", big: 2n ** 63n - 1n } };
    const checked = validateDecision("rewrite", input);
    expect(checked).toEqual({ ok: true, decision: replace({ path: "/safe", big: 9223372036854775807n }) });
    expect(checked.ok && isDeeplyFrozen(checked.decision)).toBe(true);
    expect(Object.isFrozen(input.arguments)).toBe(false);
    expect(validateDecision("rewrite", { kind: "patch", mergePatch: { drop: null } })).toEqual({ ok: true, decision: patch({ drop: null }) });
    expect(validateDecision("rewrite", { kind: "pass" })).toMatchObject({ ok: true, decision: { kind: "pass" } });
  });

  test.each([
    ["a deny", deny("no"), "decision.kind: a rewrite can only replace, patch or pass, never \"deny\""],
    ["an allow", { kind: "allow" }, "decision.kind: a rewrite can only replace, patch or pass, never \"allow\""],
    ["arguments that are not an object", { kind: "replace", arguments: ["a"] }, "decision.arguments: expected a JSON object"],
    ["a replace without arguments", { kind: "replace" }, "decision.arguments: required"],
    ["a merge patch that is not an object", { kind: "patch", mergePatch: "x" }, "decision.mergePatch: expected a JSON object"],
    ["a patch with a non-JSON value", { kind: "patch", mergePatch: { f: () => 1 } }, "decision.mergePatch.f"],
    ["an unknown field", { kind: "patch", mergePatch: {}, extra: 1 }, "decision.extra: unknown field"],
    ["an unknown kind", { kind: "rewrite" }, 'decision.kind: expected one of "replace", "patch", "pass"'],
  ])("%s is refused, naming the field", (_what, input, message) => {
    const checked = validateDecision("rewrite", input);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.error.message).toContain(message);
  });
});

describe("proto answers", () => {
  test.each([
    ["replace", { case: "replace", value: { argumentsJson: "[1]" } }, "decision.replace.arguments_json: expected a JSON object"],
    ["patch", { case: "patch", value: { mergePatchJson: "null" } }, "decision.patch.merge_patch_json: expected a JSON object"],
    ["patch", { case: "patch", value: { mergePatchJson: "{" } }, "decision.patch.merge_patch_json: not valid JSON"],
  ] as const)("a %s whose JSON is not an object is refused, naming the field", (_what, decision, message) => {
    const read = fromProtoDecision("rewrite", create(pb.RewriteDecisionSchema, { decision }));
    expect(read.ok).toBe(false);
    expect(!read.ok && read.error.message).toContain(message);
  });

  test("a deny has no wire form: only a failure policy stands for one", () => {
    expect(() => toProtoDecision("rewrite", deny("x"))).toThrow("a rewrite plugin can never deny");
  });
});

describe("applying an answer (the chain's step)", () => {
  const apply = POINT_TABLE.rewrite.apply;

  test("the first change keeps the agent's arguments as the original; each change names its plugin, in order", () => {
    const proposed = { session, call: callWith({ path: "a.txt", id: 9223372036854775807n }) };
    const first = apply(proposed, replace({ path: "/safe/a.txt", id: 9223372036854775807n }), "confine");
    const second = first && apply(first, patch({ tag: "x", id: null }), "tag");
    expect(second?.call).toMatchObject({
      callId: "c1",
      argumentsJson: '{"path":"/safe/a.txt","tag":"x"}',
      originalArgumentsJson: '{"path":"a.txt","id":9223372036854775807}',
      originalArguments: { path: "a.txt", id: 9223372036854775807n },
      rewrittenBy: ["confine", "tag"],
    });
  });

  test("an answer that leaves the arguments as they are changes nothing and names nobody", () => {
    const proposed = { session, call: callWith({ a: 1, b: 2 }) };
    expect(apply(proposed, patch({ a: 1 }), "noop")).toBeUndefined();
    expect(apply(proposed, replace({ a: 1, b: 2 }), "same")).toBeUndefined();
  });

  test("a merge patch on arguments that are not an object starts from an empty object", () => {
    const snapshot = snapshotJson("text");
    const proposed = { session, call: { ...callWith({}), arguments: snapshot.value, argumentsJson: snapshot.text } };
    expect(apply(proposed, patch({ a: 1 }), "p")?.call.argumentsJson).toBe('{"a":1}');
  });
});
