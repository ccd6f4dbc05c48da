// turn-end: a notification after each turn, with how it ended (completed, blocked by pre-step,
// stopped at the continuation cap, cancelled, error) and how many steps it ran. Observers answer
// nothing and their failures are contained. A follow-up that never ran is not a turn. How a turn
// ends has one vocabulary, declared here: the engine, this point, the session stream and the
// agent SDK all use it.
import { enumMap } from "../convert/result.js";
import { readSessionInfo, toProtoSessionInfo } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, HandlerContext } from "../handler.js";
import * as pb from "../proto.js";
import type { SessionInfo } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, PointSpec } from "./define.js";
import { POINT_BUDGET, eventCodec, protoFacts } from "./define.js";

/** How a turn ended: the turn-end event's outcome, the engine's and the agent SDK's turn end reason. */
export type TurnEndOutcome = "completed" | "blocked" | "continuation_cap" | "cancelled" | "error";

export interface TurnEndEvent {
  readonly session: SessionInfo;
  readonly turn: number;
  readonly outcome: TurnEndOutcome;
  /** What ended it: a rejection's reason, an error, the cap, the cancel reason; "" when completed. */
  readonly detail: string;
  /** Steps the turn ran. */
  readonly steps: number;
}

export interface TurnEndTypes {
  readonly event: TurnEndEvent;
  readonly decision: never;
  readonly answer: Pass;
  /** Notification after each turn; cannot change anything, failures are contained. */
  readonly handler: (event: TurnEndEvent, ctx: HandlerContext) => Awaitable<void>;
  readonly protoEvent: pb.TurnEndEvent;
  readonly protoDecision: never;
}

const outcomes = enumMap<TurnEndOutcome, pb.TurnEndOutcome>({
  completed: pb.TurnEndOutcome.COMPLETED,
  blocked: pb.TurnEndOutcome.BLOCKED,
  continuation_cap: pb.TurnEndOutcome.CONTINUATION_CAP,
  cancelled: pb.TurnEndOutcome.CANCELLED,
  error: pb.TurnEndOutcome.ERROR,
});

/**
 * The same outcomes on a hosted session's turn_ended frame (host.proto TurnEndReason), which was
 * released with other numbers and names `cancelled` ABORTED.
 */
export const turnEndedReasons = enumMap<TurnEndOutcome, pb.TurnEndReason>({
  completed: pb.TurnEndReason.COMPLETED,
  blocked: pb.TurnEndReason.BLOCKED,
  continuation_cap: pb.TurnEndReason.CONTINUATION_CAP,
  cancelled: pb.TurnEndReason.ABORTED,
  error: pb.TurnEndReason.ERROR,
});

export const turnEndPoint = {
  ...protoFacts("turn-end"),
  budget: POINT_BUDGET,
  pluginMethod: "turnEnd",
  event: eventCodec<TurnEndTypes, typeof pb.TurnEndEventSchema>(
    pb.TurnEndEventSchema,
    (event) => ({ session: toProtoSessionInfo(event.session), turn: event.turn, outcome: outcomes.toProto(event.outcome), detail: event.detail, steps: event.steps }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      turn: message.turn,
      outcome: outcomes.read(message.outcome, `${path}.outcome`),
      detail: message.detail,
      steps: message.steps,
    }),
  ),
  decision: undefined,
  singletons: [pass()],
  // Whatever an observer returns is ignored.
  readAnswer: () => pass(),
  fallback: () => undefined,
  failClosed: () => pass(),
} as const satisfies PointSpec<"turn-end", TurnEndTypes>;

export const turnEndEvaluate: EvaluateSpec<TurnEndEvent, EvaluateOptions, void, "evaluateTurnEnd"> = {
  method: "evaluateTurnEnd",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse: () => undefined,
  toResponse: () => ({}),
};
