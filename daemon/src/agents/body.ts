// Reading a hook request body: the JSON object an agent POSTs (or a command hook reads on stdin),
// parsed losslessly, with typed field readers whose every problem is a field error (HTTP 400)
// naming the field. Owns field access only; which fields an event has lives in request.ts.
import type { JsonValue } from "@hookd/sdk";
import { LosslessNumber, parseJsonFast } from "@hookd/sdk";
import { fieldError } from "@hookd/sdk/internal";

export type Body = { readonly [key: string]: JsonValue };

export function isObject(value: JsonValue | undefined): value is Body {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);
}

/** The body as a JSON object (numbers kept digit for digit). */
export function parseBody(text: string): Body {
  let parsed: JsonValue;
  try {
    parsed = parseJsonFast(text);
  } catch (error) {
    throw fieldError("(body)", `not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw fieldError("(body)", "expected a JSON object");
  return parsed;
}

export function str(body: Body, field: string, options: { required: boolean; nonEmpty?: boolean }): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (options.required) throw fieldError(field, "required");
    return undefined;
  }
  if (typeof value !== "string") throw fieldError(field, `expected a string, got ${Array.isArray(value) ? "an array" : typeof value}`);
  if (options.nonEmpty === true && value === "") throw fieldError(field, "must not be empty");
  return value;
}

export function bool(body: Body, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw fieldError(field, "expected true or false");
  return value;
}
