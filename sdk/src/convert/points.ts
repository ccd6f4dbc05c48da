// The point enum and the HookPlugin RPC of each point, derived from the point table.
import type * as pb from "../proto.js";
import { POINTS, POINT_TABLE } from "../points/index.js";
import type { PointName, PointTable } from "../points/index.js";
import { enumMap, reader } from "./result.js";

const points = enumMap<PointName, pb.Point>(Object.fromEntries(POINTS.map((point) => [point, POINT_TABLE[point].proto])) as Record<PointName, pb.Point>);

export const toProtoPoint = (point: PointName): pb.Point => points.toProto(point);

/** POINT_UNSPECIFIED and unknown numbers are errors. */
export const fromProtoPoint = reader(points.read, "point");

/** The HookPlugin RPC, by its local name, that serves each point. */
export const PLUGIN_METHODS = Object.freeze(Object.fromEntries(POINTS.map((point) => [point, POINT_TABLE[point].pluginMethod]))) as {
  readonly [P in PointName]: PointTable[P]["pluginMethod"];
};
