// The result type of every total conversion and validation, and the plumbing that reads a proto
// message into typed form: inner readers throw a field error naming the proto field path, and one
// boundary (`decode`) turns whatever was thrown into a HookdError result. Knows no message shapes.
import type { ErrorCode } from "../errors.js";
import { HookdError, atBoundary, fieldError, hasCode, isFieldError } from "../errors.js";
import type { JsonSnapshot } from "../json.js";
import { freezeBuilt, snapshotJsonText } from "../json.js";

/** The outcome of a conversion or validation that never throws. */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: HookdError };

/**
 * Runs a reader and returns its deep-frozen result, or the problem as a HookdError: JSON text
 * that does not parse is `invalid_json`, anything else `code`. Never throws, even for a hand-built
 * object that is not a well-formed message at all.
 */
export function decode<T>(code: ErrorCode, path: string, read: () => T): Result<T> {
  try {
    return { ok: true, value: freezeBuilt(read()) };
  } catch (error) {
    // Inner readers throw field errors (a path in proto field names) and invalid_json ones.
    if (isFieldError(error)) return { ok: false, error: atBoundary(error, code) };
    if (hasCode(error, "invalid_json")) return { ok: false, error: new HookdError("invalid_json", error.message, { cause: error }) };
    const detail = error instanceof Error ? error.message : String(error);
    return { ok: false, error: new HookdError(code, `${path}: not a well-formed message (${detail})`, { cause: error }) };
  }
}

/** Makes a public `fromProtoX(message, path?)` out of an inner reader. */
export function reader<M, T>(read: (message: M, path: string) => T, root: string, code: ErrorCode = "invalid_argument") {
  return (message: M, path: string = root): Result<T> => decode(code, path, () => read(message, path));
}

/** JSON text parsed losslessly: canonical text and a frozen value. Throws an invalid_json HookdError naming `path`. */
export function readJson(text: string, path: string): JsonSnapshot {
  return snapshotJsonText(text, path);
}

/** Throws for a oneof case this code does not know (a newer peer, or a hand-built object). */
export function unknownCase(oneof: never, path: string): never {
  const name = (oneof as { case?: unknown }).case;
  throw fieldError(path, `unknown case ${JSON.stringify(name) ?? String(name)}`);
}

/** Throws for a typed variant this code does not know; the typed form is trusted, so it is a caller bug. */
export function unknownVariant(value: never, what: string, code: ErrorCode = "invalid_argument"): never {
  throw new HookdError(code, `${what}: unknown variant ${JSON.stringify(value) ?? String(value)}`);
}

/** A two-way map between a proto enum and string names; 0 (UNSPECIFIED) has no name. */
export function enumMap<N extends string, E extends number>(names: Readonly<Record<N, E>>) {
  const byNumber = new Map<number, N>(Object.entries(names).map(([name, value]) => [value as number, name as N]));
  return {
    toProto: (name: N): E => {
      if (!Object.hasOwn(names, name)) throw new HookdError("invalid_argument", `unknown name ${JSON.stringify(name)}`);
      return names[name];
    },
    read: (value: E, path: string): N => {
      const name = byNumber.get(value);
      if (name !== undefined) return name;
      throw fieldError(path, value === 0 ? "unspecified" : `unknown value ${String(value)}`);
    },
  };
}
