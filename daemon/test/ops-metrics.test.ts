// Engine metrics: counters and histograms from bus events, the recent-latency quantiles of
// `hookd plugins`, and the Prometheus text rendering.
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../src/engine/events.js";
import type { Invocation } from "../src/engine/invoke.js";
import { EngineMetrics, LATENCY_WINDOW, PluginTotals } from "../src/ops/metrics.js";
import { renderMetrics } from "../src/ops/prometheus.js";
import type { DaemonGauges } from "../src/ops/prometheus.js";

const scope = { sessionId: "s", agentId: "a", turn: 1, step: 1 };
const call = (plugin: string, durationUs: number, extra: Partial<Invocation> = {}): EngineEvent => ({
  type: "invocation",
  scope,
  invocation: { plugin, point: "pre-tool", kind: "remote", durationUs, outcome: "answered", decision: "allow", ...extra },
});

const gauges: DaemonGauges = {
  agentsConnected: 2,
  sessionsOpen: 3,
  streamsOpen: 1,
  evaluateStreamsOpen: 0,
  plugins: [{ name: 'we"ird', kind: "remote", target: "unix:///x", health: "ejected", points: ["pre-tool"], restarts: 4, lastError: "" }],
  configGeneration: 5,
  reloads: { applied: 5, refused: 1 },
  auditRecords: 9,
  auditWriteErrors: 0,
  startedAt: 1_700_000_000_000,
  evaluateRefused: new Map([["limits.maxInflight", 7]]),
  admission: { limit: 12, inflight: 3, admitted: 40, minRttMs: 1.5, sampleRttMs: 2 },
  connectionsRefused: new Map([["handshake_timeout", 2]]),
  instanceId: "host-a",
  configVersion: "0123456789ab",
  evaluateRetries: new Map([["pre-tool", 3]]),
};

describe("EngineMetrics", () => {
  it("counts outcomes, failures by cause and the failure policy's effect", () => {
    const metrics = new EngineMetrics();
    metrics.observe(call("p", 40));
    metrics.observe(call("p", 3_000, { outcome: "fault", decision: "deny", fault: "deadline_exceeded" }));
    metrics.observe(call("p", 500, { outcome: "fault", decision: "pass", fault: "unavailable" }));
    metrics.observe(call("p", 10, { outcome: "error", decision: "error" }));
    const stats = metrics.pluginPoints.get("p\u0000pre-tool");
    expect(Object.fromEntries(stats?.outcomes ?? [])).toEqual({ answered: 1, fault: 2, error: 1 });
    expect(Object.fromEntries(stats?.failures ?? [])).toEqual({ deadline_exceeded: 1, unavailable: 1, listener_error: 1 });
    expect([stats?.failClosed, stats?.failOpen]).toEqual([1, 1]);
    expect(metrics.totals("p")).toMatchObject({ calls: 4, failures: 3 });
  });

  it("gives p50 and p99 over the recent window only", () => {
    const totals = new PluginTotals();
    for (let i = 1; i <= 100; i++) totals.record(i, false);
    expect(totals.quantile(0.5)).toBe(50);
    expect(totals.quantile(0.99)).toBe(99);
    for (let i = 0; i < LATENCY_WINDOW; i++) totals.record(7, false);
    expect(totals.quantile(0.99)).toBe(7);
    expect(new PluginTotals().quantile(0.5)).toBe(0);
  });
});

describe("renderMetrics", () => {
  it("renders cumulative histograms, escaped labels and the daemon's gauges", () => {
    const metrics = new EngineMetrics();
    metrics.observe(call("p", 40));
    metrics.observe(call("p", 300));
    metrics.observe(call("p", 20_000_000));
    metrics.observe({ type: "decision", scope, point: "pre-tool", decision: "deny", decidedBy: "p", durationUs: 90 });
    const text = renderMetrics(metrics, gauges);
    expect(text).toContain('hookd_plugin_call_duration_seconds_bucket{plugin="p",point="pre-tool",le="0.00005"} 1\n');
    expect(text).toContain('hookd_plugin_call_duration_seconds_bucket{plugin="p",point="pre-tool",le="0.0005"} 2\n');
    expect(text).toContain('hookd_plugin_call_duration_seconds_bucket{plugin="p",point="pre-tool",le="10"} 2\n');
    expect(text).toContain('hookd_plugin_call_duration_seconds_bucket{plugin="p",point="pre-tool",le="+Inf"} 3\n');
    expect(text).toContain('hookd_plugin_call_duration_seconds_sum{plugin="p",point="pre-tool"} 20.00034\n');
    expect(text).toContain('hookd_decisions_total{point="pre-tool",decision="deny"} 1\n');
    expect(text).toContain('hookd_plugin_restarts_total{plugin="we\\"ird"} 4\n');
    expect(text).toContain('hookd_plugin_health{plugin="we\\"ird",kind="remote",health="ejected"} 1\n');
    expect(text).toContain("hookd_sessions_open 3\n");
    expect(text).toContain('hookd_config_reloads_total{result="refused"} 1\n');
    expect(text).toContain('hookd_evaluate_refused_total{limit="limits.maxInflight"} 7\n');
    expect(text).toContain('hookd_connections_closed_total{reason="handshake_timeout"} 2\n');
    expect(text).toContain("hookd_admission_limit 12\n");
    expect(text).toContain("hookd_admission_inflight 3\n");
    expect(text).toContain("hookd_admission_admitted_total 40\n");
    expect(text).toContain('hookd_admission_latency_seconds{estimate="no_load"} 0.0015\n');
    expect(text).toContain('hookd_admission_latency_seconds{estimate="median"} 0.002\n');
    expect(text).toContain('hookd_instance_info{instance_id="host-a",config_version="0123456789ab"} 1\n');
    expect(text).toContain('hookd_evaluate_retries_total{point="pre-tool"} 3\n');
    for (const line of text.trimEnd().split("\n")) {
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{[^}]*\})? -?[\d.e+-]+)$/);
    }
  });
  it("renders a command plugin's warm runs, its spawns by reason and its fork-server restarts", () => {
    const hooks = { name: "cc", kind: "command", target: "/h.json", health: "serving" as const, points: [], restarts: 0, lastError: "", warm: { warmRuns: 12, fallbacks: { shell_syntax: 3, starting: 1 }, restarts: 2 } };
    const text = renderMetrics(new EngineMetrics(), { ...gauges, plugins: [...gauges.plugins, hooks] });
    expect(text).toContain('hookd_command_warm_runs_total{plugin="cc"} 12\n');
    expect(text).toContain('hookd_command_warm_fallbacks_total{plugin="cc",reason="shell_syntax"} 3\n');
    expect(text).toContain('hookd_command_warm_fallbacks_total{plugin="cc",reason="starting"} 1\n');
    expect(text).toContain('hookd_command_warm_restarts_total{plugin="cc"} 2\n');
    // Plugins without warm interpreters have no samples.
    expect(text).not.toMatch(/hookd_command_warm_runs_total\{plugin="we/);
  });
});
