// The session store's limits, read from the config (at start and at every reload).
import type { Config } from "../config/schema.js";
import type { SessionStore } from "../host/session-store.js";

export function storeLimits(config: Config): ConstructorParameters<typeof SessionStore>[0] {
  return {
    maxSessions: config.limits.maxSessions,
    maxSessionsPerAgent: config.limits.maxSessionsPerAgent,
    resumeWindowMs: config.limits.resumeWindowMs,
    ...(config.limits.sessionIdleMs === undefined ? {} : { sessionIdleMs: config.limits.sessionIdleMs }),
  };
}
