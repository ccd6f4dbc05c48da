// How the admin commands write a point and a duration in text: shared by `hookd plugins`
// (plugins-view.ts) and `hookd tail` (admin.ts), so both read the same.
import { fromProtoPoint } from "@hookd/sdk/internal";
import type { pb } from "@hookd/sdk/internal";

/** The point's name ("pre-tool"), or "point#<n>" for a value this build does not know. */
export function pointName(point: pb.Point): string {
  const converted = fromProtoPoint(point, "point");
  return converted.ok ? converted.value : `point#${point}`;
}

/** Microseconds below a millisecond as "µs", else milliseconds to one decimal ("1.2ms"). */
export const micros = (us: bigint | number): string => (us >= 1000 ? `${(Number(us) / 1000).toFixed(1)}ms` : `${us}µs`);
