// The decision of every point that has one, typed ↔ proto, `pass` included, read from the point
// table. Conversion is structural: an unset oneof, JSON text that does not parse, or an accept
// replacing both content and value is an error naming the proto field path. The semantic rules
// (non-empty reasons, steer needs a message) live in validate.ts, which accepts this output.
import type { Result } from "./result.js";
import { decode } from "./result.js";
import { DECISION_POINTS, POINT_TABLE, isDecisionPoint } from "../points/index.js";
import type { DecisionCodec } from "../points/define.js";
import type { DecisionPoint, PointAnswer, PointTypes, ProtoDecisionOf } from "../points/index.js";
import { fieldError } from "../errors.js";

export { DECISION_POINTS, isDecisionPoint };
export type { DecisionCodec, DecisionPoint };
/** The typed and the proto decision of each point that has one (observers answer nothing). */
export type DecisionForms = { readonly [P in DecisionPoint]: { typed: PointAnswer<P>; proto: ProtoDecisionOf<P> } };
export type TypedDecision<P extends DecisionPoint> = PointAnswer<P>;
export type ProtoDecision<P extends DecisionPoint> = ProtoDecisionOf<P>;

/** Decision conversion per point: `decisionCodec[point].toProto(decision)` / `.fromProto(message)`. */
export const decisionCodec = Object.freeze(Object.fromEntries(DECISION_POINTS.map((point) => [point, POINT_TABLE[point].decision]))) as {
  readonly [P in DecisionPoint]: DecisionCodec<PointTypes[P]>;
};

export function toProtoDecision<P extends DecisionPoint>(point: P, decision: TypedDecision<P>): ProtoDecision<P> {
  return decisionCodec[point].toProto(decision);
}

/** Total; an unknown point is an `invalid_decision` error too. */
export function fromProtoDecision<P extends DecisionPoint>(point: P, message: ProtoDecision<P>, path = "decision"): Result<TypedDecision<P>> {
  if (!isDecisionPoint(point)) {
    return decode("invalid_decision", path, () => {
      throw fieldError(path, `no decision for point ${JSON.stringify(point)}`);
    });
  }
  return decisionCodec[point].fromProto(message, path);
}
