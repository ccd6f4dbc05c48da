// The rule for a tool call an agent reports, in a step reply or an evaluate event: it names its
// call and its tool, and its arguments are a JSON object. Owns the checks and their messages,
// which name the proto field; what a refusal does is the caller's.
import { HookdError, LosslessNumber, parseJson } from "@hookd/sdk";
import type { JsonValue } from "@hookd/sdk";
import type { pb } from "@hookd/sdk/internal";
import type { ProposedCall } from "../engine/loop/index.js";

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

/**
 * A step's calls as the contract states them. A call without a call_id or tool_name, or with a
 * call_id repeated in the reply, refuses the whole reply (reported, then thrown: the step fails as
 * for a malformed assistant message): results could not be told apart. Ids are not remembered
 * across steps: that would hold every id for the session's life. Arguments that are not a JSON
 * object fail that call alone (the pipeline seals it as failed), so the model sees its mistake
 * and the turn goes on.
 */
export function readStepToolCalls(calls: readonly pb.ProposedToolCall[], report: (problem: string) => void): ProposedCall[] {
  const ids = new Set<string>();
  for (const [index, call] of calls.entries()) {
    const path = `step_reply.tool_calls[${index}]`;
    const problem = identityProblem(call, path) ?? (ids.has(call.callId) ? `${path}.call_id: "${call.callId}" is repeated in this step reply` : undefined);
    if (problem !== undefined) {
      report(problem);
      throw new HookdError("invalid_argument", problem);
    }
    ids.add(call.callId);
  }
  return calls.map((call, index): ProposedCall => {
    const refused = argumentsProblem(call.argumentsJson);
    if (refused === undefined) return { callId: call.callId, toolName: call.toolName, argumentsJson: call.argumentsJson };
    report(`step_reply.tool_calls[${index}].arguments_json: ${refused}`);
    return { callId: call.callId, toolName: call.toolName, argumentsJson: call.argumentsJson, refusedArguments: `arguments: ${refused}` };
  });
}
