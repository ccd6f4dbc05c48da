// Retries of an evaluate call the daemon refused for load (RESOURCE_EXHAUSTED) or could not be
// reached for (UNAVAILABLE): after a backoff drawn at random up to a bound that doubles each time
// (full jitter, so that refused agents do not come back together), within the call's own deadline.
// Owns the policy and the waiting; what an attempt sends is the caller's.
import { status } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import { StatusError, toStatusError } from "../grpc/status.js";

/**
 * How an evaluate call refused RESOURCE_EXHAUSTED or failed UNAVAILABLE is tried again: at most
 * `maxAttempts` attempts in all (1: never again), each after a random wait of up to
 * `initialBackoffMs`, doubled each time up to `maxBackoffMs`, and never past the call's
 * `timeoutMs` (the last status is then the answer). Defaults: 4 attempts, 20 ms, 1 s.
 */
export interface EvaluateRetryOptions {
  readonly maxAttempts?: number;
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

export const DEFAULT_EVALUATE_RETRY: Required<EvaluateRetryOptions> = Object.freeze({ maxAttempts: 4, initialBackoffMs: 20, maxBackoffMs: 1_000 });

const RETRIED = new Set<number>([status.RESOURCE_EXHAUSTED, status.UNAVAILABLE]);

/** The policy `given` asks for, the defaults filling the rest; a bad field is HookdError("invalid_argument"). */
export function evaluateRetryPolicy(given: EvaluateRetryOptions = {}): Required<EvaluateRetryOptions> {
  const policy = { ...DEFAULT_EVALUATE_RETRY, ...given };
  for (const [field, value] of Object.entries(policy)) {
    if (!Number.isSafeInteger(value) || value < (field === "initialBackoffMs" ? 0 : 1)) {
      throw new HookdError("invalid_argument", `connectHost: evaluateRetry.${field} must be an integer ${field === "initialBackoffMs" ? ">= 0" : ">= 1"}, got ${JSON.stringify(value)}`);
    }
  }
  return policy;
}

export interface AttemptOptions {
  readonly signal?: AbortSignal | undefined;
  /** What is left of the call's deadline; undefined: none. */
  readonly timeoutMs?: number | undefined;
}

/**
 * Runs `attempt` until it succeeds, fails with a status not retried, or the policy or the
 * deadline runs out; rejects with the last attempt's error. `random` is in [0, 1).
 */
export async function withRetries<T>(
  policy: Required<EvaluateRetryOptions>,
  options: AttemptOptions,
  attempt: (options: AttemptOptions) => Promise<T>,
  random: () => number = Math.random,
): Promise<T> {
  const started = performance.now();
  const left = (): number | undefined => (options.timeoutMs === undefined ? undefined : options.timeoutMs - (performance.now() - started));
  let bound = policy.initialBackoffMs;
  for (let attempts = 1; ; attempts++) {
    try {
      return await attempt({ signal: options.signal, timeoutMs: left() });
    } catch (error) {
      const failure = error instanceof StatusError ? error : toStatusError(error);
      if (!RETRIED.has(failure.code) || attempts >= policy.maxAttempts || options.signal?.aborted === true) throw error;
      const wait = Math.floor(random() * bound);
      const remaining = left();
      // A retry that could not start before the deadline would only turn the refusal into DEADLINE_EXCEEDED.
      if (remaining !== undefined && wait >= remaining) throw error;
      await sleep(wait, options.signal);
      bound = Math.min(policy.maxBackoffMs, bound * 2);
    }
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (the next attempt then answers CANCELLED). */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
