// Per-plugin call counters and a latency window for the admin service: cheap on the hot path
// (a few integer bumps and one typed-array write per call), with percentiles computed only when
// someone asks. Owns no policy; the plugin decides what counts as a failure.

/** How many recent RPC durations the percentiles are computed over. */
const WINDOW = 512;

export interface CallCounters {
  /** Every call of the plugin's listeners, including those failed fast while it was down. */
  readonly calls: number;
  /** Calls that ended in a fault (failed fast included); caller cancellations are not failures. */
  readonly failures: number;
  /** Faults since the last usable answer; ejection compares this with its threshold. */
  readonly consecutiveFailures: number;
  /** Calls cut short by the caller (turn aborted, point budget spent) before the plugin's own deadline. */
  readonly cancelled: number;
  /** Attach answers refused: for an id never sent, or one answered before. */
  readonly refusedAnswers: number;
  /** p50 and p99 of the last RPCs (not of calls failed fast), in microseconds; 0 with no sample. */
  readonly latencyP50Us: number;
  readonly latencyP99Us: number;
}

export class CallStats {
  #calls = 0;
  #failures = 0;
  #consecutive = 0;
  #cancelled = 0;
  #refused = 0;
  readonly #window = new Float64Array(WINDOW);
  #next = 0;
  #filled = 0;

  /** A call started (RPC or not). */
  called(): void {
    this.#calls++;
  }

  /** An RPC finished after `durationMs`, whatever its outcome. */
  sample(durationMs: number): void {
    this.#window[this.#next] = durationMs;
    this.#next = (this.#next + 1) % WINDOW;
    if (this.#filled < WINDOW) this.#filled++;
  }

  succeeded(): void {
    this.#consecutive = 0;
  }

  /** Returns the consecutive failure count including this one. */
  failed(): number {
    this.#failures++;
    return ++this.#consecutive;
  }

  /** A call refused without an RPC (plugin down or ejected): a failure, but not a new one in a row. */
  failedFast(): void {
    this.#failures++;
  }

  /** An Attach answer was refused; the call it claimed to answer is unaffected. */
  refused(): void {
    this.#refused++;
  }

  cancelledByCaller(): void {
    this.#cancelled++;
  }

  /** After a re-admission the plugin starts with a clean slate. */
  resetConsecutive(): void {
    this.#consecutive = 0;
  }

  get consecutiveFailures(): number {
    return this.#consecutive;
  }

  snapshot(): CallCounters {
    const sorted = this.#window.slice(0, this.#filled).sort();
    const at = (q: number): number => {
      if (sorted.length === 0) return 0;
      const index = Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
      return Math.round((sorted[Math.max(0, index)] ?? 0) * 1000);
    };
    return {
      calls: this.#calls,
      failures: this.#failures,
      consecutiveFailures: this.#consecutive,
      cancelled: this.#cancelled,
      refusedAnswers: this.#refused,
      latencyP50Us: at(0.5),
      latencyP99Us: at(0.99),
    };
  }
}
