// Answers a retried evaluate with the first answer. A proxy may send an evaluate again after it
// was sent (Envoy retry policies, a client retrying on UNAVAILABLE after the answer was lost): the
// same call at the same point, within a bounded window, gets the answer it got the first time,
// without running plugins again, and its decisions are audited again marked `retry`.
// The key: agent, session and point, the tool call id at tool points, and a digest of the whole
// event: a retry is the same request, so a call id reused with other arguments (or two distinct
// events at a non-tool point, which differ in turn, step, name or payload) is evaluated as a call
// of its own. Bounded memory: at most `maxEntries`, each kept `windowMs`.
import { createHash } from "node:crypto";
import type { PointName } from "@hookd/sdk";
import { EventBus } from "../engine/events.js";
import type { EngineEvent } from "../engine/events.js";

export interface RetryLimits {
  /** How long an answer is kept for a retry; 0 turns retry answering off. */
  readonly windowMs: number;
  /** At most this many answers are kept (the oldest goes first). */
  readonly maxEntries: number;
  /** The config generation: answers given under another one are dropped (a reload changes who decides). */
  readonly epoch: number;
}

type DecisionEvent = Extract<EngineEvent, { type: "decision" }>;

/** Told of every evaluate answered from the cache, with the first call's decisions. */
export type RetryObserver = (point: PointName, decisions: readonly DecisionEvent[]) => void;

interface Entry {
  readonly at: number;
  readonly answer: Promise<unknown>;
  readonly decisions: DecisionEvent[];
}

/** Forwards every event to the daemon's bus and keeps the decisions of one evaluate call. */
class RecordingBus extends EventBus {
  constructor(
    private readonly inner: EventBus,
    private readonly decisions: DecisionEvent[],
  ) {
    super();
  }

  override emit(event: EngineEvent): void {
    if (event.type === "decision") this.decisions.push(event);
    this.inner.emit(event);
  }
}

export class RetryAnswers {
  readonly #entries = new Map<string, Entry>();
  readonly #limits: () => RetryLimits;
  readonly #onRetry: RetryObserver;
  readonly #now: () => number;
  #epoch: number | undefined;
  /** Evaluates answered from a first answer, by point (hookd_evaluate_retries_total). */
  readonly answered = new Map<PointName, number>();

  constructor(limits: () => RetryLimits, onRetry: RetryObserver, now: () => number = Date.now) {
    this.#limits = limits;
    this.#onRetry = onRetry;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Whether retries are answered at all (limits.retryWindowMs set): off, a call costs nothing here. */
  get enabled(): boolean {
    const limits = this.#limits();
    return limits.windowMs > 0 && limits.maxEntries > 0;
  }

  /**
   * The answer of `evaluate`, or of the first call with the same key still in the window. A
   * first call that failed (cancelled by the proxy that then retried, refused by a limit) is not
   * kept: its retry is evaluated afresh. `evaluate` gets the bus its decisions go to.
   */
  async answer<R>(point: PointName, event: RetryKeyEvent, bus: EventBus, evaluate: (bus: EventBus) => Promise<R>): Promise<R> {
    const limits = this.#limits();
    if (limits.windowMs <= 0 || limits.maxEntries <= 0) return evaluate(bus);
    if (this.#epoch !== limits.epoch) {
      this.#entries.clear();
      this.#epoch = limits.epoch;
    }
    const key = retryKey(point, event);
    const now = this.#now();
    this.#prune(now, limits);
    const first = this.#entries.get(key);
    if (first !== undefined) {
      try {
        const answer = (await first.answer) as R;
        this.answered.set(point, (this.answered.get(point) ?? 0) + 1);
        this.#onRetry(point, first.decisions);
        return answer;
      } catch {
        // The first call failed and was dropped; this one is a first call of its own.
      }
    }
    const decisions: DecisionEvent[] = [];
    const answer = evaluate(new RecordingBus(bus, decisions));
    const entry: Entry = { at: now, answer, decisions };
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    this.#prune(now, limits);
    try {
      return await answer;
    } catch (error) {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
      throw error;
    }
  }

  /** Drops expired answers (the oldest come first) and those over the cap. */
  #prune(now: number, limits: RetryLimits): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= limits.maxEntries && now - entry.at < limits.windowMs) break;
      this.#entries.delete(key);
    }
  }
}

/** What the key is made of besides the whole event's digest: the authenticated session and, at tool points, the call. */
export interface RetryKeyEvent {
  readonly session: { readonly agentId: string; readonly sessionId: string };
  readonly call?: { readonly callId: string };
}

export function retryKey(point: PointName, event: RetryKeyEvent): string {
  const { agentId, sessionId } = event.session;
  return `${agentId}\u0000${sessionId}\u0000${point}\u0000${event.call?.callId ?? ""}\u0000${digest(event)}`;
}

function digest(event: unknown): string {
  const text = JSON.stringify(event, (_key, value: unknown) => (typeof value === "bigint" ? value.toString() : value instanceof Uint8Array ? Buffer.from(value).toString("base64") : value));
  return createHash("sha256").update(text).digest("base64url");
}
