// Admission of evaluate calls: the per-agent and the daemon-wide in-flight caps. A call over
// either is refused at once with RESOURCE_EXHAUSTED naming the limit; nothing waits in a queue,
// so the calls admitted share the daemon with at most `maxInflight` others. Owns the counts and
// the refusal counters (for metrics), not what an admitted call runs.
import { status } from "@grpc/grpc-js";
import { StatusError } from "@hookd/sdk/internal";

export interface AdmissionLimits {
  /** Evaluate calls in flight per agent. */
  readonly maxInflightPerAgent: number;
  /** Evaluate calls in flight in the whole daemon, all agents together. */
  readonly maxInflight: number;
}

/** The config key that refused a call. */
export type AdmissionLimit = "limits.maxInflightPerAgent" | "limits.maxInflight";

export class Admission {
  readonly #limits: () => AdmissionLimits;
  readonly #perAgent = new Map<string, number>();
  #total = 0;
  /** Refused calls by the limit that refused them. */
  readonly refused = new Map<AdmissionLimit, number>();

  /** `limits` is read per call: a reload applies to the next call. */
  constructor(limits: () => AdmissionLimits) {
    this.#limits = limits;
  }

  /** Calls in flight in the daemon. */
  get inflight(): number {
    return this.#total;
  }

  /** Takes a slot for `agentId` or throws StatusError(RESOURCE_EXHAUSTED); returns the release (call it once). */
  enter(agentId: string): () => void {
    const { maxInflightPerAgent, maxInflight } = this.#limits();
    const mine = this.#perAgent.get(agentId) ?? 0;
    if (mine >= maxInflightPerAgent) {
      throw this.#refuse("limits.maxInflightPerAgent", `agent "${agentId}" has ${mine} evaluate calls in flight (limits.maxInflightPerAgent = ${maxInflightPerAgent})`);
    }
    if (this.#total >= maxInflight) {
      throw this.#refuse("limits.maxInflight", `hookd has ${this.#total} evaluate calls in flight from all agents (limits.maxInflight = ${maxInflight}); retry later`);
    }
    this.#perAgent.set(agentId, mine + 1);
    this.#total++;
    return () => {
      this.#total--;
      const left = (this.#perAgent.get(agentId) ?? 1) - 1;
      if (left > 0) this.#perAgent.set(agentId, left);
      else this.#perAgent.delete(agentId);
    };
  }

  #refuse(limit: AdmissionLimit, message: string): StatusError {
    this.refused.set(limit, (this.refused.get(limit) ?? 0) + 1);
    return new StatusError(status.RESOURCE_EXHAUSTED, message);
  }
}
