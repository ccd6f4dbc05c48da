// Sealing: before any policy runs, a proposed call becomes a frozen ToolCall whose identity and
// arguments never change, and the visible tool definition is snapshotted beside it. Caller input
// is copied through canonical JSON text, never frozen or shared; only a value the boundary has
// itself just parsed, which nobody else holds, is frozen in place (argumentsParsedHere). Owns
// identity; runs no policy.
import { randomUUID } from "node:crypto";
import { snapshotJson, snapshotJsonText } from "@hookd/sdk";
import type { JsonSnapshot, JsonValue, ToolCall, ToolFailure } from "@hookd/sdk";
import { snapshotParsed } from "@hookd/sdk/internal";
import { pipelineFailure } from "./normalize.js";
import type { ToolLookup, ToolSpec } from "./spec.js";
import type { ProposedCall } from "../calls.js";

export type { ProposedCall };


/** Where the call runs. A nested call names only its parent; the root is taken from it. */
export interface CallScope {
  readonly sessionId: string;
  readonly turn: number;
  readonly step: number;
  readonly parent?: ToolCall;
}

export type SealedCall =
  | { readonly ok: true; readonly call: ToolCall; readonly spec: ToolSpec | undefined }
  /** The arguments could not be held as JSON: the call skips every policy phase with this failure. */
  | { readonly ok: false; readonly call: ToolCall; readonly spec: ToolSpec | undefined; readonly failure: ToolFailure };

/** Arguments recorded for a call whose own arguments could not be sealed: they are never shared. */
const UNSEALABLE: JsonSnapshot = Object.freeze({ text: "null", value: null });

export function sealCall(proposed: ProposedCall, scope: CallScope, lookup: ToolLookup): SealedCall {
  const callId = proposed.callId === undefined || proposed.callId === "" ? randomUUID() : proposed.callId;
  const found = lookup(proposed.toolName);
  // A snapshot of the definition: replacing the tool later does not change what this call runs.
  const spec = found === undefined ? undefined : Object.freeze({ ...found });
  let snapshot: JsonSnapshot;
  let failure: ToolFailure | undefined;
  try {
    snapshot = snapshotArguments(proposed);
  } catch (error) {
    snapshot = UNSEALABLE;
    failure = pipelineFailure("invalid_arguments", `invalid arguments for ${proposed.toolName}: ${(error as Error).message}`);
  }
  const call: ToolCall = Object.freeze({
    callId,
    rootCallId: scope.parent?.rootCallId ?? callId,
    ...(scope.parent === undefined ? {} : { parentCallId: scope.parent.callId }),
    toolName: proposed.toolName,
    arguments: snapshot.value,
    argumentsJson: snapshot.text,
    sessionId: scope.sessionId,
    turn: scope.turn,
    step: scope.step,
  });
  return failure === undefined ? { ok: true, call, spec } : { ok: false, call, spec, failure };
}

function snapshotArguments(proposed: ProposedCall): JsonSnapshot {
  if (proposed.refusedArguments !== undefined) throw new Error(proposed.refusedArguments);
  const hasValue = Object.hasOwn(proposed, "arguments");
  if (proposed.argumentsJson !== undefined) {
    if (hasValue) throw new Error("give arguments or argumentsJson, not both");
    if (typeof proposed.argumentsJson !== "string") throw new Error("argumentsJson: expected JSON text");
    return snapshotJsonText(proposed.argumentsJson, "arguments");
  }
  return proposed.argumentsParsedHere === true ? snapshotParsed(proposed.arguments as JsonValue, "arguments") : snapshotJson(proposed.arguments, "arguments");
}
