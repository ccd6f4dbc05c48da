// Listeners for plugins isolated in the worker pool: the same ordering, matcher, deadline and
// failure-policy settings as main-thread plugins, but each call runs the handler in a worker
// with a copy of the event. Waterfall handlers there have no next(): they answer or pass.
import type { PointName } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import { DEFAULT_DEADLINE_MS, resolveSettings } from "../../engine/listener.js";
import type { EventOf, Listener, ListenerCall, ListenerOverrides, ListenerTraits } from "../../engine/listener.js";
import { resolveModulePath } from "./pool.js";
import type { WorkerPool } from "./pool.js";
import type { PluginManifest, SubscriptionManifest } from "./protocol.js";

/** A worker handler has no next(); the pool settles each call itself (it aborts the task when the call's signal aborts). */
const WORKER_TRAITS: ListenerTraits = Object.freeze({ wraps: false, answersOverWire: false, settlesItself: true, sendsOnNextTurn: false });

/**
 * One listener of kind "worker" per subscription of `plugin`, whose handlers live in the module
 * at `modulePath` (its default export: a definePlugin() definition or a plugin spec). `plugin`
 * is that definition, or the manifest from `pool.describe(modulePath)`; `version` is the one it
 * was described at (calls load that version's URL).
 */
export function workerListeners(
  pool: WorkerPool,
  modulePath: string | URL,
  plugin: PluginManifest,
  overrides: Partial<Record<PointName, ListenerOverrides>> = {},
  defaultDeadlineMs = DEFAULT_DEADLINE_MS,
  version?: string,
): Listener[] {
  const module = resolveModulePath(modulePath);
  return (Object.entries(plugin.subscriptions) as [PointName, SubscriptionManifest][]).map(([point, sub]) => {
    const override = overrides[point] ?? {};
    const target = { module, plugin: plugin.name, point, ...(version === undefined ? {} : { version }) };
    return {
      plugin: plugin.name,
      point,
      kind: "worker",
      traits: WORKER_TRAITS,
      ...resolveSettings(point, override, sub, defaultDeadlineMs),
      sideEffectFree: plugin.sideEffectFree,
      call: (event: EventOf<PointName>, _ctx: unknown, call: ListenerCall) => pool.call(target, event, signalOf(call.cancellation)),
    } satisfies Listener;
  });
}
