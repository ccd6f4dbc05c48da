// The evaluate API: one call per point for agents that keep their own loop. The typed methods
// (evaluatePreTool, ...) run the same point functions the hosted loop uses (plugins, deadlines,
// merge, audit) and are shared by the gRPC service and the Claude Code HTTP endpoint; the gRPC
// wrappers only convert and authenticate. Evaluate is total: a plugin's own error becomes the
// point's refusal (deny, reject, block) with the failure named in the trace.
import type { Message } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import { EVALUATED_POINTS, EVALUATE_TABLE, block, deny, reject } from "@hookd/sdk";
import type { AgentMessage, ApprovalDecision, Budgets, DecisionTrace, EvaluateSpec, EvaluatedPoint, Pass, PostToolDecision, PreStepDecision, PreToolDecision, RewriteEvaluation, SessionInfo, ToolResult, TurnStoppingDecision } from "@hookd/sdk";
import type { Cancellation, ProtoEvent, ServerCallInfo } from "@hookd/sdk/internal";
import { StatusError } from "@hookd/sdk/internal";
import type { EventBus, EventScope } from "../engine/events.js";
import type { EventOf } from "../engine/listener.js";
import { decideTurnStop } from "../engine/loop/index.js";
import { RETURN_ASK, reviewResult, decideToolPolicy, rewriteCall } from "../engine/pipeline/index.js";
import { decide } from "../engine/decide.js";
import type { PointEnv } from "../engine/decide.js";
import type { PluginRegistry } from "../engine/registry.js";
import type { TraceContextHeaders, Tracing } from "../engine/tracing.js";
import type { Admission } from "./admission.js";
import type { AgentIdentities } from "./identity.js";
import { readEvaluateEvent } from "./evaluate-event.js";
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

/** Who decided, whether a failure policy or a listener error made the decision, and how long it took. */
export type Trace = DecisionTrace;

/** The request fields an evaluate RPC may carry besides its event (e.g. agentResolvesAsk). */
type EvaluateRequest = { readonly event?: unknown };
/** What an evaluate call needs of its gRPC call: the caller's headers (identity) and cancellation. */
export type EvaluateCall = Pick<ServerCallInfo, "metadata" | "cancellation">;
/** One point's evaluate RPC: the proto request to the proto response's fields. */
export type EvaluateRpc = (request: EvaluateRequest, call: EvaluateCall) => Promise<Record<string, unknown>>;
type EvaluateCallOptions = EvaluateOptions & { readonly agentResolvesAsk?: boolean };

export interface EvaluateOptions {
  /** The caller's cancellation (the agent's call). */
  readonly signal: Cancellation;
  readonly trace?: TraceContextHeaders; // the caller's traceparent, read only when tracing is on
  /** Where this call's engine events go, when not straight to the daemon's bus (retries.ts records them). */
  readonly bus?: EventBus;
}

export class EvaluateService {
  readonly #deps: EvaluateDeps;

  constructor(deps: EvaluateDeps) {
    this.#deps = deps;
  }

  // ---- typed core: not async, each returns #admit's promise as it is (an async function
  // returning a promise costs extra microtask turns on every call).

  evaluateSessionStart(event: EventOf<"session-start">, options: EvaluateOptions): Promise<{ contexts: readonly AgentMessage[] }> {
    return this.#admit(event.session, async () => {
      const outcome = await decide(this.#env(event.session, { turn: 0, step: 0 }, options), "session-start", event);
      return { contexts: outcome.answers.flatMap(({ plugin, decision }) => decision.messages.map((m) => sourced(plugin, m))) };
    });
  }

  evaluatePreStep(event: EventOf<"pre-step">, options: EvaluateOptions): Promise<{ decision: PreStepDecision; trace: Trace }> {
    return this.#admit(event.session, async (started) => {
      const outcome = await decide(this.#env(event.session, scopeOf(event), options), "pre-step", event);
      if (outcome.type === "error") return { decision: reject(outcome.error.message), trace: trace(outcome.error.plugin, "listener_error", started) };
      return { decision: outcome.decision, trace: trace(outcome.decidedBy, outcome.fault?.fault ?? "", started) };
    });
  }

  /**
   * The rewrite chain over a proposed call: the call with its effective arguments, or a deny when
   * a fail-closed rewrite plugin failed (or a rewrite handler erred). Evaluate pre-tool with the call.
   */
  evaluateRewrite(event: EventOf<"rewrite">, options: EvaluateOptions): Promise<RewriteEvaluation> {
    // Nobody rewrites this tool: the call is given back as it is, without entering the chain (a
    // cancelled caller still takes the chain's path, which answers CANCELLED).
    if (!this.#rewrites(event.call.toolName) && !options.signal.aborted) return this.#admitAtOnce(event.session, (started) => ({ outcome: { kind: "call", call: event.call }, trace: trace("default", "", started) }));
    return this.#admit(event.session, async (started) => {
      const verdict = await rewriteCall(this.#env(event.session, scopeOf(event), options), event.session, event.call);
      switch (verdict.kind) {
        case "rewritten":
          return { outcome: { kind: "call", call: verdict.call }, trace: verdict.trace ?? trace("default", "", started) };
        case "deny":
        case "error":
          return { outcome: deny(verdict.reason), trace: verdict.trace };
        case "cancelled":
          throw new StatusError(status.CANCELLED, verdict.reason);
      }
    });
  }

  /** Whether any plugin (enforcing or shadow) rewrites calls of this tool. */
  #rewrites(toolName: string): boolean {
    const registry = this.#deps.registry();
    return registry.listeners("rewrite", toolName).length > 0 || registry.shadows("rewrite", toolName).length > 0;
  }

  /**
   * pre-tool, approval and guards. An ask goes to the approval plugins first; with
   * `agentResolvesAsk`, an ask they all passed is returned (after the guards), otherwise the
   * session's approval channel is asked.
   */
  evaluatePreTool(
    event: EventOf<"pre-tool">,
    options: EvaluateOptions & { readonly agentResolvesAsk?: boolean },
  ): Promise<{ decision: PreToolDecision; trace: Trace }> {
    return this.#admit(event.session, async (started) => {
      const approval = options.agentResolvesAsk === true ? RETURN_ASK : this.#deps.store.get(event.session.agentId, event.session.sessionId)?.approvalSeam;
      const verdict = await decideToolPolicy(this.#env(event.session, scopeOf(event), options), event.session, event.call, approval);
      switch (verdict.kind) {
        case "allow":
          return { decision: { kind: "allow" }, trace: stood(verdict, started) };
        case "ask":
          return { decision: { kind: "ask", reason: verdict.reason }, trace: stood(verdict, started) };
        case "deny":
        case "error":
          return { decision: deny(verdict.reason), trace: stood(verdict, started) };
        case "cancelled":
          throw new StatusError(status.CANCELLED, verdict.reason);
      }
    });
  }

  /** The approval waterfall alone, for an ask the agent resolves itself: approve, reject, or pass (ask the agent's approver). */
  evaluateApproval(event: EventOf<"approval">, options: EvaluateOptions): Promise<{ decision: ApprovalDecision | Pass; trace: Trace }> {
    return this.#admit(event.session, async (started) => {
      const outcome = await decide(this.#env(event.session, scopeOf(event), options), "approval", event);
      if (outcome.type === "error") return { decision: reject(outcome.error.message), trace: trace(outcome.error.plugin, "listener_error", started) };
      return { decision: outcome.decision, trace: trace(outcome.decidedBy, outcome.fault?.fault ?? "", started) };
    });
  }

  evaluatePostTool(event: EventOf<"post-tool">, options: EvaluateOptions): Promise<{ decision: PostToolDecision; result: ToolResult; trace: Trace }> {
    return this.#admit(event.session, async (started) => {
      const outcome = await reviewResult(this.#env(event.session, scopeOf(event), options), event.session, event.call, undefined, event.result);
      if (outcome.applied === "cancelled") throw new StatusError(status.CANCELLED, "the call was cancelled");
      const failed = outcome.result.isError ? outcome.result.message : "post-tool failed";
      const decision = outcome.applied === "error" || outcome.decision === undefined ? block(failed) : outcome.decision;
      const cause = outcome.applied === "error" ? "listener_error" : (outcome.cause ?? "");
      return { decision, result: outcome.result, trace: trace(outcome.decidedBy, cause, started) };
    });
  }

  async evaluateToolResult(event: EventOf<"tool-result">, options: EvaluateOptions): Promise<void> {
    await this.#admit(event.session, () => decide(this.#env(event.session, scopeOf(event), options), "tool-result", event));
  }

  async evaluateTurnEnd(event: EventOf<"turn-end">, options: EvaluateOptions): Promise<void> {
    await this.#admit(event.session, () => decide(this.#env(event.session, { turn: event.turn, step: event.steps }, options), "turn-end", event));
  }

  async evaluateSessionEnd(event: EventOf<"session-end">, options: EvaluateOptions): Promise<void> {
    await this.#admit(event.session, () => decide(this.#env(event.session, { turn: event.turns, step: 0 }, options), "session-end", event));
  }

  /** An agent's own event no typed point carries: its subscribers observe it; the record names the event. */
  async evaluateAgentEvent(event: EventOf<"agent-event">, options: EvaluateOptions): Promise<void> {
    await this.#admit(event.session, () => decide(this.#env(event.session, { turn: 0, step: 0, eventName: event.eventName }, options), "agent-event", event));
  }

  evaluateTurnStopping(event: EventOf<"turn-stopping">, options: EvaluateOptions): Promise<{ decision: TurnStoppingDecision | Pass; capped: boolean; trace: Trace }> {
    return this.#admit(event.session, async (started) => {
      const env = this.#env(event.session, scopeOf(event), options);
      const stop = await decideTurnStop(env, event, { maxSteeredContinuations: this.#deps.limits().maxSteeredContinuations });
      const pass: Pass = { kind: "pass" };
      switch (stop.kind) {
        case "close":
          return { decision: pass, capped: false, trace: trace("default", stop.cause ?? "", started) };
        case "steer":
          return { decision: { kind: "steer", messages: stop.messages }, capped: false, trace: trace(stop.steeredBy.join(","), "", started) };
        case "capped":
          return { decision: pass, capped: true, trace: trace(stop.steeredBy.join(","), "", started) };
        case "error":
          return { decision: pass, capped: false, trace: trace(stop.error.plugin, "listener_error", started) };
      }
    });
  }

  // ---- gRPC wrappers, one per point of the evaluate table: convert and authenticate the event,
  // evaluate (or answer a retry, retries.ts), convert. The unary RPCs and the Evaluate stream share
  // them. They pass the call's lazy cancellation: its AbortSignal is made only if a plugin call waits.

  /** The proto request to proto response of one point, as its unary RPC answers; rejects with the RPC's StatusError. */
  rpc(point: EvaluatedPoint): EvaluateRpc {
    return this.#rpcs[point];
  }

  readonly #evaluators: { readonly [P in EvaluatedPoint]: (event: EventOf<P>, options: EvaluateCallOptions) => Promise<unknown> } = {
    "session-start": (event, options) => this.evaluateSessionStart(event, options),
    "pre-step": (event, options) => this.evaluatePreStep(event, options),
    rewrite: (event, options) => this.evaluateRewrite(event, options),
    "pre-tool": (event, options) => this.evaluatePreTool(event, options),
    approval: (event, options) => this.evaluateApproval(event, options),
    "post-tool": (event, options) => this.evaluatePostTool(event, options),
    "tool-result": (event, options) => this.evaluateToolResult(event, options),
    "turn-stopping": (event, options) => this.evaluateTurnStopping(event, options),
    "turn-end": (event, options) => this.evaluateTurnEnd(event, options),
    "session-end": (event, options) => this.evaluateSessionEnd(event, options),
    "agent-event": (event, options) => this.evaluateAgentEvent(event, options),
  };

  readonly #rpcs = Object.fromEntries(
    EVALUATED_POINTS.map((point): [EvaluatedPoint, EvaluateRpc] => {
      const spec = EVALUATE_TABLE[point] as EvaluateSpec<unknown, EvaluateCallOptions, unknown>;
      const evaluate = this.#evaluators[point] as (event: unknown, options: EvaluateCallOptions) => Promise<unknown>;
      const rpc: EvaluateRpc = async (request, call) => {
        const trace = this.#deps.tracing === undefined ? undefined : traceContextOf(call.metadata);
        const options: EvaluateCallOptions = { ...spec.requestOptions(request as unknown as Message), signal: call.cancellation, trace };
        const event = readEvaluateEvent(point, request.event as ProtoEvent<typeof point> | undefined, call.metadata, this.#deps.identities);
        const run = async (bus: EventBus): Promise<Record<string, unknown>> => spec.toResponse(await evaluate(event, { ...options, bus }));
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
      this.#deps.admission.enter(session.agentId)();
      resolve(answer(performance.now()));
    });
  }

  #env(session: SessionInfo, scope: Omit<EventScope, "sessionId" | "agentId">, options: EvaluateOptions): PointEnv {
    const limits = this.#deps.limits();
    return {
      registry: this.#deps.registry(),
      bus: options.bus ?? this.#deps.bus,
      signal: options.signal,
      pointBudgetMs: limits.pointBudgetMs,
      sessionEndBudgetMs: limits.sessionEndBudgetMs,
      scope: { sessionId: session.sessionId, agentId: session.agentId, ...scope },
      ...(this.#deps.tracing === undefined ? {} : { trace: this.#deps.tracing.under(options.trace) }),
    };
  }
}

/** Where in the session an event sits: its turn and step, and the call for tool points. */
function scopeOf(event: { turn?: number; step?: number; call?: { turn: number; step: number; callId: string } }): Omit<EventScope, "sessionId" | "agentId"> {
  return {
    turn: event.turn ?? event.call?.turn ?? 0,
    step: event.step ?? event.call?.step ?? 0,
    ...(event.call ? { callId: event.call.callId } : {}),
  };
}

function sourced(plugin: string, message: AgentMessage): AgentMessage {
  return { ...message, id: "", role: "user", source: { kind: "plugin", name: plugin } };
}

/** Who decided a call, as the policy verdict says (the hosted loop reports the same). */
function stood(verdict: { readonly decidedBy: string; readonly trace?: Trace }, started: number): Trace {
  return verdict.trace ?? trace(verdict.decidedBy, "", started);
}

function trace(decidedBy: string, failureCause: string, started: number): Trace {
  return { decidedBy, ...(failureCause === "" ? {} : { failureCause }), durationUs: Math.round((performance.now() - started) * 1000) };
}

