// turn-stopping: an awaited notification at the natural stop of a turn, the last chance to steer
// another step. A plugin continues the SAME turn only by steering (explicitly sourced messages);
// steered continuations are capped per turn. Failures are contained. Default: close the turn.
import { z } from "zod";
import { unknownCase, unknownVariant } from "../convert/result.js";
import { readContributedMessages, readMessage, readSessionInfo, toProtoMessage, toProtoMessages, toProtoSessionInfo } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, HandlerContext } from "../handler.js";
import * as pb from "../proto.js";
import { PASS_SCHEMA, kind, messages, readKind } from "../schema.js";
import type { AgentMessage, DecisionTrace, SessionInfo } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, OneofInit, PointSpec } from "./define.js";
import { PASS_ONEOF, POINT_BUDGET, decisionCodec, eventCodec, needDecision, protoFacts, readTrace, toProtoTrace } from "./define.js";

export interface TurnStoppingEvent {
  readonly session: SessionInfo;
  readonly turn: number;
  readonly step: number;
  /** True when this stop follows a continuation that steering caused. */
  readonly stopHookActive: boolean;
  /** Steered continuations this turn already had. */
  readonly steeredContinuations: number;
  readonly lastAssistantMessage?: AgentMessage;
}

export interface SteerDecision {
  readonly kind: "steer";
  readonly messages: readonly AgentMessage[];
}
export type TurnStoppingDecision = SteerDecision;

export const steer = (batch: readonly AgentMessage[]): SteerDecision => ({ kind: "steer", messages: batch });

export interface TurnStoppingEvaluation {
  /** steer (every plugin's steering messages, in plugin order) or pass (close the turn). */
  readonly decision: TurnStoppingDecision | Pass;
  /** True when steering was refused because the turn reached its continuation cap. */
  readonly capped: boolean;
  readonly trace: DecisionTrace;
}

export interface TurnStoppingTypes {
  readonly event: TurnStoppingEvent;
  readonly decision: TurnStoppingDecision;
  readonly answer: TurnStoppingDecision | Pass;
  /** Awaited notification at the natural stop: steer to continue the turn. */
  readonly handler: (event: TurnStoppingEvent, ctx: HandlerContext) => Awaitable<TurnStoppingDecision | Pass | void>;
  readonly protoEvent: pb.TurnStoppingEvent;
  readonly protoDecision: pb.TurnStoppingDecision;
}

const KINDS = {
  steer: z.strictObject({ kind: kind("steer"), messages: messages.min(1, { error: "a steer needs at least one message" }) }),
  pass: PASS_SCHEMA,
};

export const turnStoppingPoint = {
  ...protoFacts("turn-stopping"),
  budget: POINT_BUDGET,
  pluginMethod: "turnStopping",
  event: eventCodec<TurnStoppingTypes, typeof pb.TurnStoppingEventSchema>(
    pb.TurnStoppingEventSchema,
    (event) => ({
      session: toProtoSessionInfo(event.session),
      turn: event.turn,
      step: event.step,
      stopHookActive: event.stopHookActive,
      steeredContinuations: event.steeredContinuations,
      ...(event.lastAssistantMessage === undefined ? {} : { lastAssistantMessage: toProtoMessage(event.lastAssistantMessage) }),
    }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      turn: message.turn,
      step: message.step,
      stopHookActive: message.stopHookActive,
      steeredContinuations: message.steeredContinuations,
      ...(message.lastAssistantMessage === undefined
        ? {}
        : { lastAssistantMessage: readMessage(message.lastAssistantMessage, `${path}.last_assistant_message`) }),
    }),
  ),
  decision: decisionCodec<TurnStoppingTypes>(
    pb.TurnStoppingDecisionSchema,
    (d): OneofInit<pb.TurnStoppingDecision> => {
      switch (d.kind) {
        case "pass": return PASS_ONEOF;
        case "steer": return { case: "steer", value: { messages: toProtoMessages(d.messages) } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "steer": return steer(readContributedMessages(o.value.messages, `${path}.steer.messages`));
        default: return unknownCase(o, path);
      }
    },
    true,
  ),
  singletons: [pass()],
  readAnswer(input, path) {
    // A notification may answer nothing at all.
    if (input === undefined) return pass();
    const data = readKind(KINDS, input, path);
    return data.kind === "pass" ? pass() : (data as SteerDecision);
  },
  fallback: () => undefined,
  failClosed: () => pass(),
  // Steering is always new input: even the last assistant message steered back is the plugin's.
  authorship: {
    given: () => [],
    contributed: (answer) => (answer.kind === "steer" ? answer.messages : []),
    replaced: (answer, batch) => (answer.kind === "steer" ? steer(batch) : answer),
  },
  notices: true,
} as const satisfies PointSpec<"turn-stopping", TurnStoppingTypes>;

export const turnStoppingEvaluate: EvaluateSpec<TurnStoppingEvent, EvaluateOptions, TurnStoppingEvaluation, "evaluateTurnStopping"> = {
  method: "evaluateTurnStopping",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse(message) {
    const response = message as pb.EvaluateTurnStoppingResponse;
    return {
      decision: needDecision(response.decision, (d) => turnStoppingPoint.decision.fromProto(d, "response.decision")),
      capped: response.capped,
      trace: readTrace(response.trace, "response.trace"),
    };
  },
  toResponse: (evaluation) => ({
    decision: turnStoppingPoint.decision.toProto(evaluation.decision),
    capped: evaluation.capped,
    trace: toProtoTrace(evaluation.trace),
  }),
};
