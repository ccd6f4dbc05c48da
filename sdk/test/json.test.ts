// json.ts: lossless parsing and canonical stringifying, deep freezing, snapshots that never share
// the caller's input, and refusal of what JSON cannot hold, with the path of the offending value.
import { stringify as losslessStringify } from "lossless-json";
import { describe, expect, test } from "vitest";
import {
  HookdError,
  LosslessNumber,
  canonicalJson,
  deepFreeze,
  isDeeplyFrozen,
  parseJson,
  parseJsonFast,
  snapshotJson,
  snapshotJsonText,
  toJsonText,
} from "../src/index.js";
import { freezeBuilt } from "../src/internal.js";

const BIG = "9223372036854775807"; // 2^63-1
const UNICODE = "héllo ☃ 𝄞";

describe("lossless parse and stringify", () => {
  test("an integer beyond 2^53 becomes a bigint and keeps every digit", () => {
    const value = parseJson(`{"max":${BIG},"min":-${BIG}1}`);
    expect(value).toEqual({ max: 9223372036854775807n, min: -92233720368547758071n });
    expect(toJsonText(value)).toBe(`{"max":${BIG},"min":-${BIG}1}`);
  });

  test("safe numbers stay numbers", () => {
    expect(parseJson("[0, -1, 1.5, 9007199254740991, 1e3]")).toEqual([0, -1, 1.5, 9007199254740991, 1000]);
  });

  test("a decimal a double cannot hold stays a LosslessNumber with its digits", () => {
    const digits = "3.14159265358979323846264338327950288";
    const value = parseJson(`[${digits}]`) as readonly unknown[];
    expect(value[0]).toBeInstanceOf(LosslessNumber);
    expect(String(value[0])).toBe(digits);
    expect(toJsonText(value)).toBe(`[${digits}]`);
  });

  test("unicode survives parse and stringify, escapes included", () => {
    expect(parseJson(`"${UNICODE}"`)).toBe(UNICODE);
    expect(parseJson(`"h\\u00e9llo \\u2603 \\ud834\\udd1e"`)).toBe(UNICODE);
    expect(toJsonText({ s: UNICODE })).toBe(`{"s":"${UNICODE}"}`);
    expect(parseJson(toJsonText({ [UNICODE]: UNICODE }))).toEqual({ [UNICODE]: UNICODE });
  });

  test("canonical text drops whitespace and keeps key order and digits", () => {
    expect(canonicalJson(`{ "b" : [ 1 , ${BIG} ], "a" : "${UNICODE}" }`)).toBe(`{"b":[1,${BIG}],"a":"${UNICODE}"}`);
  });

  test("text that is not JSON is an invalid_json HookdError naming the position", () => {
    expect(() => parseJson("{")).toThrow(new HookdError("invalid_json", "Quoted object key or end of object '}' expected but reached end of input at position 1"));
    expect(() => parseJson("")).toThrow(HookdError);
    expect(() => parseJson(`{"a":1,"a":2}`)).toThrow("Duplicate key 'a' encountered at position 8");
    expect(() => parseJson("NaN")).toThrow(HookdError);
  });
});

describe("toJsonText refuses what JSON cannot hold, naming the path", () => {
  class Point {
    x = 1;
  }
  const cyclic: Record<string, unknown> = { a: 1 };
  cyclic.self = { back: cyclic };
  const cyclicList: unknown[] = [];
  cyclicList.push(cyclicList);

  test.each([
    ["a cycle", cyclic, "value.self.back: circular reference"],
    ["an array cycle", cyclicList, "value[0]: circular reference"],
    ["undefined", { a: [1, { b: undefined }] }, "value.a[1].b: undefined is not JSON"],
    ["a top-level undefined", undefined, "value: undefined is not JSON"],
    // eslint-disable-next-line no-sparse-arrays
    ["a hole in a sparse array", [1, , 3], "value[1]: undefined is not JSON"],
    ["NaN", { n: NaN }, "value.n: NaN is not a JSON number"],
    ["Infinity", [-Infinity], "value[0]: -Infinity is not a JSON number"],
    ["a function", { f: () => 1 }, "value.f: function is not JSON"],
    ["a symbol", { s: Symbol("x") }, "value.s: symbol is not JSON"],
    ["a class instance", { p: new Point() }, "value.p: an instance of Point is not plain JSON data"],
    ["a Date", [new Date(0)], "value[0]: an instance of Date is not plain JSON data"],
    ["a Map", new Map(), "value: an instance of Map is not plain JSON data"],
  ])("%s", (_name, value, message) => {
    expect(() => toJsonText(value)).toThrow(new HookdError("invalid_json", message));
  });

  test("the caller names the root of the path", () => {
    expect(() => toJsonText({ n: NaN }, "decision.value")).toThrow("decision.value.n: NaN is not a JSON number");
  });

  test("a value shared twice is not a cycle", () => {
    const shared = { x: 1 };
    expect(toJsonText({ a: shared, b: [shared] })).toBe(`{"a":{"x":1},"b":[{"x":1}]}`);
  });

  test("null-prototype objects, bigint and LosslessNumber are JSON", () => {
    const bare = Object.assign(Object.create(null) as object, { a: 1 });
    expect(toJsonText({ bare, big: 12n, exact: new LosslessNumber("1.50") })).toBe(`{"bare":{"a":1},"big":12,"exact":1.50}`);
  });
});

describe("deepFreeze", () => {
  test("freezes every level and returns the same value", () => {
    const value = { a: [{ b: 1 }], c: { d: [2] } };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a[0])).toBe(true);
    expect(Object.isFrozen(value.c.d)).toBe(true);
    expect(() => {
      value.c.d.push(3);
    }).toThrow(TypeError);
  });

  test("reaches inside a container that was already frozen shallowly", () => {
    const inner = { b: 1 };
    deepFreeze(Object.freeze({ a: inner }));
    expect(Object.isFrozen(inner)).toBe(true);
  });

  test("terminates on cycles and leaves primitives alone", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(deepFreeze(cyclic)).toBe(cyclic);
    expect(Object.isFrozen(cyclic)).toBe(true);
    expect(deepFreeze(5)).toBe(5);
    expect(deepFreeze(null)).toBe(null);
  });
});

describe("freezeBuilt", () => {
  test("freezes a fresh value all the way down and returns it", () => {
    const value = { a: [{ b: 1 }], c: { d: [2] } };
    expect(freezeBuilt(value)).toBe(value);
    expect(isDeeplyFrozen(value)).toBe(true);
  });

  test("freezes fresh wrappers around parts frozen before, and ends on cycles", () => {
    const sealed = deepFreeze({ call: { args: [1] } });
    const wrapper = { sealed, extra: { n: 1 } };
    freezeBuilt(wrapper);
    expect(isDeeplyFrozen(wrapper)).toBe(true);
    const cyclic: Record<string, unknown> = { inner: {} };
    (cyclic.inner as Record<string, unknown>).back = cyclic;
    expect(freezeBuilt(cyclic)).toBe(cyclic);
    expect(isDeeplyFrozen(cyclic)).toBe(true);
  });

  test("trusts a part that is already frozen: values from outside go through deepFreeze", () => {
    const shallow = Object.freeze({ inner: { mutable: true } });
    freezeBuilt({ shallow });
    expect(Object.isFrozen(shallow.inner)).toBe(false);
    deepFreeze({ shallow });
    expect(Object.isFrozen(shallow.inner)).toBe(true);
  });
});

describe("snapshots never share the caller's input", () => {
  test("mutating the input after a snapshot changes nothing", () => {
    const input = { list: [1, { deep: "x" }], big: 9223372036854775807n, s: UNICODE };
    const snapshot = snapshotJson(input);
    input.list.push(2);
    (input.list[1] as { deep: string }).deep = "changed";
    input.s = "changed";
    expect(snapshot.value).toEqual({ list: [1, { deep: "x" }], big: 9223372036854775807n, s: UNICODE });
    expect(snapshot.text).toBe(`{"list":[1,{"deep":"x"}],"big":${BIG},"s":"${UNICODE}"}`);
    expect(snapshot.value).not.toBe(input);
    expect((snapshot.value as { list: unknown }).list).not.toBe(input.list);
  });

  test("the snapshot is deep-frozen, the input is not", () => {
    const input = { a: { b: [1] } };
    const snapshot = snapshotJson(input);
    expect(Object.isFrozen(snapshot)).toBe(true);
    expect(Object.isFrozen((snapshot.value as typeof input).a.b)).toBe(true);
    expect(Object.isFrozen(input.a)).toBe(false);
  });

  test("a snapshot of a value that is not JSON names the caller's path", () => {
    expect(() => snapshotJson({ a: undefined }, "result.value")).toThrow(new HookdError("invalid_json", "result.value.a: undefined is not JSON"));
  });

  test("a text snapshot is canonical and frozen", () => {
    const snapshot = snapshotJsonText(`[ ${BIG} , "${UNICODE}" ]`, "args");
    expect(snapshot.text).toBe(`[${BIG},"${UNICODE}"]`);
    expect(snapshot.value).toEqual([9223372036854775807n, UNICODE]);
    expect(Object.isFrozen(snapshot.value)).toBe(true);
  });

  test("a text snapshot of text that is not JSON names the path", () => {
    expect(() => snapshotJsonText("[1,", "call.arguments_json")).toThrow(
      new HookdError("invalid_json", "call.arguments_json: not valid JSON (Array item expected but reached end of input at position 3)"),
    );
  });
});

describe("the native fast paths give exactly what lossless-json gives", () => {
  // The reference: parseJson, which always parses with lossless-json.
  const reference = (text: string): unknown => parseJson(text);
  const typesOf = (value: unknown): unknown =>
    typeof value === "object" && value !== null && !(value instanceof LosslessNumber)
      ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, typesOf(item)]))
      : value instanceof LosslessNumber
        ? "LosslessNumber"
        : typeof value;

  test.each([
    [`{"command":"ls -la","n":3,"ok":true,"none":null,"list":[1,-2.5,"x"]}`],
    ["[9007199254740991]"],
    ["[9007199254740992]"],
    ["[-9007199254740993]"],
    ["[12345678901234567890]"],
    ["[1e+21]"],
    ["[1.5e-7]"],
    ["[123456789012345.6]"],
    ["[0.1,0.30000000000000004]"],
    [`{"s":"1e5 and 12345678901234567 in a string"}`],
    [`{"a":1,"a":1}`],
    [`{"__proto__":{"x":1}}`],
    [`{"a": 1}`],
    ["[1.0]"],
    [`"\u00e9"`],
    [`{"a":"x y","b":[1,2.5,{"c":null,"d":true}],"e":{},"f":[]}`],
    [`{"2":1,"1":2}`],
    [`{"a":1,"b":2,"a":1}`],
    [`{"a":{"a":1,"a":1}}`],
    [`["\\u0041","a\\"b","\\n","\\/"]`],
    [`["\ud800"]`],
    ["[0.0000001]"],
    ["[-0]"],
    ["[1,2 ]"],
    [`"a" `],
  ])("%s", (text) => {
    const snapshot = snapshotJsonText(text);
    const expected = reference(text);
    expect(snapshot.value).toEqual(expected);
    expect(typesOf(snapshot.value)).toEqual(typesOf(expected));
    expect(snapshot.text).toBe(losslessStringify(expected));
    expect(toJsonText(snapshot.value)).toBe(losslessStringify(expected));
    expect(isDeeplyFrozen(snapshot.value)).toBe(true);
  });

  test("text nested deeper than the stack allows is refused as not JSON, not thrown as a RangeError", () => {
    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    expect(() => snapshotJsonText(deep, "args")).toThrow(new HookdError("invalid_json", "args: not valid JSON (nested too deeply)"));
  });

  test("duplicate keys with different values are still refused", () => {
    expect(() => snapshotJsonText(`{"a":1,"a":2}`, "args")).toThrow("args: not valid JSON (Duplicate key 'a' encountered at position 8)");
  });

  test("toJsonText writes plain data natively and lossless values losslessly", () => {
    expect(toJsonText({ a: 1e21, b: -0, c: [0.1, "é"] })).toBe(losslessStringify({ a: 1e21, b: -0, c: [0.1, "é"] }));
    expect(toJsonText({ a: [{ big: 2n ** 64n }] })).toBe(`{"a":[{"big":18446744073709551616}]}`);
  });
});

describe("isDeeplyFrozen", () => {
  test("is true for what deepFreeze froze, and false for a frozen container holding a mutable value", () => {
    expect(isDeeplyFrozen(deepFreeze({ a: [1, { b: 2 }] }))).toBe(true);
    const shallow = Object.freeze({ inner: { mutable: true } });
    expect(isDeeplyFrozen(shallow)).toBe(false);
    // deepFreeze still walks into the shallowly frozen container and freezes what it holds.
    deepFreeze(shallow);
    expect(Object.isFrozen(shallow.inner)).toBe(true);
    expect(isDeeplyFrozen(shallow)).toBe(true);
    expect(isDeeplyFrozen(Object.freeze([Object.freeze({ x: 1 }), { y: 2 }]))).toBe(false);
  });
});

describe("parseJsonFast", () => {
  const texts = [
    JSON.stringify({ hook_event_name: "PreToolUse", tool_input: { command: "ls", n: 3, f: 0.5, deep: [1, { a: null }] } }),
    '{"a": 1, "b": [true, false]}', // not what JSON.stringify writes: the lossless parser reads it
    '{"big":9223372036854775807,"exp":1e400,"neg":-0.0}',
    '{"2":"a","1":"b"}', // integer-like keys, which JSON.parse reorders
    '"caf\\u00e9"', // an escape JSON.stringify would not write
    '{"__proto__":{"x":1}}', // an own key, never the prototype
  ];
  test.each(texts)("gives what parseJson gives: %s", (text) => {
    expect(toJsonText(parseJsonFast(text))).toBe(toJsonText(parseJson(text)));
    expect(parseJsonFast(text)).toEqual(parseJson(text));
  });

  test("refuses what parseJson refuses: duplicate keys, text that is not JSON", () => {
    expect(() => parseJsonFast('{"a":1,"a":2}')).toThrow(HookdError);
    expect(() => parseJsonFast("{")).toThrow(HookdError);
  });
});

