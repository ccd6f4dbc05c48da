// Listeners for in-process plugins on the main thread: the handler is called directly with the
// live context (so waterfall handlers can call next()). The event handed over is already frozen.
import type { PluginDefinition, PointName, Subscription } from "@hookd/sdk";
import { DEFAULT_DEADLINE_MS, IN_PROCESS_TRAITS, resolveSettings } from "../../engine/listener.js";
import type { ContextOf, EventOf, Listener, ListenerOverrides } from "../../engine/listener.js";

export function inProcessListeners(
  plugin: PluginDefinition,
  overrides: Partial<Record<PointName, ListenerOverrides>> = {},
  defaultDeadlineMs = DEFAULT_DEADLINE_MS,
): Listener[] {
  return (Object.entries(plugin.subscriptions) as [PointName, Subscription<PointName>][]).map(([point, sub]) => {
    const override = overrides[point] ?? {};
    const handler = sub.handler as (event: unknown, ctx: unknown) => unknown;
    return {
      plugin: plugin.name,
      point,
      kind: "in-process",
      traits: IN_PROCESS_TRAITS,
      ...resolveSettings(point, override, sub, defaultDeadlineMs),
      sideEffectFree: plugin.sideEffectFree,
      // Called directly: a synchronous answer is used at once (callListener catches a throw).
      call: (event: EventOf<PointName>, ctx: ContextOf<PointName>) => handler(event, ctx),
    } satisfies Listener;
  });
}
