// The event payload of every point, typed ↔ proto, read from the point table.
import type { Result } from "./result.js";
import { decode } from "./result.js";
import { POINT_TABLE, isPointName } from "../points/index.js";
import type { EventCodec } from "../points/define.js";
import type { EventOf, PointName, PointTypes, ProtoEventOf } from "../points/index.js";
import { fieldError } from "../errors.js";

export type { EventCodec };
/** The typed and the proto event of each point. */
export type EventForms = { readonly [P in PointName]: { typed: EventOf<P>; proto: ProtoEventOf<P> } };
export type TypedEvent<P extends PointName> = EventOf<P>;
export type ProtoEvent<P extends PointName> = ProtoEventOf<P>;

/** Event conversion per point: `eventCodec[point].toProto(event)` / `.fromProto(message)`. */
export const eventCodec = Object.freeze(Object.fromEntries(Object.entries(POINT_TABLE).map(([point, spec]) => [point, spec.event]))) as {
  readonly [P in PointName]: EventCodec<PointTypes[P]>;
};

export function toProtoEvent<P extends PointName>(point: P, event: TypedEvent<P>): ProtoEvent<P> {
  return eventCodec[point].toProto(event);
}

/** Total; an unknown point is an error too. */
export function fromProtoEvent<P extends PointName>(point: P, message: ProtoEvent<P>, path = "event"): Result<TypedEvent<P>> {
  if (!isPointName(point)) {
    return decode("invalid_argument", path, () => {
      throw fieldError(path, `unknown point ${JSON.stringify(point)}`);
    });
  }
  return eventCodec[point].fromProto(message, path);
}
