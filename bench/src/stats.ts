// Measurement loops and their summaries. Latency scenarios are measured interleaved: every
// scenario is set up first, then each gets a short time slice in turn (in a new random order each
// round) until each has its count or its time, so load from elsewhere on the machine lands on all
// of them alike and the ratios between them stay meaningful. Throughput is measured in
// alternating windows for the same reason. Times are in microseconds.

export interface Bounds {
  /** Calls made first and thrown away (JIT, channel, caches). */
  readonly warmup: number;
  /** At most this many measured calls... */
  readonly count: number;
  /** ...and at most this much measured time, in milliseconds. */
  readonly maxMs: number;
}

export interface Summary {
  readonly count: number;
  readonly p50_us: number;
  readonly p90_us: number;
  readonly p99_us: number;
  readonly mean_us: number;
  readonly min_us: number;
  readonly max_us: number;
  readonly ops_per_s?: number;
}

/** Nearest-rank percentile of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

export function summarize(samplesUs: readonly number[], elapsedMs?: number): Summary {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  const round = (value: number): number => Math.round(value * 10) / 10;
  return {
    count: sorted.length,
    p50_us: round(percentile(sorted, 50)),
    p90_us: round(percentile(sorted, 90)),
    p99_us: round(percentile(sorted, 99)),
    mean_us: round(sum / Math.max(1, sorted.length)),
    min_us: round(sorted[0] ?? Number.NaN),
    max_us: round(sorted[sorted.length - 1] ?? Number.NaN),
    ...(elapsedMs === undefined ? {} : { ops_per_s: Math.round((sorted.length / elapsedMs) * 1000) }),
  };
}

export interface Measured {
  readonly name: string;
  readonly call: () => Promise<unknown>;
  readonly bounds: Bounds;
  /**
   * CPU time so far of the processes serving this entry, in milliseconds, read around each of
   * its slices: only what they used while this entry ran counts.
   */
  readonly cpuMs?: () => number;
}

export interface Measurement extends Summary {
  /** CPU time of the serving processes per measured call, in microseconds (with `cpuMs`). */
  readonly cpu_us_per_call?: number;
}

/**
 * Sequential latency (one call in flight) of every entry, interleaved: after every entry's
 * warm-up, rounds give each unfinished entry `sliceMs` of calls (at least one), in a new random
 * order every round. What a slice leaves behind (its processes finishing their work, the client's
 * garbage) lands on the slice after it; in a fixed order that is always the same neighbour. With
 * floor_relay right before inprocess, inprocess/floor_single read 1.22; with the two swapped, 1.15.
 * `random` is for tests.
 */
export async function interleaved(entries: readonly Measured[], sliceMs: number, random: () => number = Math.random): Promise<Map<string, Measurement>> {
  for (const entry of entries) for (let i = 0; i < entry.bounds.warmup; i++) await entry.call();
  const state = entries.map((entry) => ({ entry, samples: [] as number[], spentMs: 0, cpuMs: 0 }));
  const unfinished = (s: (typeof state)[number]): boolean => s.samples.length < s.entry.bounds.count && s.spentMs < s.entry.bounds.maxMs;
  for (let open = state.filter(unfinished); open.length > 0; open = state.filter(unfinished)) {
    for (const s of shuffled(open, random)) {
      const cpuBefore = s.entry.cpuMs?.() ?? 0;
      const sliceEnd = performance.now() + sliceMs;
      do {
        const before = performance.now();
        await s.entry.call();
        const took = performance.now() - before;
        s.samples.push(took * 1000);
        s.spentMs += took;
      } while (performance.now() < sliceEnd && unfinished(s));
      s.cpuMs += (s.entry.cpuMs?.() ?? 0) - cpuBefore;
    }
  }
  return new Map(
    state.map((s) => [
      s.entry.name,
      { ...summarize(s.samples), ...(s.entry.cpuMs === undefined ? {} : { cpu_us_per_call: Math.round((s.cpuMs * 1000) / Math.max(1, s.samples.length)) }) },
    ]),
  );
}

/** A copy of `items` in random order (Fisher-Yates). */
function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/** Latency samples and completions of one or more concurrent windows. */
export interface Window {
  readonly samples: number[];
  completed: number;
  elapsedMs: number;
}

export function windowSummary(window: Window): Summary {
  return { ...summarize(window.samples), ops_per_s: Math.round((window.completed / Math.max(1, window.elapsedMs)) * 1000) };
}

/**
 * `concurrency` loops, each making one call at a time, for `warmupMs` (not measured) then
 * `durationMs`. Adds to `into` the latency of calls started inside the window and the calls
 * completed inside it (throughput = completed / window time).
 */
export async function concurrentWindow(
  call: (loop: number) => Promise<unknown>,
  options: { readonly concurrency: number; readonly warmupMs: number; readonly durationMs: number },
  into: Window,
): Promise<void> {
  const measureFrom = performance.now() + options.warmupMs;
  const stopAt = measureFrom + options.durationMs;
  const loop = async (index: number): Promise<void> => {
    for (;;) {
      const before = performance.now();
      if (before >= stopAt) return;
      await call(index);
      const after = performance.now();
      if (before >= measureFrom) into.samples.push((after - before) * 1000);
      if (after >= measureFrom && after <= stopAt) into.completed++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => loop(index)));
  into.elapsedMs += options.durationMs;
}
