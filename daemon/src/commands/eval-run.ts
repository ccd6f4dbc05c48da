// The offline pipeline `hookd eval` runs: the config's plugins loaded by the daemon's own plugin
// set (remote ones connected, managed ones started, all stopped after), the daemon's evaluate
// service over them, and the engine's event bus recording what happened as audit records, in
// memory. No listener, agent socket or audit file is opened; managed plugins' sockets and ledger
// live in a private temporary directory, so a running daemon's are never touched.
// Owns running one input through it too (decide), for eval and policy tests alike.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { configuredBudgets } from "../config/budgets.js";
import { create, toJson } from "@bufbuild/protobuf";
import type { DescMessage } from "@bufbuild/protobuf";
import { Metadata } from "@grpc/grpc-js";
import { EVALUATE_TABLE } from "@hookd/sdk";
import { LazyAbort, pb } from "@hookd/sdk/internal";
import { agentPermissionBypass } from "../config/bypass.js";
import type { Config } from "../config/schema.js";
import { answerHook } from "../http/lifecycle.js";
import { createLogger } from "../log.js";
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
import { WarmPool } from "../processes/warm/pool.js";
import type { PluginSource, PluginStatus } from "../plugins/source.js";
import { DAEMON_VERSION } from "../runtime/version.js";
import { eventError } from "./eval-input.js";
import type { EvalInput } from "./eval-input.js";

/** What a shadow call may take beyond its deadline to reach the bus (its fault record is emitted after the deadline fires). */
const SHADOW_SLACK_MS = 200;

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

/** Runs the input as the daemon would: the point's evaluate RPC, or the HTTP endpoint's dispatch for the dialect. */
export async function decide(pipeline: OfflinePipeline, input: EvalInput, config: Config): Promise<unknown> {
  const { evaluate } = pipeline;
  const signal = new AbortController().signal;
  switch (input.kind) {
    case "proto": {
      const response = await evaluate.rpc(input.point)(input.request, { metadata: new Metadata(), cancellation: new LazyAbort() });
      const output: DescMessage = pb.HookHost.method[EVALUATE_TABLE[input.point].method].output;
      return toJson(output, create(output, response as never));
    }
    case "hook": {
      const log = createLogger({ level: "error", format: "json", write: () => {} });
      return answerHook({ evaluate, log, bypassesAgentPermissions: agentPermissionBypass(() => config) }, input.agent, input.request, signal);
    }
  }
}

/**
 * Shadow calls are started beside the chain and never awaited by it: wait until each shadow
 * listener matched at a point the run reached has its record, or its own deadline (which
 * bounds every shadow call) has passed.
 */
export async function shadowsSettled(pipeline: OfflinePipeline, input: EvalInput): Promise<void> {
  const registry = pipeline.registry();
  const reached = [...new Set(pipeline.records.map((r) => r.point))];
  const expected = reached.flatMap((point) => registry.shadows(point, point === "agent-event" ? input.keys.eventName : input.keys.toolName).map((l) => ({ point, plugin: l.plugin, deadlineMs: l.deadlineMs })));
  if (expected.length === 0) return;
  const end = performance.now() + Math.max(...expected.map((e) => e.deadlineMs)) + SHADOW_SLACK_MS;
  const missing = (): boolean => expected.some((e) => !pipeline.records.some((r) => r.kind === "shadow" && r.point === e.point && r.plugin === e.plugin));
  while (missing() && performance.now() < end) await new Promise((resolve) => setTimeout(resolve, 5));
}
