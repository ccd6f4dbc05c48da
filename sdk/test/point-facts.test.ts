// The point table against the proto's (hookd.v1.point) options: the facts it takes from them are
// the ones the embedded descriptors carry, and the TypeScript-only parts (matchKey, the decision
// codec) agree with what the proto declares about matchers and answers.
import { getOption } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { POINT_TABLE, POINTS } from "../src/index.js";
import type { PointSpec } from "../src/index.js";
import * as pb from "../src/proto.js";

/** Every Point value's option, read from the descriptors the generated code embeds. */
const DECLARED = pb.PointSchema.values
  .filter((value) => value.localName !== "UNSPECIFIED")
  .map((value) => ({ value: value.number, facts: getOption(value, pb.point) }));

const modeName = (mode: pb.PointMode): string => pb.PointMode[mode].toLowerCase();

describe("the point table reads the proto's point facts", () => {
  it("has one spec per Point value, each named as the value's option names it", () => {
    expect(DECLARED.every(({ facts }) => facts.name !== "")).toBe(true);
    expect([...POINTS].sort()).toEqual(DECLARED.map(({ facts }) => facts.name).sort());
  });

  it.each(DECLARED.map(({ value, facts }) => [facts.name, value, facts] as const))("%s: proto value, mode, gate and tool scope", (name, value, facts) => {
    const spec = (POINT_TABLE as Readonly<Record<string, PointSpec>>)[name];
    expect({ proto: spec?.proto, mode: spec?.mode, gate: spec?.gate, toolScoped: spec?.toolScoped }).toEqual({
      proto: value,
      mode: modeName(facts.mode),
      gate: facts.gate,
      toolScoped: facts.match === pb.PointMatch.TOOL_NAME,
    });
  });

  it.each(DECLARED.map(({ facts }) => [facts.name, facts] as const))("%s: matchers and answers agree with the proto", (name, facts) => {
    const spec = (POINT_TABLE as Readonly<Record<string, PointSpec>>)[name];
    expect(facts.match).not.toBe(pb.PointMatch.UNSPECIFIED);
    expect(spec?.matchKey !== undefined).toBe(facts.match !== pb.PointMatch.NONE);
    // The answers are the decision oneof's cases besides pass; an observer has no decision message.
    const cases = spec?.decision?.schema.oneofs.find((oneof) => oneof.name === "decision")?.fields.map((field) => field.name) ?? [];
    expect(cases.filter((kind) => kind !== "pass")).toEqual(facts.answers);
  });
});
