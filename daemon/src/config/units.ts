// Value shapes the config's schemas share.
import { z } from "zod";

/** A duration in whole milliseconds, above zero. */
export const durationMs = z.number().int().positive();
