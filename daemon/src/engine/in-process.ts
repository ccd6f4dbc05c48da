// Listeners for in-process plugins on the main thread: the handler is called directly with the
// live context (so waterfall handlers can call next()). The event handed over is already frozen.
import { compileToolMatcher } from "@hookd/sdk";
import type { PluginDefinition, PointName, Subscription, FailurePolicy } from "@hookd/sdk";
import { DEFAULT_DEADLINE_MS, defaultFailurePolicy } from "./listener.js";
import type { ContextOf, EventOf, Listener } from "./listener.js";

/** Per-subscription settings the config may override. */
export interface ListenerOverrides {
  readonly priority?: number;
  readonly deadlineMs?: number;
  readonly failurePolicy?: FailurePolicy;
  readonly tools?: readonly string[];
}

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
      priority: override.priority ?? sub.priority ?? 0,
      matches: compileToolMatcher(override.tools ?? sub.tools),
      deadlineMs: override.deadlineMs ?? sub.deadlineMs ?? defaultDeadlineMs,
      failurePolicy: override.failurePolicy ?? sub.failurePolicy ?? defaultFailurePolicy(point),
      sideEffectFree: plugin.sideEffectFree,
      // Called through an async arrow so a synchronous throw becomes a rejection.
      call: async (event: EventOf<PointName>, ctx: ContextOf<PointName>) => handler(event, ctx),
    } satisfies Listener;
  });
}
