// The config's limits.adaptive: adaptive admission's settings (daemon/src/host/admission.ts and
// adaptive-limit.ts). Kept apart from schema.ts, which holds the rest of the config's shape.
import { z } from "zod";
import { durationMs } from "./units.js";

export const adaptiveAdmission = z
  .strictObject({
    /**
     * On: a concurrency limit sized from latency admits under the fixed caps (docs/overload.md).
     * Off (the default until it meets its bench targets): only limits.maxInflight and
     * limits.maxInflightPerAgent admit.
     */
    enabled: z.boolean().default(false),
    /** The limit never goes below this many calls in flight (capped by limits.maxInflight); the latency with no load is measured at it. */
    floor: z.number().int().positive().default(8),
    /** How much slower than with no load the median call may get before the limit shrinks, in percent. */
    latencyBufferPercent: z.number().nonnegative().default(25),
    /** How often the latency with no load is measured again (the limit pinned to the floor meanwhile, for 32 calls). */
    minRttIntervalMs: durationMs.default(30_000),
  })
  .prefault({});
