// JSON Merge Patch: every example of RFC 7386 appendix A, on lossless values, and the inputs it
// must leave alone.
import { describe, expect, test } from "vitest";
import { LosslessNumber, parseJson, toJsonText } from "../src/json.js";
import type { JsonValue } from "../src/json.js";
import { applyMergePatch } from "../src/merge-patch.js";

const merge = (target: string, patch: string): string => toJsonText(applyMergePatch(parseJson(target), parseJson(patch)));

describe("RFC 7386 appendix A", () => {
  test.each([
    ['{"a":"b"}', '{"a":"c"}', '{"a":"c"}'],
    ['{"a":"b"}', '{"b":"c"}', '{"a":"b","b":"c"}'],
    ['{"a":"b"}', '{"a":null}', "{}"],
    ['{"a":"b","b":"c"}', '{"a":null}', '{"b":"c"}'],
    ['{"a":["b"]}', '{"a":"c"}', '{"a":"c"}'],
    ['{"a":"c"}', '{"a":["b"]}', '{"a":["b"]}'],
    ['{"a":{"b":"c"}}', '{"a":{"b":"d","c":null}}', '{"a":{"b":"d"}}'],
    ['{"a":[{"b":"c"}]}', '{"a":[1]}', '{"a":[1]}'],
    ['["a","b"]', '["c","d"]', '["c","d"]'],
    ['{"a":"b"}', '["c"]', '["c"]'],
    ['{"a":"foo"}', "null", "null"],
    ['{"a":"foo"}', '"bar"', '"bar"'],
    ['{"e":null}', '{"a":1}', '{"e":null,"a":1}'],
    ['[1,2]', '{"a":"b","c":null}', '{"a":"b"}'],
    ["{}", '{"a":{"bb":{"ccc":null}}}', '{"a":{"bb":{}}}'],
  ])("%s patched with %s is %s", (target, patch, result) => {
    expect(merge(target, patch)).toBe(result);
  });
});

describe("on hookd's values", () => {
  test("big integers and exact decimals keep every digit, in the target and in the patch", () => {
    expect(merge('{"id":9223372036854775807,"keep":1}', '{"x":0.1000000000000000055511151231257827,"n":-9223372036854775808}')).toBe(
      '{"id":9223372036854775807,"keep":1,"x":0.1000000000000000055511151231257827,"n":-9223372036854775808}',
    );
    const patched = applyMergePatch({ a: 1 }, { big: 2n ** 64n, exact: new LosslessNumber("1e400") }) as Record<string, JsonValue>;
    expect(patched.big).toBe(18446744073709551616n);
    expect(patched.exact).toBeInstanceOf(LosslessNumber);
  });

  test("a lossless number in the patch replaces; it is not merged as an object", () => {
    expect(merge('{"n":{"a":1}}', '{"n":12345678901234567890}')).toBe('{"n":12345678901234567890}');
  });

  test("leaves its inputs unchanged, frozen or not", () => {
    const target = Object.freeze({ a: Object.freeze({ b: 1, c: 2 }) });
    const patch = Object.freeze({ a: Object.freeze({ c: null, d: 3 }) });
    expect(applyMergePatch(target, patch)).toEqual({ a: { b: 1, d: 3 } });
    expect(target).toEqual({ a: { b: 1, c: 2 } });
    expect(patch).toEqual({ a: { c: null, d: 3 } });
  });

  test("a __proto__ member is an ordinary key, never the result's prototype", () => {
    const patched = applyMergePatch({}, parseJson('{"__proto__":{"polluted":true}}')) as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(patched)).toBe(Object.prototype);
    expect(Object.keys(patched)).toEqual(["__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
