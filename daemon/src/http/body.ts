// Reading a hook request body: the JSON object an agent POSTs (or a command hook reads on stdin),
// parsed losslessly, with typed field readers whose every problem is a BadRequest naming the
// field. Owns field access only; which fields an event has lives in request.ts.
import type { JsonValue } from "@hookd/sdk";
import { LosslessNumber, parseJsonFast } from "@hookd/sdk";

/** A request hookd cannot read; `field` names what is wrong (for the 400 answer). */
export class BadRequest extends Error {
  override readonly name = "BadRequest";
  constructor(
    readonly field: string,
    detail: string,
  ) {
    super(`${field}: ${detail}`);
  }
}

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
    throw new BadRequest("(body)", `not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(parsed)) throw new BadRequest("(body)", "expected a JSON object");
  return parsed;
}

export function str(body: Body, field: string, options: { required: boolean; nonEmpty?: boolean }): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) {
    if (options.required) throw new BadRequest(field, "required");
    return undefined;
  }
  if (typeof value !== "string") throw new BadRequest(field, `expected a string, got ${Array.isArray(value) ? "an array" : typeof value}`);
  if (options.nonEmpty === true && value === "") throw new BadRequest(field, "must not be empty");
  return value;
}

export function bool(body: Body, field: string): boolean {
  const value = body[field];
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean") throw new BadRequest(field, "expected true or false");
  return value;
}
