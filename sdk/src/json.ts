// Lossless JSON: the one way hookd turns JSON text into values and back.
// Integers beyond 2^53 become bigint and numbers a double cannot hold exactly stay LosslessNumber,
// so arguments and tool values survive every hop digit for digit. Owns parsing, canonical
// stringifying and deep freezing; knows nothing of tools or decisions.
import { LosslessNumber, isInteger, isSafeNumber, parse, stringify } from "lossless-json";

export { LosslessNumber };

export type JsonPrimitive = string | number | boolean | null | bigint | LosslessNumber;
export type JsonValue = JsonPrimitive | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

/** Thrown for text that is not JSON, or a value that JSON cannot hold losslessly. */
export class JsonError extends Error {
  override readonly name = "JsonError";
}

function parseNumber(text: string): number | bigint | LosslessNumber {
  if (isSafeNumber(text)) return Number(text);
  if (isInteger(text)) return BigInt(text);
  return new LosslessNumber(text);
}

/** Parses JSON text losslessly. Throws JsonError naming the position of the problem. */
export function parseJson(text: string): JsonValue {
  try {
    return parse(text, null, parseNumber) as JsonValue;
  } catch (error) {
    throw new JsonError(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Checks that a value is plain JSON data (no undefined, functions, symbols, cycles, NaN,
 * Infinity, class instances other than LosslessNumber) and returns its canonical text.
 * `path` names where the value came from, for the error message.
 */
export function toJsonText(value: unknown, path = "value"): string {
  assertJson(value, path, new Set());
  const text = stringify(value);
  if (text === undefined) throw new JsonError(`${path}: not serializable as JSON`);
  return text;
}

function assertJson(value: unknown, path: string, seen: Set<object>): void {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "bigint":
      return;
    case "number":
      if (!Number.isFinite(value)) throw new JsonError(`${path}: ${value} is not a JSON number`);
      return;
    case "object": {
      if (value === null || value instanceof LosslessNumber) return;
      if (seen.has(value)) throw new JsonError(`${path}: circular reference`);
      seen.add(value);
      if (Array.isArray(value)) {
        // An index loop, not forEach: a hole in a sparse array is undefined and must be refused.
        for (let index = 0; index < value.length; index++) assertJson(value[index], `${path}[${index}]`, seen);
      } else {
        const proto: unknown = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw new JsonError(`${path}: ${describe(value)} is not plain JSON data`);
        }
        for (const [key, item] of Object.entries(value)) assertJson(item, `${path}.${key}`, seen);
      }
      seen.delete(value);
      return;
    }
    default:
      throw new JsonError(`${path}: ${typeof value} is not JSON`);
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

/** Freezes a JSON value and everything inside it; returns the same value. */
export function deepFreeze<T>(value: T): T {
  freezeAll(value);
  return value;
}

// Objects this module froze all the way down. A frozen object cannot gain mutable children, so
// such a subtree is never walked again: events wrapping a sealed call are frozen in O(1) per
// reused part. Marking before descending also ends cycles. A merely shallowly frozen container
// is not in the set and is still walked.
const deeplyFrozen = new WeakSet<object>();

/** True when the value and everything inside it are frozen; O(1) for what deepFreeze froze. */
export function isDeeplyFrozen(value: unknown): boolean {
  if (!frozenWalk(value, new Set())) return false;
  if (typeof value === "object" && value !== null) deeplyFrozen.add(value);
  return true;
}

function frozenWalk(value: unknown, seen: Set<object>): boolean {
  if (typeof value !== "object" || value === null || deeplyFrozen.has(value) || seen.has(value)) return true;
  seen.add(value);
  return Object.isFrozen(value) && Object.values(value).every((item) => frozenWalk(item, seen));
}

function freezeAll(value: unknown): void {
  if (typeof value !== "object" || value === null || deeplyFrozen.has(value)) return;
  deeplyFrozen.add(value);
  Object.freeze(value);
  for (const item of Object.values(value)) freezeAll(item);
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
  return Object.freeze({ text, value: deepFreeze(parseJson(text)) });
}

/** Snapshots JSON text: parsed losslessly, stored canonically, frozen. */
export function snapshotJsonText(text: string, path = "value"): JsonSnapshot {
  let value: JsonValue;
  try {
    value = parseJson(text);
  } catch (error) {
    throw new JsonError(`${path}: not valid JSON (${(error as Error).message})`);
  }
  return Object.freeze({ text: toJsonText(value, path), value: deepFreeze(value) });
}
