// session-start: a notification once before turn 1 (startup, resume, ...). A plugin may inject
// context messages; it cannot block the session's start, and its failures are contained.
import { z } from "zod";
import { unknownCase, unknownVariant } from "../convert/result.js";
import {
  readContributedMessages,
  readMessages,
  readSessionInfo,
  readSessionSource,
  readToolDefinition,
  toProtoMessages,
  toProtoSessionInfo,
  toProtoSessionSource,
  toProtoToolDefinition,
} from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, HandlerContext } from "../handler.js";
import * as pb from "../proto.js";
import { PASS_SCHEMA, kind, messages, readKind } from "../schema.js";
import type { AgentMessage, SessionInfo, SessionSource, ToolDefinitionInfo } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, OneofInit, PointSpec } from "./define.js";
import { PASS_ONEOF, POINT_BUDGET, decisionCodec, eventCodec, protoFacts } from "./define.js";
import { noticeFromProto, noticeToProto } from "../notice.js";
import type { UserNotice } from "../notice.js";

export interface SessionStartEvent {
  readonly session: SessionInfo;
  readonly source: SessionSource;
  readonly tools: readonly ToolDefinitionInfo[];
}

export interface InjectDecision {
  readonly kind: "inject";
  readonly messages: readonly AgentMessage[];
}
export type SessionStartDecision = InjectDecision;

export const inject = (batch: readonly AgentMessage[]): InjectDecision => ({ kind: "inject", messages: batch });

/** `userMessage` and `stopAgent`: what the plugins said to the agent's user, merged in plugin order. */
export interface SessionStartEvaluation extends UserNotice {
  /** The context messages every plugin injected, in plugin order. */
  readonly contexts: readonly AgentMessage[];
}

export interface SessionStartTypes {
  readonly event: SessionStartEvent;
  readonly decision: SessionStartDecision;
  readonly answer: SessionStartDecision | Pass;
  /** Notification before turn 1: may inject context, cannot block. */
  readonly handler: (event: SessionStartEvent, ctx: HandlerContext) => Awaitable<SessionStartDecision | Pass | void>;
  readonly protoEvent: pb.SessionStartEvent;
  readonly protoDecision: pb.SessionStartDecision;
}

const KINDS = { inject: z.strictObject({ kind: kind("inject"), messages }), pass: PASS_SCHEMA };

export const sessionStartPoint = {
  ...protoFacts("session-start"),
  budget: POINT_BUDGET,
  pluginMethod: "sessionStart",
  event: eventCodec<SessionStartTypes, typeof pb.SessionStartEventSchema>(
    pb.SessionStartEventSchema,
    (event) => ({
      session: toProtoSessionInfo(event.session),
      source: toProtoSessionSource(event.source),
      tools: event.tools.map(toProtoToolDefinition),
    }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      source: readSessionSource(message.source, `${path}.source`),
      tools: message.tools.map((tool, index) => readToolDefinition(tool, `${path}.tools[${index}]`)),
    }),
  ),
  decision: decisionCodec<SessionStartTypes>(
    pb.SessionStartDecisionSchema,
    (d): OneofInit<pb.SessionStartDecision> => {
      switch (d.kind) {
        case "pass": return PASS_ONEOF;
        case "inject": return { case: "inject", value: { messages: toProtoMessages(d.messages) } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "inject": return inject(readContributedMessages(o.value.messages, `${path}.inject.messages`));
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
    return data.kind === "pass" ? pass() : (data as InjectDecision);
  },
  fallback: () => undefined,
  failClosed: () => pass(),
  // The event carries no messages: every injected one is the plugin's.
  authorship: {
    given: () => [],
    contributed: (answer) => (answer.kind === "inject" ? answer.messages : []),
    replaced: (answer, batch) => (answer.kind === "inject" ? inject(batch) : answer),
  },
  notices: true,
} as const satisfies PointSpec<"session-start", SessionStartTypes>;

export const sessionStartEvaluate: EvaluateSpec<SessionStartEvent, EvaluateOptions, SessionStartEvaluation, "evaluateSessionStart"> = {
  method: "evaluateSessionStart",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse: (message) => {
    const response = message as pb.EvaluateSessionStartResponse;
    return { contexts: readMessages(response.contexts, "response.contexts"), ...noticeFromProto(response, "response") };
  },
  toResponse: (evaluation) => ({ contexts: toProtoMessages(evaluation.contexts), ...noticeToProto(evaluation) }),
};
