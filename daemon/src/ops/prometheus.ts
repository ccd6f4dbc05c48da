// Renders the Prometheus text exposition format (version 0.0.4) from the engine's counters and a
// snapshot of the daemon's gauges (the process and runtime families are runtime-metrics.ts's).
// Called only on a scrape. Owns metric names, help texts and
// label escaping; the numbers come from metrics.ts and the daemon.
import type { PluginStatus } from "../plugins/source.js";
import { LATENCY_BUCKETS_US } from "./metrics.js";
import type { EngineMetrics, Histogram } from "./metrics.js";

/** What the daemon reports at scrape time. */
export interface DaemonGauges {
  readonly agentsConnected: number;
  readonly sessionsOpen: number;
  readonly streamsOpen: number;
  /** Evaluate streams open (agents with their own loop). */
  readonly evaluateStreamsOpen: number;
  readonly plugins: readonly PluginStatus[];
  readonly configGeneration: number;
  readonly reloads: { readonly applied: number; readonly refused: number };
  readonly auditRecords: number;
  readonly auditWriteErrors: number;
  /** Epoch milliseconds. */
  readonly startedAt: number;
  /** Evaluate calls refused RESOURCE_EXHAUSTED, by the limit's config key. */
  readonly evaluateRefused: ReadonlyMap<string, number>;
  /** Admission (host/admission.ts): the limit in force, calls in flight and admitted, the adaptive limit's latencies in milliseconds. */
  readonly admission: {
    readonly limit: number;
    readonly inflight: number;
    readonly admitted: number;
    readonly minRttMs: number | undefined;
    readonly sampleRttMs: number | undefined;
  };
  /** Connections closed by the daemon, by reason (handshake_timeout, max_connections). */
  readonly connectionsRefused: ReadonlyMap<string, number>;
  /** This daemon in a fleet (config/instance.ts). */
  readonly instanceId: string;
  readonly configVersion: string;
  /** Evaluate calls answered again from their first answer, by point (host/retries.ts). */
  readonly evaluateRetries: ReadonlyMap<string, number>;
}

type Labels = Readonly<Record<string, string>>;

const escape = (value: string): string => value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

function labelText(labels: Labels): string {
  const parts = Object.entries(labels).map(([key, value]) => `${key}="${escape(value)}"`);
  return parts.length === 0 ? "" : `{${parts.join(",")}}`;
}

class Exposition {
  readonly #lines: string[] = [];

  family(name: string, type: "counter" | "gauge" | "histogram", help: string): this {
    this.#lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    return this;
  }

  sample(name: string, labels: Labels, value: number): this {
    this.#lines.push(`${name}${labelText(labels)} ${Number.isFinite(value) ? value : 0}`);
    return this;
  }

  histogram(name: string, labels: Labels, histogram: Histogram): this {
    let cumulative = 0;
    LATENCY_BUCKETS_US.forEach((bound, i) => {
      cumulative += histogram.counts[i] ?? 0;
      this.sample(`${name}_bucket`, { ...labels, le: String(bound / 1e6) }, cumulative);
    });
    this.sample(`${name}_bucket`, { ...labels, le: "+Inf" }, histogram.count);
    this.sample(`${name}_sum`, labels, histogram.sumUs / 1e6);
    this.sample(`${name}_count`, labels, histogram.count);
    return this;
  }

  text(): string {
    return `${this.#lines.join("\n")}\n`;
  }
}

const HEALTHS = ["serving", "starting", "connecting", "ejected", "unavailable"] as const;

export function renderMetrics(metrics: EngineMetrics, gauges: DaemonGauges): string {
  const out = new Exposition();
  const pluginPoints = [...metrics.pluginPoints.values()];

  out.family("hookd_plugin_calls_total", "counter", "Plugin calls, by plugin, point and outcome (answered, passed, fault, error).");
  for (const s of pluginPoints) {
    for (const [outcome, n] of s.outcomes) out.sample("hookd_plugin_calls_total", { plugin: s.plugin, point: s.point, outcome }, n);
  }
  out.family("hookd_plugin_failures_total", "counter", "Plugin calls that gave no usable answer, by cause.");
  for (const s of pluginPoints) {
    for (const [cause, n] of s.failures) out.sample("hookd_plugin_failures_total", { plugin: s.plugin, point: s.point, cause }, n);
  }
  out.family("hookd_plugin_failure_policy_total", "counter", "Failures decided by failure policy: fail-open (treated as pass) or fail-closed (refused).");
  for (const s of pluginPoints) {
    if (s.failOpen > 0) out.sample("hookd_plugin_failure_policy_total", { plugin: s.plugin, point: s.point, policy: "fail-open" }, s.failOpen);
    if (s.failClosed > 0) out.sample("hookd_plugin_failure_policy_total", { plugin: s.plugin, point: s.point, policy: "fail-closed" }, s.failClosed);
  }
  out.family("hookd_plugin_call_duration_seconds", "histogram", "Plugin call latency, by plugin and point.");
  for (const s of pluginPoints) out.histogram("hookd_plugin_call_duration_seconds", { plugin: s.plugin, point: s.point }, s.latency);

  out.family("hookd_decisions_total", "counter", "Decisions applied at a point, by decision kind.");
  for (const [point, s] of metrics.decisions) {
    for (const [decision, n] of s.byDecision) out.sample("hookd_decisions_total", { point, decision }, n);
  }
  out.family("hookd_point_duration_seconds", "histogram", "Time to decide a point (all its plugins), by point.");
  for (const [point, s] of metrics.decisions) out.histogram("hookd_point_duration_seconds", { point }, s.latency);

  // Shadow plugins have their own series: their verdicts are never decisions, their faults never failure-policy effects.
  const shadows = [...metrics.shadows.values()];
  out.family("hookd_shadow_calls_total", "counter", "Shadow plugin calls (never applied), by plugin, point, outcome and the decision it would have made.");
  for (const s of shadows) {
    for (const [key, n] of s.verdicts) {
      const [outcome = "", decision = ""] = key.split("\u0000");
      out.sample("hookd_shadow_calls_total", { plugin: s.plugin, point: s.point, outcome, decision }, n);
    }
  }
  out.family("hookd_shadow_faults_total", "counter", "Shadow plugin calls that gave no usable answer, by cause; no failure policy was applied.");
  for (const s of shadows) {
    for (const [cause, n] of s.faults) out.sample("hookd_shadow_faults_total", { plugin: s.plugin, point: s.point, cause }, n);
  }
  out.family("hookd_shadow_call_duration_seconds", "histogram", "Shadow plugin call latency, by plugin and point.");
  for (const s of shadows) out.histogram("hookd_shadow_call_duration_seconds", { plugin: s.plugin, point: s.point }, s.latency);

  out.family("hookd_plugin_restarts_total", "counter", "Restarts (managed) or reconnects (remote) of a plugin.");
  for (const p of gauges.plugins) out.sample("hookd_plugin_restarts_total", { plugin: p.name }, p.restarts);
  out.family("hookd_command_warm_runs_total", "counter", "Command hooks run in a warm interpreter (forked from a resident one), by plugin.");
  for (const p of gauges.plugins) if (p.warm !== undefined) out.sample("hookd_command_warm_runs_total", { plugin: p.name }, p.warm.warmRuns);
  out.family("hookd_command_warm_fallbacks_total", "counter", "Command hooks of a warm plugin spawned instead, by plugin and reason.");
  for (const p of gauges.plugins) for (const [reason, n] of Object.entries(p.warm?.fallbacks ?? {})) out.sample("hookd_command_warm_fallbacks_total", { plugin: p.name, reason }, n);
  out.family("hookd_command_warm_restarts_total", "counter", "Fork servers of a command plugin started again after one died.");
  for (const p of gauges.plugins) if (p.warm !== undefined) out.sample("hookd_command_warm_restarts_total", { plugin: p.name }, p.warm.restarts);
  out.family("hookd_plugin_refused_answers_total", "counter", "Attach answers refused: for a call id never sent, or one already answered.");
  for (const p of gauges.plugins) if (p.refusedAnswers !== undefined) out.sample("hookd_plugin_refused_answers_total", { plugin: p.name }, p.refusedAnswers);
  out.family("hookd_plugin_health", "gauge", "1 for the plugin's current health state.");
  for (const p of gauges.plugins) {
    for (const health of HEALTHS) out.sample("hookd_plugin_health", { plugin: p.name, kind: p.kind, health }, p.health === health ? 1 : 0);
  }

  out.family("hookd_agents_connected", "gauge", "Agents with at least one open hosted session, or whose HTTP hooks arrived in the last 5 minutes.").sample("hookd_agents_connected", {}, gauges.agentsConnected);
  out.family("hookd_sessions_open", "gauge", "Hosted sessions open (attached or resumable).").sample("hookd_sessions_open", {}, gauges.sessionsOpen);
  out.family("hookd_streams_open", "gauge", "Hosted-loop streams open.").sample("hookd_streams_open", {}, gauges.streamsOpen);
  out.family("hookd_evaluate_streams_open", "gauge", "Evaluate streams open.").sample("hookd_evaluate_streams_open", {}, gauges.evaluateStreamsOpen);
  out.family("hookd_config_generation", "gauge", "Incremented by every applied reload.").sample("hookd_config_generation", {}, gauges.configGeneration);
  out
    .family("hookd_config_reloads_total", "counter", "Config reloads, applied or refused.")
    .sample("hookd_config_reloads_total", { result: "applied" }, gauges.reloads.applied)
    .sample("hookd_config_reloads_total", { result: "refused" }, gauges.reloads.refused);
  out.family("hookd_audit_records_total", "counter", "Audit records written.").sample("hookd_audit_records_total", {}, gauges.auditRecords);
  out.family("hookd_audit_write_errors_total", "counter", "Audit records that could not be written or synced.").sample("hookd_audit_write_errors_total", {}, gauges.auditWriteErrors);
  out.family("hookd_evaluate_refused_total", "counter", "Evaluate calls and HTTP hook requests refused with RESOURCE_EXHAUSTED (HTTP 503), by the limit that refused them.");
  for (const [limit, n] of gauges.evaluateRefused) out.sample("hookd_evaluate_refused_total", { limit }, n);
  const { admission } = gauges;
  out.family("hookd_admission_limit", "gauge", "Evaluate calls and HTTP hook requests admitted at once now: the adaptive limit, or limits.maxInflight when it is off.").sample("hookd_admission_limit", {}, admission.limit);
  out.family("hookd_admission_inflight", "gauge", "Evaluate calls and HTTP hook requests in flight.").sample("hookd_admission_inflight", {}, admission.inflight);
  out.family("hookd_admission_admitted_total", "counter", "Evaluate calls and HTTP hook requests admitted.").sample("hookd_admission_admitted_total", {}, admission.admitted);
  out.family("hookd_admission_latency_seconds", "gauge", "The adaptive limit's latency estimates: with no load, and the median of the last window of admitted calls (arrival to answer in the daemon; nothing queues).");
  if (admission.minRttMs !== undefined) out.sample("hookd_admission_latency_seconds", { estimate: "no_load" }, admission.minRttMs / 1e3);
  if (admission.sampleRttMs !== undefined) out.sample("hookd_admission_latency_seconds", { estimate: "median" }, admission.sampleRttMs / 1e3);
  out.family("hookd_connections_closed_total", "counter", "Connections the daemon closed itself: no HTTP/2 preface in time, or over the listener's cap.");
  for (const [reason, n] of gauges.connectionsRefused) out.sample("hookd_connections_closed_total", { reason }, n);

  out.family("hookd_evaluate_retries_total", "counter", "Evaluate calls answered from the first answer to the same call (a retry), by point; no plugin ran again.");
  for (const [point, n] of gauges.evaluateRetries) out.sample("hookd_evaluate_retries_total", { point }, n);
  // An info series, not a label on every series: Prometheus attaches the target's own labels at
  // scrape time, and a join (`* on(instance) group_left(instance_id, config_version)`) adds these.
  out
    .family("hookd_instance_info", "gauge", "1, labelled with this daemon's instance id and the version (digest) of the config in force.")
    .sample("hookd_instance_info", { instance_id: gauges.instanceId, config_version: gauges.configVersion }, 1);
  // The process and runtime families (process_*, nodejs_*) follow, from ops/runtime-metrics.ts.
  return out.text();
}
