// Counters and latency histograms kept from the engine's events: per plugin and point (calls,
// failures by cause, failure-policy effects, latency), per point (applied decisions), and per
// plugin (calls, failures, a window of recent latencies for `hookd plugins` p50/p99). The hot
// path is a map lookup and a few array increments; rendering the Prometheus text happens only
// on a scrape (prometheus.ts). Shadow calls are kept apart (ShadowStats): they never count as
// the point's calls or decisions, only in the plugin's own totals. Owns no I/O.
import type { PointName } from "@hookd/sdk";
import type { EngineEvent } from "../engine/events.js";

/** Histogram bucket upper bounds, in microseconds (rendered in seconds). */
export const LATENCY_BUCKETS_US: readonly number[] = Object.freeze([
  50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000, 10_000_000,
]);

/** How many recent calls of a plugin the p50/p99 of `hookd plugins` are computed over. */
export const LATENCY_WINDOW = 1024;

export class Histogram {
  /** Non-cumulative counts; the last slot is +Inf. */
  readonly counts = new Float64Array(LATENCY_BUCKETS_US.length + 1);
  sumUs = 0;
  count = 0;

  observe(us: number): void {
    let i = 0;
    while (i < LATENCY_BUCKETS_US.length && us > (LATENCY_BUCKETS_US[i] ?? Infinity)) i++;
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.sumUs += us;
    this.count++;
  }
}

/** One plugin at one point. */
export class PluginPointStats {
  /** By outcome: answered, passed, fault, error. */
  readonly outcomes = new Map<string, number>();
  /** Failures (faults and listener errors) by cause. */
  readonly failures = new Map<string, number>();
  failOpen = 0;
  failClosed = 0;
  readonly latency = new Histogram();

  constructor(
    readonly plugin: string,
    readonly point: PointName,
  ) {}
}

/** Whole-plugin counters for the admin service. */
export class PluginTotals {
  calls = 0;
  failures = 0;
  readonly #window = new Float64Array(LATENCY_WINDOW);
  #next = 0;
  #filled = 0;

  record(us: number, failed: boolean): void {
    this.calls++;
    if (failed) this.failures++;
    this.#window[this.#next] = us;
    this.#next = (this.#next + 1) % LATENCY_WINDOW;
    if (this.#filled < LATENCY_WINDOW) this.#filled++;
  }

  /** The q-quantile (0..1) of the recent window, nearest rank, in microseconds; 0 with no calls. */
  quantile(q: number): number {
    if (this.#filled === 0) return 0;
    const sorted = this.#window.slice(0, this.#filled).sort();
    const rank = Math.min(this.#filled - 1, Math.max(0, Math.ceil(q * this.#filled) - 1));
    return sorted[rank] ?? 0;
  }
}

/** One shadow plugin at one point: what it would have decided, its faults, its latency. */
export class ShadowStats {
  /** By outcome and decision, keyed "<outcome>\u0000<decision>". */
  readonly verdicts = new Map<string, number>();
  /** Faults and listener errors, by cause: counted, never turned into a failure policy's answer. */
  readonly faults = new Map<string, number>();
  readonly latency = new Histogram();

  constructor(
    readonly plugin: string,
    readonly point: PointName,
  ) {}
}

export class DecisionStats {
  readonly byDecision = new Map<string, number>();
  readonly latency = new Histogram();
}

const increment = (map: Map<string, number>, key: string): void => {
  map.set(key, (map.get(key) ?? 0) + 1);
};

/** An engine observer that keeps every counter the metrics endpoint and `hookd plugins` report. */
export class EngineMetrics {
  readonly pluginPoints = new Map<string, PluginPointStats>();
  readonly plugins = new Map<string, PluginTotals>();
  readonly decisions = new Map<PointName, DecisionStats>();
  readonly shadows = new Map<string, ShadowStats>();

  readonly observe = (event: EngineEvent): void => {
    if (event.type === "invocation") {
      const { plugin, point, outcome, durationUs, decision, fault } = event.invocation;
      const key = `${plugin}\u0000${point}`;
      let stats = this.pluginPoints.get(key);
      if (stats === undefined) this.pluginPoints.set(key, (stats = new PluginPointStats(plugin, point)));
      increment(stats.outcomes, outcome);
      stats.latency.observe(durationUs);
      const failed = outcome === "fault" || outcome === "error";
      if (failed) increment(stats.failures, fault ?? "listener_error");
      // A fault's failure policy either let the plugin pass (open) or refused in its name (closed).
      if (outcome === "fault") {
        if (decision === "pass") stats.failOpen++;
        else stats.failClosed++;
      }
      let totals = this.plugins.get(plugin);
      if (totals === undefined) this.plugins.set(plugin, (totals = new PluginTotals()));
      totals.record(durationUs, failed);
    } else if (event.type === "decision") {
      let stats = this.decisions.get(event.point);
      if (stats === undefined) this.decisions.set(event.point, (stats = new DecisionStats()));
      increment(stats.byDecision, event.decision);
      stats.latency.observe(event.durationUs);
    } else if (event.type === "shadow-decision") {
      const { plugin, point, outcome, decision, cause, durationUs } = event.shadow;
      const key = `${plugin}\u0000${point}`;
      let stats = this.shadows.get(key);
      if (stats === undefined) this.shadows.set(key, (stats = new ShadowStats(plugin, point)));
      increment(stats.verdicts, `${outcome}\u0000${decision}`);
      stats.latency.observe(durationUs);
      const failed = outcome === "fault" || outcome === "error";
      if (failed) increment(stats.faults, cause ?? "listener_error");
      let totals = this.plugins.get(plugin);
      if (totals === undefined) this.plugins.set(plugin, (totals = new PluginTotals()));
      totals.record(durationUs, failed);
    }
  };

  totals(plugin: string): PluginTotals | undefined {
    return this.plugins.get(plugin);
  }
}
