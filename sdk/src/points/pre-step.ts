// pre-step: the waterfall before every proposed step, after the loop has claimed its inbox batch
// (an empty batch for a tool continuation). `enter` returns the complete batch, so a plugin may add
// context or rewrite the prompt; `reject` opens no step and the claimed messages stay removed.
// Default: enter with the claimed batch.
import { z } from "zod";
import { unknownCase, unknownVariant } from "../convert/result.js";
import { readContributedMessages, readMessages, readSessionInfo, toProtoMessages, toProtoSessionInfo } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, WaterfallContext } from "../handler.js";
import * as pb from "../proto.js";
import { PASS_SCHEMA, kind, messages, needsReason, readKind } from "../schema.js";
import type { AgentMessage, DecisionTrace, SessionInfo } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, OneofInit, PointSpec } from "./define.js";
import { PASS_ONEOF, POINT_BUDGET, decisionCodec, eventCodec, needDecision, protoFacts, readTrace, toProtoTrace } from "./define.js";

export interface PreStepEvent {
  readonly session: SessionInfo;
  readonly turn: number;
  readonly step: number;
  /** The complete claimed batch; empty for a tool continuation with no new input. */
  readonly messages: readonly AgentMessage[];
}

export interface EnterDecision {
  readonly kind: "enter";
  /** The complete batch for the step. */
  readonly messages: readonly AgentMessage[];
}
export interface RejectDecision {
  readonly kind: "reject";
  readonly reason: string;
}
export type PreStepDecision = EnterDecision | RejectDecision;

export const enter = (batch: readonly AgentMessage[]): EnterDecision => ({ kind: "enter", messages: batch });
export const reject = (reason: string): RejectDecision => ({ kind: "reject", reason });

export interface PreStepEvaluation {
  readonly decision: PreStepDecision;
  readonly trace: DecisionTrace;
}

export interface PreStepTypes {
  readonly event: PreStepEvent;
  readonly decision: PreStepDecision;
  readonly answer: PreStepDecision | Pass;
  /** Waterfall before every proposed step: enter the complete batch, or reject. */
  readonly handler: (event: PreStepEvent, ctx: WaterfallContext<PreStepDecision>) => Awaitable<PreStepDecision | Pass>;
  readonly protoEvent: pb.PreStepEvent;
  readonly protoDecision: pb.PreStepDecision;
}

const KINDS = {
  enter: z.strictObject({ kind: kind("enter"), messages }),
  reject: z.strictObject({ kind: kind("reject"), reason: needsReason("a reject") }),
  pass: PASS_SCHEMA,
};

export const preStepPoint = {
  ...protoFacts("pre-step"),
  budget: POINT_BUDGET,
  pluginMethod: "preStep",
  event: eventCodec<PreStepTypes, typeof pb.PreStepEventSchema>(
    pb.PreStepEventSchema,
    (event) => ({ session: toProtoSessionInfo(event.session), turn: event.turn, step: event.step, messages: toProtoMessages(event.messages) }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      turn: message.turn,
      step: message.step,
      messages: readMessages(message.messages, `${path}.messages`),
    }),
  ),
  decision: decisionCodec<PreStepTypes>(
    pb.PreStepDecisionSchema,
    (d): OneofInit<pb.PreStepDecision> => {
      switch (d.kind) {
        case "pass": return PASS_ONEOF;
        case "enter": return { case: "enter", value: { messages: toProtoMessages(d.messages) } };
        case "reject": return { case: "reject", value: { reason: d.reason } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "enter": return enter(readContributedMessages(o.value.messages, `${path}.enter.messages`));
        case "reject": return reject(o.value.reason);
        default: return unknownCase(o, path);
      }
    },
    true,
  ),
  singletons: [pass()],
  readAnswer(input, path) {
    const data = readKind(KINDS, input, path);
    return data.kind === "pass" ? pass() : (data as PreStepDecision);
  },
  fallback: (event) => enter(event.messages),
  failClosed: (reason) => reject(reason),
  // A claimed message entered unchanged keeps its source; an added or changed one is the plugin's.
  authorship: {
    given: (event) => event.messages,
    contributed: (answer) => (answer.kind === "enter" ? answer.messages : []),
    replaced: (answer, batch) => (answer.kind === "enter" ? enter(batch) : answer),
  },
  notices: true,
} as const satisfies PointSpec<"pre-step", PreStepTypes>;

export const preStepEvaluate: EvaluateSpec<PreStepEvent, EvaluateOptions, PreStepEvaluation, "evaluatePreStep"> = {
  method: "evaluatePreStep",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse(message, event) {
    const response = message as pb.EvaluatePreStepResponse;
    const decision = needDecision(response.decision, (d) => preStepPoint.decision.fromProto(d, "response.decision"));
    // A `pass` (which the daemon should never send) reads as the default: enter the claimed batch.
    return { decision: decision.kind === "pass" ? enter(event.messages) : decision, trace: readTrace(response.trace, "response.trace") };
  },
  toResponse: (evaluation) => ({ decision: preStepPoint.decision.toProto(evaluation.decision), trace: toProtoTrace(evaluation.trace) }),
};
