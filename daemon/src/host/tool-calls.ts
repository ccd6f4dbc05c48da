// The rule for a tool call an agent reports, in a step reply or an evaluate event: it names its
// call and its tool, and its arguments are a JSON object. Owns the checks and their messages,
// which name the proto field; what a refusal does is the caller's.
import { LosslessNumber, parseJson } from "@hookd/sdk";
import type { JsonValue } from "@hookd/sdk";

/** The first missing name of a call, as "<path>.<field>: required"; undefined when it has both. */
export function identityProblem(call: { readonly callId: string; readonly toolName: string }, path: string): string | undefined {
  if (call.callId === "") return `${path}.call_id: required`;
  if (call.toolName === "") return `${path}.tool_name: required`;
  return undefined;
}

/** Whether parsed arguments are a JSON object (a LosslessNumber is a number, not an object). */
export function isArgumentsObject(value: JsonValue): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);
}

/** What is wrong with arguments given as JSON text ("not valid JSON (...)", "expected a JSON object"), or undefined. */
export function argumentsProblem(argumentsJson: string): string | undefined {
  let value: JsonValue;
  try {
    value = parseJson(argumentsJson);
  } catch (error) {
    return `not valid JSON (${(error as Error).message})`;
  }
  return isArgumentsObject(value) ? undefined : "expected a JSON object";
}
