// Lossless JSON: the one way hookd turns JSON text into values and back.
// Integers beyond 2^53 become bigint and numbers a double cannot hold exactly stay LosslessNumber,
// so arguments and tool values survive every hop digit for digit. Owns parsing, canonical
// stringifying and deep freezing; knows nothing of tools or decisions.
import { LosslessNumber, isInteger, isSafeNumber, parse, stringify } from "lossless-json";
import { HookdError } from "./errors.js";

export { LosslessNumber };

export type JsonPrimitive = string | number | boolean | null | bigint | LosslessNumber;
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

/** What is thrown for text that is not JSON, or a value that JSON cannot hold losslessly. */
function jsonError(message: string): HookdError {
  return new HookdError("invalid_json", message);
}

function parseNumber(text: string): number | bigint | LosslessNumber {
  if (isSafeNumber(text)) return Number(text);
  if (isInteger(text)) return BigInt(text);
  return new LosslessNumber(text);
}

/** Parses JSON text losslessly. Throws an invalid_json HookdError naming the position of the problem. */
export function parseJson(text: string): JsonValue {
  try {
    return parse(text, null, parseNumber) as JsonValue;
  } catch (error) {
    // The parser recurses: nesting past the stack is refused like any text it cannot take.
    throw jsonError(error instanceof RangeError ? "nested too deeply" : error instanceof Error ? error.message : String(error));
  }
}

/**
 * Checks that a value is plain JSON data (no undefined, functions, symbols, cycles, NaN,
 * Infinity, class instances other than LosslessNumber) and returns its canonical text.
 * `path` names where the value came from, for the error message.
 */
export function toJsonText(value: unknown, path = "value"): string {
  // Without bigints and LosslessNumbers, the native stringify writes exactly what lossless-json
  // would (it defers to JSON.stringify for every other value), at a fraction of the cost.
  const text = assertJson(value, path, new Set()) ? stringify(value) : JSON.stringify(value);
  if (text === undefined) throw jsonError(`${path}: not serializable as JSON`);
  return text;
}

/** Throws for what is not plain JSON data; returns whether it holds a bigint or a LosslessNumber. */
function assertJson(value: unknown, path: string, seen: Set<object>): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return false;
    case "bigint":
      return true;
    case "number":
      if (!Number.isFinite(value)) throw jsonError(`${path}: ${value} is not a JSON number`);
      return false;
    case "object": {
      if (value === null) return false;
      if (value instanceof LosslessNumber) return true;
      if (seen.has(value)) throw jsonError(`${path}: circular reference`);
      seen.add(value);
      let lossless = false;
      if (Array.isArray(value)) {
        // An index loop, not forEach: a hole in a sparse array is undefined and must be refused.
        for (let index = 0; index < value.length; index++) lossless = assertJson(value[index], `${path}[${index}]`, seen) || lossless;
      } else {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw jsonError(`${path}: ${describe(value)} is not plain JSON data`);
        }
        for (const [key, item] of Object.entries(value)) lossless = assertJson(item, `${path}.${key}`, seen) || lossless;
      }
      seen.delete(value);
      return lossless;
    }
    default:
      throw jsonError(`${path}: ${typeof value} is not JSON`);
  }
}

function describe(value: object): string {
  const name = (value.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === "string" && name !== "" ? `an instance of ${name}` : "an object";
}

/** Canonical form of JSON text: parsed losslessly and stringified again. */
export function canonicalJson(text: string): string {
  return toJsonText(parseJson(text));
}

/**
 * Freezes a value and everything inside it, also inside containers someone froze only
 * shallowly; returns the same value. Ends on cycles. For values from outside hookd.
 */
export function deepFreeze<T>(value: T): T {
  freezeAll(value, new Set());
  return value;
}

function freezeAll(value: unknown, seen: Set<object>): void {
  if (typeof value !== "object" || value === null || seen.has(value)) return;
  seen.add(value);
  Object.freeze(value);
  for (const item of Object.values(value)) freezeAll(item, seen);
}

/**
 * Freezes what hookd has just built (converted, parsed, validated, assembled from such parts)
 * and returns it. Every part of such a value that is already frozen was frozen all the way down
 * when it was built, so it is skipped in O(1): a sealed call inside the events of every point is
 * not walked again. Freezing before descending ends cycles. Values from outside hookd, which may
 * be frozen only shallowly, go through deepFreeze instead.
 *
 * No set of frozen objects is kept: a WeakSet here held an entry per event part until the GC
 * cleared it, which cost the daemon CPU and p99 latency on every in-process evaluation
 * (bench/README.md).
 */
export function freezeBuilt<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) freezeBuilt(item);
  }
  return value;
}

/** True when the value and everything inside it are frozen. */
export function isDeeplyFrozen(value: unknown): boolean {
  return frozenWalk(value, new Set());
}

function frozenWalk(value: unknown, seen: Set<object>): boolean {
  if (typeof value !== "object" || value === null || seen.has(value)) return true;
  seen.add(value);
  return Object.isFrozen(value) && Object.values(value).every((item) => frozenWalk(item, seen));
}

/**
 * A sealed JSON snapshot: canonical text plus a deep-frozen value parsed from it, never shared
 * with the caller's input.
 */
export interface JsonSnapshot {
  readonly text: string;
  readonly value: JsonValue;
}

/** Snapshots a caller value: validated, copied through canonical text, frozen. */
export function snapshotJson(value: unknown, path = "value"): JsonSnapshot {
  const text = toJsonText(value, path);
  return Object.freeze({ text, value: freezeBuilt(parseCanonical(text) ?? parseJson(text)) });
}

/**
 * Snapshots a value hookd has itself just parsed from JSON text, which nothing else holds: it is
 * validated and frozen in place and its canonical text written once. snapshotJson's copy
 * through text would only parse again what was parsed a moment before.
 */
export function snapshotParsed(value: JsonValue, path = "value"): JsonSnapshot {
  const text = toJsonText(value, path);
  return Object.freeze({ text, value: freezeBuilt(value) });
}

/** Snapshots JSON text: parsed losslessly, stored canonically, frozen. */
export function snapshotJsonText(text: string, path = "value"): JsonSnapshot {
  const canonical = parseCanonical(text);
  if (canonical !== undefined) return Object.freeze({ text, value: freezeBuilt(canonical) });
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (error) {
    throw jsonError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  return Object.freeze({ text: toJsonText(value, path), value: deepFreeze(value) });
}

// Text that may hold a number the native parser would round or keep as a double where
// parseJson makes a bigint or LosslessNumber: 16 digits in a row (every integer past 2^53 has
// them) or an exponent (how JavaScript writes integral doubles from 1e21 up). Matches inside
// strings only cost the fast path.
const MAYBE_UNSAFE_NUMBER = /\d{16}|\d[eE]/;

/**
 * parseJson's value, through the native parser when the text is what JSON.stringify writes (an
 * agent in Node posts exactly that), else through the lossless one. The native path is several
 * times cheaper; the canonical check keeps every refusal of parseJson (duplicate keys, numbers
 * past 2^53) on the lossless path.
 */
export function parseJsonFast(text: string): JsonValue {
  return parseCanonical(text) ?? parseJson(text);
}

/**
 * JSON.parse, when that is provably what parseJson would give and the text is already canonical
 * (what hookd's own SDKs send); else undefined. Canonical means JSON.stringify gives the text
 * back, which also rules out duplicate keys (lossless-json refuses them, JSON.parse keeps the
 * last) and every number not written the way JavaScript writes it.
 */
function parseCanonical(text: string): JsonValue | undefined {
  if (MAYBE_UNSAFE_NUMBER.test(text) || text.includes("__proto__")) return undefined;
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
  try {
    return JSON.stringify(value) === text ? value : undefined;
  } catch {
    return undefined; // too deep to write back: the lossless parser gives the error
  }
}
