// An EvaluateService over a given registry, wired as the daemon wires it (a real session store,
// event bus and admission), for tests of the evaluate API and of the endpoints built on it.
import { EventBus } from "../../src/engine/events.js";
import type { PluginRegistry } from "../../src/engine/registry.js";
import { Admission } from "../../src/host/admission.js";
import { EvaluateService } from "../../src/host/evaluate.js";
import { AgentIdentities } from "../../src/host/identity.js";
import { SessionStore } from "../../src/host/session-store.js";
import { silentLogger } from "../../src/log.js";

export interface EvaluateServiceSetup {
  /** Default: a bus of its own (returned). */
  readonly bus?: EventBus;
  /** The in-flight caps; default 64 per agent, 256 in all. */
  readonly maxInflightPerAgent?: number;
  readonly maxInflight?: number;
}

const LIMITS = { pointBudgetMs: 10_000, sessionEndBudgetMs: 1_000, maxSteeredContinuations: 2 };

export function evaluateServiceOver(registry: PluginRegistry, setup: EvaluateServiceSetup = {}): { evaluate: EvaluateService; bus: EventBus; admission: Admission } {
  const bus = setup.bus ?? new EventBus();
  const store = new SessionStore(
    { maxSessions: 100, maxSessionsPerAgent: 100, resumeWindowMs: 1_000 },
    { registry: () => registry, bus, log: silentLogger, limits: { ...LIMITS, maxStepsPerTurn: 8, toolConcurrency: 2, approvalTimeoutMs: 1_000, finalizeTimeoutMs: 1_000 } },
  );
  const admission = new Admission(() => ({ maxInflightPerAgent: setup.maxInflightPerAgent ?? 64, maxInflight: setup.maxInflight ?? 256 }));
  const evaluate = new EvaluateService({ registry: () => registry, bus, identities: new AgentIdentities([]), store, limits: () => LIMITS, admission });
  return { evaluate, bus, admission };
}
