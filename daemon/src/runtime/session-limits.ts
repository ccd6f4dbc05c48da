// What the session store, every hosted session and the evaluate calls take from the config: the
// store's caps and the loop's and points' limits. Read again on each reload (the store and new
// sessions take the new values).
import type { Budgets } from "@hookd/sdk";
import { configuredBudgets } from "../config/budgets.js";
import type { Config } from "../config/schema.js";
import type { EventBus } from "../engine/events.js";
import type { PluginRegistry } from "../engine/registry.js";
import type { HostedSessionDeps } from "../host/hosted-session.js";
import type { SessionStore } from "../host/session-store.js";
import type { Logger } from "../log.js";
import type { Tracing } from "../engine/tracing.js";

export function storeLimits(config: Config): ConstructorParameters<typeof SessionStore>[0] {
  return {
    maxSessions: config.limits.maxSessions,
    maxSessionsPerAgent: config.limits.maxSessionsPerAgent,
    resumeWindowMs: config.limits.resumeWindowMs,
    heartbeatMs: config.session.heartbeatMs,
    ...(config.limits.sessionIdleMs === undefined ? {} : { sessionIdleMs: config.limits.sessionIdleMs }),
  };
}

export function sessionDeps(
  config: Config,
  wiring: { readonly registry: () => PluginRegistry; readonly bus: EventBus; readonly log: Logger; readonly tracing?: Tracing | undefined },
): HostedSessionDeps {
  return {
    ...wiring,
    limits: {
      maxSteeredContinuations: config.limits.maxSteeredContinuations,
      maxStepsPerTurn: config.limits.maxStepsPerTurn,
      ...configuredBudgets(config),
      toolConcurrency: config.limits.toolConcurrency,
      approvalTimeoutMs: config.limits.approvalTimeoutMs,
      finalizeTimeoutMs: config.limits.finalizeTimeoutMs,
    },
  };
}

type EvaluateLimits = Required<Budgets> & { readonly maxSteeredContinuations: number };

/** Built once per config (a reload makes a new one): every evaluate call reads them, so reading must not allocate. */
const evaluateLimitsByConfig = new WeakMap<Config, EvaluateLimits>();

export function evaluateLimits(config: Config): EvaluateLimits {
  let limits = evaluateLimitsByConfig.get(config);
  if (limits === undefined) {
    limits = Object.freeze({ ...configuredBudgets(config), maxSteeredContinuations: config.limits.maxSteeredContinuations });
    evaluateLimitsByConfig.set(config, limits);
  }
  return limits;
}
