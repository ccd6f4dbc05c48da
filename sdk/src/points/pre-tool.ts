// pre-tool: the waterfall gate before a tool runs. The call is sealed before any policy, so a
// plugin sees frozen arguments and answers allow, deny or ask; a deny skips execute and dispatch
// but its denial is still reviewed like any result; an ask continues only when approved once. Default: allow.
import { z } from "zod";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, WaterfallContext } from "../handler.js";
import { unknownCase, unknownVariant } from "../convert/result.js";
import * as pb from "../proto.js";
import { PASS_SCHEMA, kind, needsReason, readKind } from "../schema.js";
import type { DecisionTrace } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, OneofInit, PointSpec } from "./define.js";
import { PASS_ONEOF, POINT_BUDGET, decisionCodec, eventCodec, needDecision, protoFacts, readTrace, toProtoTrace } from "./define.js";
import type { DenyDecision } from "./deny.js";
import { DENY_SCHEMA, deny } from "./deny.js";
import type { ToolCallEvent } from "./tool-events.js";
import { callToolName, readCallEvent, toCallEvent } from "./tool-events.js";

export interface AllowDecision {
  readonly kind: "allow";
}
export interface AskDecision {
  readonly kind: "ask";
  readonly reason: string;
}
export type PreToolDecision = AllowDecision | DenyDecision | AskDecision;
export type PreToolEvent = ToolCallEvent;

const ALLOW: AllowDecision = Object.freeze({ kind: "allow" });
export const allow = (): AllowDecision => ALLOW;
export const ask = (reason: string): AskDecision => ({ kind: "ask", reason });

export interface EvaluatePreToolOptions extends EvaluateOptions {
  /** Return an `ask` (after the guards) instead of resolving it through a session's approval channel. */
  readonly agentResolvesAsk?: boolean;
}
export interface PreToolEvaluation {
  /** allow or deny; ask only with agentResolvesAsk. */
  readonly decision: PreToolDecision;
  readonly trace: DecisionTrace;
}

export interface PreToolTypes {
  readonly event: PreToolEvent;
  readonly decision: PreToolDecision;
  readonly answer: PreToolDecision | Pass;
  /** Waterfall before a tool runs: allow, deny or ask. */
  readonly handler: (event: PreToolEvent, ctx: WaterfallContext<PreToolDecision>) => Awaitable<PreToolDecision | Pass>;
  readonly protoEvent: pb.PreToolEvent;
  readonly protoDecision: pb.PreToolDecision;
}

const KINDS = {
  allow: z.strictObject({ kind: kind("allow") }),
  deny: DENY_SCHEMA,
  ask: z.strictObject({ kind: kind("ask"), reason: needsReason("an ask") }),
  pass: PASS_SCHEMA,
};

export const preToolPoint = {
  ...protoFacts("pre-tool"),
  matchKey: callToolName,
  budget: POINT_BUDGET,
  pluginMethod: "preTool",
  event: eventCodec<PreToolTypes, typeof pb.PreToolEventSchema>(pb.PreToolEventSchema, toCallEvent, readCallEvent),
  decision: decisionCodec<PreToolTypes>(
    pb.PreToolDecisionSchema,
    (d): OneofInit<pb.PreToolDecision> => {
      switch (d.kind) {
        case "pass": return PASS_ONEOF;
        case "allow": return { case: "allow", value: {} };
        case "deny": return { case: "deny", value: { reason: d.reason } };
        case "ask": return { case: "ask", value: { reason: d.reason } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "allow": return allow();
        case "deny": return deny(o.value.reason);
        case "ask": return ask(o.value.reason);
        default: return unknownCase(o, path);
      }
    },
    true,
  ),
  singletons: [pass(), ALLOW],
  readAnswer(input, path) {
    const data = readKind(KINDS, input, path);
    if (data.kind === "pass") return pass();
    if (data.kind === "allow") return allow();
    return data as DenyDecision | AskDecision;
  },
  fallback: () => allow(),
  failClosed: (reason) => deny(reason),
  notices: true,
} as const satisfies PointSpec<"pre-tool", PreToolTypes>;

export const preToolEvaluate: EvaluateSpec<PreToolEvent, EvaluatePreToolOptions, PreToolEvaluation, "evaluatePreTool"> = {
  method: "evaluatePreTool",
  requestFields: (options) => ({ agentResolvesAsk: options.agentResolvesAsk === true }),
  requestOptions: (request) => ({ agentResolvesAsk: (request as pb.EvaluatePreToolRequest).agentResolvesAsk }),
  readResponse(message) {
    const response = message as pb.EvaluatePreToolResponse;
    const decision = needDecision(response.decision, (d) => preToolPoint.decision.fromProto(d, "response.decision"));
    // A `pass` (which the daemon should never send) reads as the default, allow.
    return { decision: decision.kind === "pass" ? allow() : decision, trace: readTrace(response.trace, "response.trace") };
  },
  toResponse: (evaluation) => ({ decision: preToolPoint.decision.toProto(evaluation.decision), trace: toProtoTrace(evaluation.trace) }),
};
