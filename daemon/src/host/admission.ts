// Admission of evaluate calls, HTTP hook requests and hosted sessions' opens: the fixed per-agent and daemon-wide caps,
// under them the adaptive limit (adaptive-limit.ts) sized from the latency of the calls admitted,
// and each agent's fair share of it while several agents call. A call over any of them is refused
// at once with RESOURCE_EXHAUSTED naming the limit; nothing waits in a queue. Owns the counts and
// the counters for metrics, not what an admitted call runs.
import { status } from "@grpc/grpc-js";
import { StatusError } from "@hookd/sdk/internal";
import { AdaptiveLimit } from "./adaptive-limit.js";

export interface AdaptiveSettings {
  /** Off: only the fixed caps admit. */
  readonly enabled: boolean;
  readonly floor: number;
  readonly latencyBufferPercent: number;
  readonly minRttIntervalMs: number;
}

export interface AdmissionLimits {
  /** Evaluate calls in flight per agent. */
  readonly maxInflightPerAgent: number;
  /** Evaluate calls in flight in the whole daemon, all agents together: the adaptive limit's ceiling. */
  readonly maxInflight: number;
  /** Absent: only the fixed caps admit. */
  readonly adaptive?: AdaptiveSettings;
}

/** What refused a call: a config key, or the adaptive limit and an agent's fair share of it. */
export type AdmissionLimit = "limits.maxInflightPerAgent" | "limits.maxInflight" | "limits.adaptive" | "limits.adaptive.fairShare";

/** The refusals admission made, by the limit that refused each (an HTTP hook answers them 503 with Retry-After). */
const refusals = new WeakMap<StatusError, AdmissionLimit>();

/** The limit that refused `error` when admission refused it; undefined for any other error. */
export function refusedBy(error: unknown): AdmissionLimit | undefined {
  return error instanceof StatusError ? refusals.get(error) : undefined;
}

/** How long an agent counts as contending for the limit after its last call (admitted or not). */
const CONTENDING_MS = 1_000;

export class Admission {
  readonly #limits: () => AdmissionLimits;
  readonly #now: () => number;
  readonly #adaptive: AdaptiveLimit;
  readonly #perAgent = new Map<string, number>();
  /** When each agent last asked; swept once per CONTENDING_MS. */
  readonly #lastAsked = new Map<string, number>();
  #sweptAt = 0;
  #total = 0;
  /** Calls admitted since the start. */
  admitted = 0;
  /** Refused calls by the limit that refused them. */
  readonly refused = new Map<AdmissionLimit, number>();

  /** `limits` is read per call: a reload applies to the next call. `now` is in milliseconds. */
  constructor(limits: () => AdmissionLimits, now: () => number = () => performance.now()) {
    this.#limits = limits;
    this.#now = now;
    this.#adaptive = new AdaptiveLimit(() => {
      const { maxInflight, adaptive } = this.#limits();
      return { floor: adaptive?.floor ?? maxInflight, ceiling: maxInflight, latencyBufferPercent: adaptive?.latencyBufferPercent ?? 0, minRttIntervalMs: adaptive?.minRttIntervalMs ?? 0 };
    }, now);
  }

  /** Calls in flight in the daemon. */
  get inflight(): number {
    return this.#total;
  }

  /** The calls admitted at once now: the adaptive limit, or limits.maxInflight when it is off. */
  get limit(): number {
    return this.#limits().adaptive?.enabled === true ? this.#adaptive.limit : this.#limits().maxInflight;
  }

  /** The adaptive limit's latency estimates, in milliseconds (for metrics). */
  get latency(): { readonly minRttMs: number | undefined; readonly sampleRttMs: number | undefined } {
    return { minRttMs: this.#adaptive.minRttMs, sampleRttMs: this.#adaptive.sampleRttMs };
  }

  /** Takes a slot for `agentId` or throws StatusError(RESOURCE_EXHAUSTED); returns the release (call it once). */
  enter(agentId: string): () => void {
    this.#check(agentId);
    this.#perAgent.set(agentId, (this.#perAgent.get(agentId) ?? 0) + 1);
    this.#total++;
    this.admitted++;
    const started = this.#now();
    const epoch = this.#adaptive.epoch;
    return () => {
      this.#total--;
      const left = (this.#perAgent.get(agentId) ?? 1) - 1;
      if (left > 0) this.#perAgent.set(agentId, left);
      else this.#perAgent.delete(agentId);
      this.#adaptive.sample(this.#now() - started, epoch);
    };
  }

  /** Admits work that holds no slot (a call nobody listens to, a session's open): refused as `enter` would, no latency taken. */
  admitAtOnce(agentId: string): void {
    this.#check(agentId);
    this.admitted++;
  }

  #check(agentId: string): void {
    const limits = this.#limits();
    const { maxInflightPerAgent, maxInflight } = limits;
    const now = this.#now();
    this.#contending(agentId, now);
    const mine = this.#perAgent.get(agentId) ?? 0;
    if (mine >= maxInflightPerAgent) {
      throw this.#refuse("limits.maxInflightPerAgent", `agent "${agentId}" has ${mine} evaluate calls in flight (limits.maxInflightPerAgent = ${maxInflightPerAgent})`);
    }
    if (this.#total >= maxInflight) {
      throw this.#refuse("limits.maxInflight", `hookd has ${this.#total} evaluate calls in flight from all agents (limits.maxInflight = ${maxInflight}); retry later`);
    }
    if (limits.adaptive?.enabled !== true) return;
    const limit = this.#adaptive.limit;
    if (this.#total >= limit) {
      const why = this.#adaptive.measuring ? "pinned to limits.adaptive.floor while it measures the latency of a call with no load" : "sized from the latency of the calls it admits";
      throw this.#refuse("limits.adaptive", `hookd has ${this.#total} evaluate calls in flight, its adaptive limit of ${limit} (${why}; between limits.adaptive.floor = ${limits.adaptive.floor} and limits.maxInflight = ${maxInflight}); retry later`);
    }
    // One agent's flood never takes the whole limit: while others call too, each gets its share.
    const contenders = this.#lastAsked.size;
    const share = Math.max(1, Math.ceil(limit / contenders));
    if (contenders > 1 && mine >= share) {
      throw this.#refuse("limits.adaptive.fairShare", `agent "${agentId}" has ${mine} evaluate calls in flight, its fair share of hookd's adaptive limit of ${limit} while ${contenders} agents call (limits.adaptive); retry later`);
    }
  }

  /** Notes that `agentId` asks, and forgets the agents that stopped asking and have nothing in flight. */
  #contending(agentId: string, now: number): void {
    this.#lastAsked.set(agentId, now);
    if (now - this.#sweptAt < CONTENDING_MS) return;
    this.#sweptAt = now;
    for (const [agent, asked] of this.#lastAsked) {
      if (now - asked >= CONTENDING_MS && !this.#perAgent.has(agent)) this.#lastAsked.delete(agent);
    }
  }

  #refuse(limit: AdmissionLimit, message: string): StatusError {
    this.refused.set(limit, (this.refused.get(limit) ?? 0) + 1);
    const error = new StatusError(status.RESOURCE_EXHAUSTED, message);
    refusals.set(error, limit);
    return error;
  }
}
