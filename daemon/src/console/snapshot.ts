// What the console's charts and tables show besides the stream: plugin health and call totals,
// the order of plugins at each point, latency histograms and failure counts per plugin and point.
// Built on request from the daemon's own state (the same numbers as /metrics and `hookd
// plugins`); owns only this JSON shape.
import type { PointName } from "@hookd/sdk";
import { POINTS } from "@hookd/sdk";
import type { PluginRegistry } from "../engine/registry.js";
import type { DaemonStatus } from "../ops/admin-service.js";
import { LATENCY_BUCKETS_US } from "../ops/metrics.js";
import type { EngineMetrics, Histogram } from "../ops/metrics.js";
import type { PluginStatus } from "../plugins/source.js";

export interface SnapshotSources {
  status(): DaemonStatus;
  plugins(): readonly PluginStatus[];
  readonly metrics: EngineMetrics;
  registry(): PluginRegistry;
}

export interface ConsoleSnapshot {
  readonly status: Omit<DaemonStatus, "configPath" | "listeners">;
  readonly plugins: readonly (PluginStatus & { calls: number; failures: number; p50Us: number; p99Us: number })[];
  /** Each point with plugins, in the order they run: enforcing ones, then shadow ones. */
  readonly order: readonly { point: PointName; plugins: readonly OrderEntry[] }[];
  /** Upper bounds of the histogram buckets in microseconds; counts have one more slot (+Inf). */
  readonly bucketsUs: readonly number[];
  readonly latency: readonly { plugin: string; point: PointName; shadow: boolean; counts: number[]; count: number; sumUs: number }[];
  readonly failures: readonly { plugin: string; point: PointName; shadow: boolean; cause: string; count: number }[];
}

interface OrderEntry {
  readonly plugin: string;
  readonly kind: string;
  readonly priority: number;
  readonly deadlineMs: number;
  readonly failurePolicy: string;
  readonly mode: "enforce" | "shadow";
}

export function consoleSnapshot(sources: SnapshotSources): ConsoleSnapshot {
  const { metrics } = sources;
  const status = sources.status();
  const registry = sources.registry();
  const histogram = (h: Histogram): { counts: number[]; count: number; sumUs: number } => ({ counts: [...h.counts], count: h.count, sumUs: h.sumUs });
  return {
    status: {
      version: status.version,
      startedAt: status.startedAt,
      agentsConnected: status.agentsConnected,
      sessionsOpen: status.sessionsOpen,
      configGeneration: status.configGeneration,
      instanceId: status.instanceId,
      configVersion: status.configVersion,
    },
    plugins: sources.plugins().map((p) => {
      const totals = metrics.totals(p.name);
      return { ...p, calls: totals?.calls ?? 0, failures: totals?.failures ?? 0, p50Us: Math.round(totals?.quantile(0.5) ?? 0), p99Us: Math.round(totals?.quantile(0.99) ?? 0) };
    }),
    order: POINTS.map((point) => ({
      point,
      plugins: [...registry.listeners(point), ...registry.shadows(point)].map((l): OrderEntry => ({
        plugin: l.plugin,
        kind: l.kind,
        priority: l.priority,
        deadlineMs: l.deadlineMs,
        failurePolicy: l.failurePolicy,
        mode: l.mode ?? "enforce",
      })),
    })).filter((entry) => entry.plugins.length > 0),
    bucketsUs: LATENCY_BUCKETS_US,
    latency: [
      ...[...metrics.pluginPoints.values()].map((s) => ({ plugin: s.plugin, point: s.point, shadow: false, ...histogram(s.latency) })),
      ...[...metrics.shadows.values()].map((s) => ({ plugin: s.plugin, point: s.point, shadow: true, ...histogram(s.latency) })),
    ],
    failures: [
      ...[...metrics.pluginPoints.values()].flatMap((s) => [...s.failures].map(([cause, count]) => ({ plugin: s.plugin, point: s.point, shadow: false, cause, count }))),
      ...[...metrics.shadows.values()].flatMap((s) => [...s.faults].map(([cause, count]) => ({ plugin: s.plugin, point: s.point, shadow: true, cause, count }))),
    ],
  };
}
