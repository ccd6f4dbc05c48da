// JSON Merge Patch (RFC 7386) over hookd's lossless JSON values: big integers and exact decimals
// are carried as they are, never through a double. Pure: returns a new value, never changes or
// freezes its inputs (the caller snapshots the result).
import { LosslessNumber } from "./json.js";
import type { JsonObject, JsonValue } from "./json.js";

/** A JSON object (not an array, not null, not a lossless number). */
export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);
}

/**
 * MergePatch(target, patch) of RFC 7386 section 2: an object patch merges member by member (a
 * `null` member removes the key, an object member merges recursively, anything else replaces);
 * any other patch replaces the target whole. Keys keep the target's order; new keys follow in
 * the patch's order.
 */
export function applyMergePatch(target: JsonValue | undefined, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return patch;
  // A Map, then Object.fromEntries: a "__proto__" key stays an own member, never a prototype.
  const merged = new Map<string, JsonValue>(isJsonObject(target) ? Object.entries(target) : []);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) merged.delete(key);
    else merged.set(key, applyMergePatch(merged.get(key), value));
  }
  return Object.fromEntries<JsonValue>(merged);
}
