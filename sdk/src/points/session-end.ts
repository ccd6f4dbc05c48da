// session-end: an awaited notification once a session ends, with why (closed, cleared,
// disconnected and not resumed in time, expired, daemon stopping). Observers answer nothing and
// their failures are contained; the daemon bounds the whole point by its session-end budget, so
// a slow plugin cannot hold a daemon stop.
import { readSessionEndReason, readSessionInfo, toProtoSessionEndReason, toProtoSessionInfo } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, HandlerContext } from "../handler.js";
import * as pb from "../proto.js";
import type { SessionEndReason, SessionInfo } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, PointSpec } from "./define.js";
import { SESSION_END_BUDGET, eventCodec, protoFacts } from "./define.js";

export interface SessionEndEvent {
  readonly session: SessionInfo;
  readonly reason: SessionEndReason;
  /** A human-readable explanation, e.g. the agent's close note or the daemon's stop. */
  readonly detail: string;
  /** How many turns the session ran. */
  readonly turns: number;
}

export interface SessionEndTypes {
  readonly event: SessionEndEvent;
  readonly decision: never;
  readonly answer: Pass;
  /** Awaited notification when the session ends; cannot change anything, failures are contained. */
  readonly handler: (event: SessionEndEvent, ctx: HandlerContext) => Awaitable<void>;
  readonly protoEvent: pb.SessionEndEvent;
  readonly protoDecision: never;
}

export const sessionEndPoint = {
  ...protoFacts("session-end"),
  budget: SESSION_END_BUDGET,
  endsSession: true,
  pluginMethod: "sessionEnd",
  event: eventCodec<SessionEndTypes, typeof pb.SessionEndEventSchema>(
    pb.SessionEndEventSchema,
    (event) => ({ session: toProtoSessionInfo(event.session), reason: toProtoSessionEndReason(event.reason), detail: event.detail, turns: event.turns }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      reason: readSessionEndReason(message.reason, `${path}.reason`),
      detail: message.detail,
      turns: message.turns,
    }),
  ),
  decision: undefined,
  singletons: [pass()],
  // Whatever an observer returns is ignored.
  readAnswer: () => pass(),
  fallback: () => undefined,
  failClosed: () => pass(),
} as const satisfies PointSpec<"session-end", SessionEndTypes>;

export const sessionEndEvaluate: EvaluateSpec<SessionEndEvent, EvaluateOptions, void, "evaluateSessionEnd"> = {
  method: "evaluateSessionEnd",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse: () => undefined,
  toResponse: () => ({}),
};
