// The evaluate API: one call per point for agents that keep their own loop. `evaluate(point, ...)`
// runs the point's evaluation (evaluations.ts: the same decide() and pipeline phases the hosted
// loop uses) under the in-flight caps, and is shared by the gRPC service and the HTTP endpoint;
// the gRPC wrappers, one per point of the evaluate table, only convert and authenticate. Evaluate
// is total: a plugin's own error becomes the point's refusal (deny, reject, block) with the failure named in the trace.
import type { Message } from "@bufbuild/protobuf";
import { EVALUATED_POINTS, EVALUATE_TABLE, matchKeyOf } from "@hookd/sdk";
import type { Budgets, EvaluateSpec, EvaluatedPoint, EvaluationOf, SessionInfo } from "@hookd/sdk";
import type { Cancellation, ProtoEvent, ServerCallInfo } from "@hookd/sdk/internal";
import type { EventBus, EventScope } from "../engine/events.js";
import type { EventOf } from "../engine/listener.js";
import type { PointEnv } from "../engine/decide.js";
import type { PluginRegistry } from "../engine/registry.js";
import type { TraceContextHeaders, Tracing } from "../engine/tracing.js";
import type { Admission } from "./admission.js";
import type { AgentIdentities } from "./identity.js";
import { readEvaluateEvent } from "./evaluate-event.js";
import { EVALUATIONS } from "./evaluations.js";
import type { EvaluationContext } from "./evaluations.js";
import type { RetryAnswers } from "./retries.js";
import type { SessionStore } from "./session-store.js";
import { traceContextOf } from "./trace-context.js";

export interface EvaluateDeps {
  readonly registry: () => PluginRegistry;
  readonly bus: EventBus;
  readonly identities: AgentIdentities;
  readonly store: SessionStore;
  /** The config's budgets (each point runs under the one its spec names) and the steering cap. */
  readonly limits: () => Required<Budgets> & { readonly maxSteeredContinuations: number };
  /** The per-agent and daemon-wide in-flight caps every evaluate call passes. */
  readonly admission: Admission;
  readonly tracing?: Tracing; // set when `tracing.otlp` is configured
  /** Answers a retried gRPC evaluate with its first answer (absent: every call is evaluated). */
  readonly retries?: RetryAnswers;
}

/** The request fields an evaluate RPC may carry besides its event (e.g. agentResolvesAsk). */
type EvaluateRequest = { readonly event?: unknown };
/** What an evaluate call needs of its gRPC call: the caller's headers (identity) and cancellation. */
export type EvaluateCall = Pick<ServerCallInfo, "metadata" | "cancellation">;
/** One point's evaluate RPC: the proto request to the proto response's fields. */
export type EvaluateRpc = (request: EvaluateRequest, call: EvaluateCall) => Promise<Record<string, unknown>>;
/** An evaluate call's options: pre-tool's also say whether the agent resolves an ask itself. */
export type EvaluateCallOptions = EvaluateOptions & { readonly agentResolvesAsk?: boolean };

export interface EvaluateOptions {
  /** The caller's cancellation (the agent's call). */
  readonly signal: Cancellation;
  readonly trace?: TraceContextHeaders; // the caller's traceparent, read only when tracing is on
  /** Where this call's engine events go, when not straight to the daemon's bus (retries.ts records them). */
  readonly bus?: EventBus;
}

export class EvaluateService {
  readonly #deps: EvaluateDeps;
  readonly #context: EvaluationContext;

  constructor(deps: EvaluateDeps) {
    this.#deps = deps;
    this.#context = {
      approvalSeam: (agentId, sessionId) => deps.store.get(agentId, sessionId)?.approvalSeam,
      get maxSteeredContinuations() {
        return deps.limits().maxSteeredContinuations;
      },
    };
  }

  /**
   * Evaluates `point` for `event`: what the point's evaluate RPC answers, typed. Not async: it
   * returns #admit's promise as it is (an async function returning a promise costs extra
   * microtask turns on every call).
   */
  evaluate<P extends EvaluatedPoint>(point: P, event: EventOf<P>, options: EvaluateCallOptions): Promise<EvaluationOf<P>> {
    return this.#evaluate(point, event, options, true);
  }

  /**
   * The evaluate API for a caller that took its admission slot itself: an HTTP hook request is
   * admitted once at its entry, so that its second evaluation (pre-tool after rewrite) is never refused.
   */
  readonly admitted: Pick<EvaluateService, "evaluate"> = {
    evaluate: (point, event, options) => this.#evaluate(point, event, options, false),
  };

  #evaluate<P extends EvaluatedPoint>(point: P, event: EventOf<P>, options: EvaluateCallOptions, admit: boolean): Promise<EvaluationOf<P>> {
    const evaluation = EVALUATIONS[point];
    const { unheard } = evaluation;
    // Nobody listens: answered without entering the point (a cancelled caller still takes the
    // point's path, which answers CANCELLED).
    if (unheard !== undefined && !options.signal.aborted && !this.#heard(point, event)) {
      return admit ? this.#admitAtOnce(event.session, (started) => unheard(event, started)) : Promise.resolve(unheard(event, performance.now()));
    }
    const run = (started: number): Promise<EvaluationOf<P>> => evaluation.run(this.#env(event, options), event, options, this.#context, started);
    return admit ? this.#admit(event.session, run) : run(performance.now());
  }

  /** Whether any plugin (enforcing or shadow) listens for this event at `point`. */
  #heard<P extends EvaluatedPoint>(point: P, event: EventOf<P>): boolean {
    const registry = this.#deps.registry();
    const key = matchKeyOf(point, event);
    return registry.listeners(point, key).length > 0 || registry.shadows(point, key).length > 0;
  }

  // ---- gRPC wrappers, one per point of the evaluate table: convert and authenticate the event,
  // evaluate (or answer a retry, retries.ts), convert. The unary RPCs and the Evaluate stream share
  // them. They pass the call's lazy cancellation: its AbortSignal is made only if a plugin call waits.

  /** The proto request to proto response of one point, as its unary RPC answers; rejects with the RPC's StatusError. */
  rpc(point: EvaluatedPoint): EvaluateRpc {
    return this.#rpcs[point];
  }

  readonly #rpcs = Object.fromEntries(
    EVALUATED_POINTS.map((point): [EvaluatedPoint, EvaluateRpc] => {
      const spec = EVALUATE_TABLE[point] as EvaluateSpec<unknown, EvaluateCallOptions, unknown>;
      const rpc: EvaluateRpc = async (request, call) => {
        const trace = this.#deps.tracing === undefined ? undefined : traceContextOf(call.metadata);
        const options: EvaluateCallOptions = { ...spec.requestOptions(request as unknown as Message), signal: call.cancellation, trace };
        const event = readEvaluateEvent(point, request.event as ProtoEvent<typeof point> | undefined, call.metadata, this.#deps.identities);
        const run = async (bus: EventBus): Promise<Record<string, unknown>> => spec.toResponse(await this.evaluate(point, event, { ...options, bus }));
        return this.#deps.retries?.enabled === true ? this.#deps.retries.answer(point, event, this.#deps.bus, run) : run(this.#deps.bus);
      };
      return [point, rpc];
    }),
  ) as Readonly<Record<EvaluatedPoint, EvaluateRpc>>;

  /** Enforces the in-flight limits (per agent, then daemon-wide) around one evaluation. */
  async #admit<R>(session: SessionInfo, body: (started: number) => Promise<R>): Promise<R> {
    const release = this.#deps.admission.enter(session.agentId);
    try {
      return await body(performance.now());
    } finally {
      release();
    }
  }

  /** #admit for an answer known at once: the in-flight caps still refuse a call over them. */
  #admitAtOnce<R>(session: SessionInfo, answer: (started: number) => R): Promise<R> {
    // A refusal thrown in the executor rejects the promise, as #admit's would.
    return new Promise((resolve) => {
      this.#deps.admission.admitAtOnce(session.agentId);
      resolve(answer(performance.now()));
    });
  }

  /** The environment the point runs in; the point picks its own budget from the two (PointSpec.budget). */
  #env(event: { readonly session: SessionInfo }, options: EvaluateOptions): PointEnv {
    const limits = this.#deps.limits();
    return {
      registry: this.#deps.registry(),
      bus: options.bus ?? this.#deps.bus,
      signal: options.signal,
      pointBudgetMs: limits.pointBudgetMs,
      sessionEndBudgetMs: limits.sessionEndBudgetMs,
      scope: scopeOf(event),
      ...(this.#deps.tracing === undefined ? {} : { trace: this.#deps.tracing.under(options.trace) }),
    };
  }
}

/**
 * Where in the session an event sits: its session, turn and step (a turn end's steps, a session
 * end's turns), the call at tool points, the agent's event name at agent-event.
 */
function scopeOf(of: { readonly session: SessionInfo }): EventScope {
  const event = of as { session: SessionInfo; turn?: number; step?: number; steps?: number; turns?: number; eventName?: string; call?: { turn: number; step: number; callId: string } };
  const { sessionId, agentId } = event.session;
  const { call } = event;
  const turn = event.turn ?? call?.turn ?? event.turns ?? 0;
  const step = event.step ?? call?.step ?? event.steps ?? 0;
  if (call !== undefined) return { sessionId, agentId, turn, step, callId: call.callId };
  return event.eventName === undefined ? { sessionId, agentId, turn, step } : { sessionId, agentId, turn, step, eventName: event.eventName };
}
