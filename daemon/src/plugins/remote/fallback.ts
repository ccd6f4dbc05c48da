// Where a remote plugin's subscriptions come from, and the subscriptions of one that was never
// described since the daemon started. Fail-closed never silently opens: a plugin that cannot be
// described is subscribed by its config's points, else by its last known manifest, else at every
// gate point for every tool (its calls then fail as unavailable, so each point's failure policy
// answers: fail-closed denies, rejects or blocks). Never by nothing.
import { POINTS, POINT_TABLE } from "@hookd/sdk";
import { resolveSettings } from "../../engine/listener.js";
import { configSettings, manifestSettings } from "./manifest.js";
import type { ListenerSettings, PointOverrides } from "./manifest.js";
import type { KnownManifest } from "./manifest-store.js";

export type SubscriptionSource =
  | { readonly from: "described" }
  | { readonly from: "config" }
  | { readonly from: "last-known"; readonly savedAt: string }
  | { readonly from: "none" };

/** What `hookd check`, the admin service and readiness say about a plugin's subscriptions. */
export function describeSource(source: SubscriptionSource): string {
  switch (source.from) {
    case "described":
      return "described";
    case "config":
      return "config";
    case "last-known":
      return `last known manifest of ${source.savedAt}`;
    case "none":
      return "none: failing every gate point";
  }
}

/** Every point a failing plugin must still close (spec gate=true), in firing order. */
export const GATE_POINTS = POINTS.filter((point) => POINT_TABLE[point].gate);

/** The subscriptions of a plugin not described yet, and where they come from. */
export function fallbackSubscriptions(
  overrides: PointOverrides,
  lastKnown: KnownManifest | undefined,
  defaultDeadlineMs: number,
): { readonly source: SubscriptionSource; readonly settings: ListenerSettings[] } {
  if (Object.keys(overrides).length > 0) return { source: { from: "config" }, settings: configSettings(overrides, defaultDeadlineMs) };
  if (lastKnown !== undefined) {
    return { source: { from: "last-known", savedAt: lastKnown.savedAt }, settings: manifestSettings(lastKnown.manifest, {}, defaultDeadlineMs).settings };
  }
  const settings = GATE_POINTS.map((point) => ({ point, ...resolveSettings(point, {}, {}, defaultDeadlineMs), sideEffectFree: false }));
  return { source: { from: "none" }, settings };
}
