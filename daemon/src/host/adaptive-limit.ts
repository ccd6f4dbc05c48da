// The concurrency limit admission sizes from measured latency: a gradient controller after Envoy's
// adaptive concurrency filter. Owns the limit and the latency estimates it is computed from; knows
// nothing of agents or calls (admission.ts feeds it the latency of every call it admitted).
//
// Every window of completed calls (at least one limit's worth), the limit becomes
// limit × (noLoad × (1 + buffer) / median) + √limit, the gradient clamped to [0.5, 2]: it shrinks
// while the typical call is slower than the no-load latency allows, and grows while it is not.
// The no-load latency is measured with the limit pinned to the floor: after the first window, and
// again every `minRttIntervalMs`, since what a call costs changes with plugins and load.

export interface AdaptiveLimitSettings {
  /** The limit never goes below this (and the no-load latency is measured at it). */
  readonly floor: number;
  /** Nor above this: the fixed cap, limits.maxInflight. */
  readonly ceiling: number;
  /** How much slower than the no-load latency the median call may be before the limit shrinks, in percent. */
  readonly latencyBufferPercent: number;
  /** How often the no-load latency is measured again. */
  readonly minRttIntervalMs: number;
}

/** Calls a window takes at least; fewer make the median noise. */
const MIN_WINDOW = 16;
/** Calls at the floor the no-load latency is the median of. */
const MEASURE_WINDOW = 32;
const MIN_GRADIENT = 0.5;
const MAX_GRADIENT = 2;

export class AdaptiveLimit {
  readonly #settings: () => AdaptiveLimitSettings;
  readonly #now: () => number;
  /** Undefined until the first update: the ceiling, whatever it is then. */
  #limit: number | undefined;
  #minRttMs: number | undefined;
  #lastMedianMs: number | undefined;
  /** Whether the limit is pinned to the floor while the no-load latency is measured. */
  #measuring = false;
  /** When the next measurement starts; the first follows the first window. */
  #nextMeasureAt = Number.NEGATIVE_INFINITY;
  /** Changes whenever a measurement starts or ends: a call admitted before belongs to no window after. */
  #epoch = 0;
  #window: number[] = [];

  /** `settings` is read at every update, not here: a reload applies to the next window. */
  constructor(settings: () => AdaptiveLimitSettings, now: () => number = () => performance.now()) {
    this.#settings = settings;
    this.#now = now;
  }

  /** The calls admitted at once now. */
  get limit(): number {
    const { floor, ceiling } = this.#bounds();
    return this.#measuring ? floor : Math.floor(clamp(this.#limit ?? ceiling, floor, ceiling));
  }

  /** True while the limit is pinned to the floor to measure the no-load latency. */
  get measuring(): boolean {
    return this.#measuring;
  }

  /** The no-load latency in milliseconds, once measured. */
  get minRttMs(): number | undefined {
    return this.#minRttMs;
  }

  /** The median latency of the last window, in milliseconds. */
  get sampleRttMs(): number | undefined {
    return this.#lastMedianMs;
  }

  /** Tag a call with this when admitting it, and pass it back with its latency. */
  get epoch(): number {
    return this.#epoch;
  }

  /** One admitted call's latency; `epoch` is what `epoch` was when it was admitted. */
  sample(latencyMs: number, epoch: number): void {
    if (epoch !== this.#epoch || !(latencyMs >= 0)) return;
    this.#window.push(latencyMs);
    if (this.#window.length < (this.#measuring ? MEASURE_WINDOW : Math.max(MIN_WINDOW, this.limit))) return;
    const median = medianOf(this.#window);
    this.#window = [];
    this.#lastMedianMs = median;
    if (this.#measuring) return this.#measured(median);
    // The first window also sets a provisional no-load latency, so the limit adapts before the first measurement.
    this.#minRttMs = Math.min(this.#minRttMs ?? median, median);
    if (this.#now() >= this.#nextMeasureAt) return this.#startMeasuring();
    const { latencyBufferPercent } = this.#settings();
    const allowed = this.#minRttMs * (1 + latencyBufferPercent / 100);
    // A median of 0 (a clock too coarse for the call) says the calls are fast: grow.
    const gradient = median === 0 ? MAX_GRADIENT : clamp(allowed / median, MIN_GRADIENT, MAX_GRADIENT);
    const { floor, ceiling } = this.#bounds();
    const current = clamp(this.#limit ?? ceiling, floor, ceiling);
    this.#limit = clamp(current * gradient + Math.sqrt(current), floor, ceiling);
  }

  #startMeasuring(): void {
    this.#measuring = true;
    this.#epoch++;
  }

  #measured(median: number): void {
    this.#minRttMs = median;
    this.#measuring = false;
    this.#epoch++;
    this.#nextMeasureAt = this.#now() + this.#settings().minRttIntervalMs;
  }

  #bounds(): { floor: number; ceiling: number } {
    const { floor, ceiling } = this.#settings();
    return { floor: Math.min(floor, ceiling), ceiling };
  }
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

function medianOf(values: number[]): number {
  const sorted = values.sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
