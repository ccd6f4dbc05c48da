// The offline pipeline `hookd eval` runs: the config's plugins loaded by the daemon's own plugin
// set (remote ones connected, managed ones started, all stopped after), the daemon's evaluate
// service over them, and the engine's event bus recording what happened as audit records, in
// memory. No listener, agent socket or audit file is opened; managed plugins' sockets and ledger
// live in a private temporary directory, so a running daemon's are never touched.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configuredBudgets } from "../config/budgets.js";
import type { Config } from "../config/schema.js";
import { EventBus } from "../engine/events.js";
import type { PluginRegistry } from "../engine/registry.js";
import { Admission } from "../host/admission.js";
import { EvaluateService } from "../host/evaluate.js";
import { AgentIdentities } from "../host/identity.js";
import { SessionStore } from "../host/session-store.js";
import type { Logger } from "../log.js";
import { toAuditRecord } from "../ops/audit.js";
import type { AuditRecord } from "../ops/audit.js";
import { PluginSet } from "../plugins/plugin-set.js";
import { WarmPool } from "../plugins/command/warm/pool.js";
import type { PluginSource, PluginStatus } from "../plugins/source.js";
import { DAEMON_VERSION } from "../runtime/version.js";
import { eventError } from "./eval-input.js";

/** The loaded plugins and an evaluate service over them, recording every engine event. */
export interface OfflinePipeline {
  readonly evaluate: EvaluateService;
  readonly registry: () => PluginRegistry;
  /** What the run recorded, in order (the records the audit log would have got). */
  readonly records: AuditRecord[];
  readonly statuses: () => PluginStatus[];
  /** Plugins that could not answer within the wait, with why. */
  readonly unready: readonly string[];
  close(): Promise<void>;
}

/** Loads `config`'s plugins and waits up to `readyMs` for each to become reachable. */
export async function openPipeline(config: Config, log: Logger, readyMs: number): Promise<OfflinePipeline> {
  const scratch = mkdtempSync(join(tmpdir(), "hookd-eval-"));
  const plugins = new PluginSet({ log, daemonVersion: DAEMON_VERSION, pluginSocketDir: join(scratch, "plugins"), stateDir: scratch });
  const cleanup = async (): Promise<void> => {
    await plugins.close();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    await plugins.load(config);
  } catch (error) {
    await cleanup();
    // As serve would refuse to start: the message names the plugin.
    throw eventError(`the config's plugins do not load: ${error instanceof Error ? error.message : String(error)}`);
  }
  const started = Date.now();
  const unready = await waitReady(plugins, readyMs);
  await warmStarted(plugins.sources, readyMs - (Date.now() - started));
  const records: AuditRecord[] = [];
  const bus = new EventBus((error) => log.error("an engine observer threw", { error }));
  bus.subscribe((event) => {
    const record = toAuditRecord(event);
    if (record === undefined) return;
    // The values a rule read explain its answer here; the audit log itself keeps only the rule.
    const values = event.type === "invocation" ? event.invocation.ruleValues : undefined;
    records.push(values === undefined ? record : { ...record, ruleValues: values });
  });
  const { limits } = config;
  const budgets = configuredBudgets(config);
  const evaluateLimits = Object.freeze({ ...budgets, maxSteeredContinuations: limits.maxSteeredContinuations });
  const store = new SessionStore(
    { maxSessions: limits.maxSessions, maxSessionsPerAgent: limits.maxSessionsPerAgent, resumeWindowMs: limits.resumeWindowMs },
    {
      registry: plugins.registry,
      bus,
      log,
      limits: {
        maxSteeredContinuations: limits.maxSteeredContinuations,
        maxStepsPerTurn: limits.maxStepsPerTurn,
        ...budgets,
        toolConcurrency: limits.toolConcurrency,
        approvalTimeoutMs: limits.approvalTimeoutMs,
        finalizeTimeoutMs: limits.finalizeTimeoutMs,
      },
    },
  );
  const evaluate = new EvaluateService({
    registry: plugins.registry,
    bus,
    // The event's own agent id is taken as it is: eval has no connection to authenticate.
    identities: new AgentIdentities([]),
    store,
    limits: () => evaluateLimits,
    admission: new Admission(() => ({ maxInflightPerAgent: limits.maxInflightPerAgent, maxInflight: limits.maxInflight })),
  });
  return { evaluate, registry: plugins.registry, records, statuses: () => plugins.statuses(), unready, close: cleanup };
}

/**
 * Waits until the command plugins' warm interpreters serve (or `waitMs` passed), so the event's
 * hooks run as they would in a daemon that has been up a while rather than spawning meanwhile.
 */
async function warmStarted(sources: readonly PluginSource[], waitMs: number): Promise<void> {
  const pools = sources.flatMap((source) => ("warm" in source && source.warm instanceof WarmPool ? [source.warm] : []));
  if (pools.length === 0 || waitMs <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)));
  await Promise.race([Promise.all(pools.map((pool) => pool.whenStarted())), timeout]);
  clearTimeout(timer);
}

/** Waits (by polling the sources' own readiness, as `hookd check` does) until all are ready or `readyMs` passed. */
async function waitReady(plugins: PluginSet, readyMs: number): Promise<string[]> {
  const end = Date.now() + readyMs;
  while (plugins.sources.some((s) => !s.ready()) && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 25));
  return plugins.sources
    .filter((s) => !s.ready())
    .map((s) => {
      const { lastError } = s.status();
      return `${s.name}: not reachable within ${readyMs} ms${lastError === "" ? "" : ` (${lastError})`}; its failure policy decides its calls`;
    });
}
