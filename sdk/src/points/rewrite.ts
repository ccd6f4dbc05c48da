// rewrite: the input rewrite before a call is sealed (the seed deferred it to its own proposal).
// A chain, not a first-decision waterfall: every plugin runs, in priority order, one at a time,
// each seeing the arguments as the previous one left them, so the result is the same whatever
// each plugin's speed. A plugin answers replace(arguments), patch(merge patch, RFC 7386) or pass;
// it can never allow or deny. The effective arguments must be a JSON object. Default: the
// arguments as the agent proposed them.
//
// A gate: a rewrite is often a safety transform (path confinement, redaction), so a failing
// rewrite plugin is fail-closed by default. Running the call with the arguments it would have
// fixed is exactly what it exists to prevent; its fail-closed answer denies the call, naming it.
import { z } from "zod";
import { readJson, unknownCase, unknownVariant } from "../convert/result.js";
import { readToolCall, toProtoToolCall } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, HandlerContext } from "../handler.js";
import type { JsonObject, JsonSnapshot } from "../json.js";
import { snapshotJson } from "../json.js";
import { isJsonObject, applyMergePatch } from "../merge-patch.js";
import * as pb from "../proto.js";
import { PASS_SCHEMA, kind, readKind } from "../schema.js";
import type { DecisionTrace, ToolCall } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, OneofInit, PointSpec } from "./define.js";
import { PASS_ONEOF, POINT_BUDGET, decisionCodec, eventCodec, protoFacts, readTrace, toProtoTrace } from "./define.js";
import type { DenyDecision } from "./deny.js";
import { deny } from "./deny.js";
import type { ToolCallEvent } from "./tool-events.js";
import { callToolName, readCallEvent, toCallEvent } from "./tool-events.js";
import { fieldError } from "../errors.js";

/** The proposed call, its arguments as the previous rewriting plugin left them. */
export type RewriteEvent = ToolCallEvent;

export interface ReplaceDecision {
  readonly kind: "replace";
  /** The new arguments, whole. */
  readonly arguments: JsonObject;
}
export interface PatchDecision {
  readonly kind: "patch";
  /** A JSON merge patch (RFC 7386): a `null` member removes the key, an object merges, anything else replaces. */
  readonly mergePatch: JsonObject;
}
export type RewriteDecision = ReplaceDecision | PatchDecision;

export const replace = (args: JsonObject): ReplaceDecision => ({ kind: "replace", arguments: args });
export const patch = (mergePatch: JsonObject): PatchDecision => ({ kind: "patch", mergePatch });

export type RewriteEvaluation = {
  /** The call with its effective arguments, or a denial: a fail-closed rewrite plugin failed and the call must not run. */
  readonly outcome: { readonly kind: "call"; readonly call: ToolCall } | DenyDecision;
  readonly trace: DecisionTrace;
};

export interface RewriteTypes {
  readonly event: RewriteEvent;
  /** A plugin's rewrite, or the denial a fail-closed failure stands for (never a plugin's own answer). */
  readonly decision: RewriteDecision | DenyDecision;
  readonly answer: RewriteDecision | DenyDecision | Pass;
  /** Chain before sealing: replace or patch the arguments, or pass. */
  readonly handler: (event: RewriteEvent, ctx: HandlerContext) => Awaitable<RewriteDecision | Pass>;
  readonly protoEvent: pb.RewriteEvent;
  readonly protoDecision: pb.RewriteDecision;
}

const KINDS = {
  replace: z.strictObject({ kind: kind("replace"), arguments: z.unknown() }),
  patch: z.strictObject({ kind: kind("patch"), mergePatch: z.unknown() }),
  pass: PASS_SCHEMA,
};

/** A JSON object, snapshotted; `what` says why anything else is refused. */
function objectSnapshot(value: unknown, path: string, what: string): JsonSnapshot {
  if (value === undefined) throw fieldError(path, "required");
  const snapshot = snapshotJson(value, path);
  if (!isJsonObject(snapshot.value)) throw fieldError(path, `expected a JSON object: ${what}`);
  return snapshot;
}
const REPLACE_OBJECT = "the arguments of a call are an object";
const PATCH_OBJECT = "any other merge patch would replace the arguments with a non-object";

function jsonObjectText(text: string, path: string, what: string): JsonObject {
  const { value } = readJson(text, path);
  if (!isJsonObject(value)) throw fieldError(path, `expected a JSON object: ${what}`);
  return value;
}

/**
 * The call the next plugin sees after `decision`, or undefined when the arguments did not change.
 * The first change keeps the agent's arguments as the original; every change names its plugin.
 */
function applyRewrite(event: RewriteEvent, decision: RewriteDecision | DenyDecision, plugin: string): RewriteEvent | undefined {
  let next: JsonSnapshot;
  switch (decision.kind) {
    case "replace":
      next = snapshotJson(decision.arguments, "arguments");
      break;
    case "patch":
      next = snapshotJson(applyMergePatch(event.call.arguments, decision.mergePatch), "arguments");
      break;
    case "deny":
      return undefined; // a failure policy's answer ends the chain before anything is applied
    default:
      return unknownVariant(decision, "rewrite decision", "invalid_decision");
  }
  const { call } = event;
  if (next.text === call.argumentsJson) return undefined;
  const rewritten: ToolCall = {
    ...call,
    arguments: next.value,
    argumentsJson: next.text,
    originalArguments: call.originalArguments ?? call.arguments,
    originalArgumentsJson: call.originalArgumentsJson ?? call.argumentsJson,
    rewrittenBy: [...(call.rewrittenBy ?? []), plugin],
  };
  return { session: event.session, call: rewritten };
}

export const rewritePoint = {
  ...protoFacts("rewrite"),
  matchKey: callToolName,
  budget: POINT_BUDGET,
  pluginMethod: "rewrite",
  event: eventCodec<RewriteTypes, typeof pb.RewriteEventSchema>(pb.RewriteEventSchema, toCallEvent, readCallEvent),
  decision: decisionCodec<RewriteTypes>(
    pb.RewriteDecisionSchema,
    (d): OneofInit<pb.RewriteDecision> => {
      switch (d.kind) {
        case "pass": return PASS_ONEOF;
        case "replace": return { case: "replace", value: { argumentsJson: snapshotJson(d.arguments, "decision.arguments").text } };
        case "patch": return { case: "patch", value: { mergePatchJson: snapshotJson(d.mergePatch, "decision.mergePatch").text } };
        // Only a failure policy stands for a deny; the wire has no way to say it.
        case "deny": throw fieldError("decision.kind", "a rewrite plugin can never deny");
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "replace": return replace(jsonObjectText(o.value.argumentsJson, `${path}.replace.arguments_json`, REPLACE_OBJECT));
        case "patch": return patch(jsonObjectText(o.value.mergePatchJson, `${path}.patch.merge_patch_json`, PATCH_OBJECT));
        default: return unknownCase(o, path);
      }
    },
  ),
  singletons: [pass()],
  readAnswer(input, path) {
    const kindOf = typeof input === "object" && input !== null ? (input as { kind?: unknown }).kind : undefined;
    if (kindOf === "allow" || kindOf === "deny" || kindOf === "ask") {
      throw fieldError(`${path}.kind`, `a rewrite can only replace, patch or pass, never ${JSON.stringify(kindOf)}`);
    }
    const data = readKind(KINDS, input, path) as z.output<(typeof KINDS)[keyof typeof KINDS]>;
    switch (data.kind) {
      case "pass": return pass();
      case "replace": return replace(objectSnapshot(data.arguments, `${path}.arguments`, REPLACE_OBJECT).value as JsonObject);
      case "patch": return patch(objectSnapshot(data.mergePatch, `${path}.mergePatch`, PATCH_OBJECT).value as JsonObject);
    }
  },
  // A chain has no deciding plugin: when everyone passes, the arguments stay as they are.
  fallback: () => undefined,
  // The reason already names the plugin, the point and the failure (engine/decisions.ts).
  failClosed: (reason) => deny(reason),
  apply: applyRewrite,
} as const satisfies PointSpec<"rewrite", RewriteTypes>;

function readOutcome(response: pb.EvaluateRewriteResponse): RewriteEvaluation["outcome"] {
  const outcome = response.outcome;
  switch (outcome.case) {
    case "call": return { kind: "call", call: readToolCall(outcome.value, "response.call") };
    case "deny": return deny(outcome.value.reason);
    case undefined: throw fieldError("response.outcome", "missing");
    default: return unknownCase(outcome, "response.outcome");
  }
}

export const rewriteEvaluate: EvaluateSpec<RewriteEvent, EvaluateOptions, RewriteEvaluation, "evaluateRewrite"> = {
  method: "evaluateRewrite",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse: (message) => {
    const response = message as pb.EvaluateRewriteResponse;
    return { outcome: readOutcome(response), trace: readTrace(response.trace, "response.trace") };
  },
  toResponse: ({ outcome, trace }) => ({
    outcome: outcome.kind === "call" ? { case: "call", value: toProtoToolCall(outcome.call) } : { case: "deny", value: { reason: outcome.reason } },
    trace: toProtoTrace(trace),
  }),
};
