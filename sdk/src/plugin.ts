// definePlugin: the typed module API for hook plugins. The same definition runs in-process in the
// daemon (main thread or worker pool) and out of process through servePlugin, and its
// subscriptions are derived from the handlers it implements. Owns the handler signatures per
// point and the definition's validation; knows nothing of how a handler is invoked.
import { HookdError } from "./errors.js";
import { compileToolMatcher } from "./matcher.js";
import { MATCHED_POINTS, POINTS, isPointName } from "./points/index.js";
import type { PointHandlers, PointName } from "./points/index.js";
import type { FailurePolicy } from "./types.js";

export type { Awaitable, ExecuteContext, HandlerContext, WaterfallContext } from "./handler.js";
export type { PointHandlers };

export interface SubscriptionOptions {
  /**
   * Whole-name globs: of the tool name at tool points, of the agent's event name at agent-event
   * (e.g. ["PreCompact", "Worktree*"]); refused at every other point. Empty or absent matches all.
   */
  readonly tools?: readonly string[];
  /** Lower runs outermost; ties by plugin name. Default 0. */
  readonly priority?: number;
  /** Deadline for one call in milliseconds; absent takes the daemon's default. */
  readonly deadlineMs?: number;
  /** Absent takes the point's default: fail-closed for gates, fail-open otherwise. */
  readonly failurePolicy?: FailurePolicy;
}

export interface Subscription<P extends PointName> extends SubscriptionOptions {
  readonly handler: PointHandlers[P];
}

export type PluginPoints = { readonly [P in PointName]?: PointHandlers[P] | Subscription<P> };

export interface PluginSpec {
  readonly name: string;
  readonly version?: string;
  /** Answers depend only on the event and the plugin has no side effects (see the proto). */
  readonly sideEffectFree?: boolean;
  readonly points: PluginPoints;
}

/** A validated, frozen plugin: every subscription in its full form. */
export interface PluginDefinition {
  readonly name: string;
  readonly version: string;
  readonly sideEffectFree: boolean;
  readonly subscriptions: { readonly [P in PointName]?: Subscription<P> };
}

const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Validates a plugin spec; throws HookdError("invalid_plugin") naming the bad field. */
export function definePlugin(spec: PluginSpec): PluginDefinition {
  if (typeof spec !== "object" || spec === null) throw new HookdError("invalid_plugin", "plugin: expected an object");
  if (typeof spec.name !== "string" || !PLUGIN_NAME.test(spec.name)) {
    throw new HookdError("invalid_plugin", `name: expected letters, digits, '.', '_' or '-', got ${JSON.stringify(spec.name)}`);
  }
  if (typeof spec.points !== "object" || spec.points === null) {
    throw new HookdError("invalid_plugin", `${spec.name}: points: expected an object of handlers`);
  }
  const subscriptions: Record<string, Subscription<PointName>> = {};
  for (const [point, entry] of Object.entries(spec.points) as [string, unknown][]) {
    const path = `${spec.name}: points.${point}`;
    if (!isPointName(point)) throw new HookdError("invalid_plugin", `${path}: unknown point; expected one of ${POINTS.join(", ")}`);
    if (entry === undefined) continue;
    subscriptions[point] = normalizeSubscription(point, entry, path);
  }
  if (Object.keys(subscriptions).length === 0) {
    throw new HookdError("invalid_plugin", `${spec.name}: a plugin must handle at least one point`);
  }
  return Object.freeze({
    name: spec.name,
    version: spec.version ?? "0.0.0",
    sideEffectFree: spec.sideEffectFree === true,
    subscriptions: Object.freeze(subscriptions),
  });
}

function normalizeSubscription(point: PointName, entry: unknown, path: string): Subscription<PointName> {
  const sub = (typeof entry === "function" ? { handler: entry } : entry) as Partial<Subscription<PointName>> | null;
  if (typeof sub !== "object" || sub === null || typeof sub.handler !== "function") {
    throw new HookdError("invalid_plugin", `${path}.handler: expected a function`);
  }
  if (sub.tools !== undefined) {
    if (!MATCHED_POINTS.has(point)) throw new HookdError("invalid_plugin", `${path}.tools: matchers apply only to tool points and agent-event`);
    if (!Array.isArray(sub.tools)) throw new HookdError("invalid_plugin", `${path}.tools: expected a list of globs`);
    compileToolMatcher(sub.tools, `${path}.tools`);
  }
  if (sub.priority !== undefined && !Number.isInteger(sub.priority)) {
    throw new HookdError("invalid_plugin", `${path}.priority: expected an integer`);
  }
  if (sub.deadlineMs !== undefined && !(Number.isInteger(sub.deadlineMs) && sub.deadlineMs > 0)) {
    throw new HookdError("invalid_plugin", `${path}.deadlineMs: expected a positive integer`);
  }
  if (sub.failurePolicy !== undefined && sub.failurePolicy !== "fail-closed" && sub.failurePolicy !== "fail-open") {
    throw new HookdError("invalid_plugin", `${path}.failurePolicy: expected "fail-closed" or "fail-open"`);
  }
  return Object.freeze({ ...sub, handler: sub.handler });
}
