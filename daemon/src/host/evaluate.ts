// The evaluate API: one unary call per point for agents that keep their own loop. Each runs the
// same point functions the hosted loop uses (plugins, deadlines, merge, audit) and answers the
// merged decision. Evaluate is total: a plugin's own error becomes the point's refusal (deny,
// reject, block) with the failure named in the trace, never a crash or an opaque status.
import { status } from "@grpc/grpc-js";
import { block, deny, fromProtoEvent, reject, toProtoDecision, toProtoMessage, toProtoToolResult } from "@hookd/sdk";
import type { AgentMessage, PointName, SessionInfo } from "@hookd/sdk";
import { StatusError, invalidArgument } from "@hookd/sdk/internal";
import type { ServerCallInfo , pb } from "@hookd/sdk/internal";
import type { EventBus } from "../engine/events.js";
import type { EventOf } from "../engine/listener.js";
import { decideTurnStop } from "../engine/loop/index.js";
import { applyPostTool, decideToolPolicy } from "../engine/pipeline/index.js";
import type { ApprovalSeam } from "../engine/pipeline/index.js";
import { decidePreStep, notify } from "../engine/points.js";
import type { PointEnv } from "../engine/points.js";
import type { PluginRegistry } from "../engine/registry.js";
import type { AgentIdentities } from "./identity.js";
import type { SessionStore } from "./session-store.js";

export interface EvaluateDeps {
  readonly registry: () => PluginRegistry;
  readonly bus: EventBus;
  readonly identities: AgentIdentities;
  readonly store: SessionStore;
  readonly limits: () => { readonly pointBudgetMs: number; readonly maxSteeredContinuations: number; readonly maxInflightPerAgent: number };
}

interface Prepared<P extends PointName> {
  readonly env: PointEnv;
  readonly event: EventOf<P>;
  readonly started: number;
}

type Trace = { decidedBy: string; failureCause: string; durationUs: bigint };

export class EvaluateService {
  readonly #deps: EvaluateDeps;
  readonly #inflight = new Map<string, number>();

  constructor(deps: EvaluateDeps) {
    this.#deps = deps;
  }

  async sessionStart(request: pb.EvaluateSessionStartRequest, call: ServerCallInfo): Promise<{ contexts: pb.Message[] }> {
    return this.#run("session-start", request.event, call, async ({ env, event }) => {
      const outcome = await notify(env, "session-start", event);
      const contexts = outcome.answers.flatMap(({ plugin, decision }) => decision.messages.map((m) => sourced(plugin, m)));
      return { contexts: contexts.map(toProtoMessage) };
    });
  }

  async preStep(request: pb.EvaluatePreStepRequest, call: ServerCallInfo): Promise<{ decision: pb.PreStepDecision; trace: Trace }> {
    return this.#run("pre-step", request.event, call, async ({ env, event, started }) => {
      const outcome = await decidePreStep(env, event);
      if (outcome.type === "error") {
        return { decision: toProtoDecision("pre-step", reject(outcome.error.message)), trace: trace(outcome.error.plugin, "listener_error", started) };
      }
      return { decision: toProtoDecision("pre-step", outcome.decision), trace: trace(outcome.decidedBy, outcome.fault?.fault ?? "", started) };
    });
  }

  async preTool(request: pb.EvaluatePreToolRequest, call: ServerCallInfo): Promise<{ decision: pb.PreToolDecision; trace: Trace }> {
    return this.#run("pre-tool", request.event, call, async ({ env, event, started }) => {
      // An agent that resolves asks itself is asked back, but only after the guards had their say:
      // the recording seam lets the policy run on as if allowed once, then the ask is returned.
      let asked: { reason: string; askedBy: string } | undefined;
      const seam: ApprovalSeam | undefined = request.agentResolvesAsk
        ? async ({ reason, askedBy }) => ((asked = { reason, askedBy }), "allowed-once")
        : this.#deps.store.get(env.scope.agentId, env.scope.sessionId)?.approvalSeam;
      const verdict = await decideToolPolicy(env, event.session, event.call, seam);
      switch (verdict.kind) {
        case "allow":
          return asked === undefined
            ? { decision: toProtoDecision("pre-tool", { kind: "allow" }), trace: trace(verdict.decidedBy, "", started) }
            : { decision: toProtoDecision("pre-tool", { kind: "ask", reason: asked.reason }), trace: trace(asked.askedBy, "", started) };
        case "deny":
          return { decision: toProtoDecision("pre-tool", deny(verdict.reason)), trace: trace(verdict.decidedBy, "", started) };
        case "error":
          return { decision: toProtoDecision("pre-tool", deny(verdict.reason)), trace: trace(verdict.decidedBy, "listener_error", started) };
        case "cancelled":
          throw new StatusError(status.CANCELLED, verdict.reason);
      }
    });
  }

  async postTool(request: pb.EvaluatePostToolRequest, call: ServerCallInfo): Promise<{ decision: pb.PostToolDecision; result: pb.ToolResult; trace: Trace }> {
    return this.#run("post-tool", request.event, call, async ({ env, event, started }) => {
      const outcome = await applyPostTool(env, event.session, event.call, undefined, event.result);
      if (outcome.applied === "cancelled") throw new StatusError(status.CANCELLED, "the call was cancelled");
      const decision = outcome.decision ?? block(outcome.result.isError ? outcome.result.message : "post-tool failed");
      return {
        decision: toProtoDecision("post-tool", outcome.applied === "error" ? block(outcome.result.isError ? outcome.result.message : "") : decision),
        result: toProtoToolResult(outcome.result),
        trace: trace(outcome.decidedBy, outcome.applied === "error" ? "listener_error" : "", started),
      };
    });
  }

  async toolResult(request: pb.EvaluateToolResultRequest, call: ServerCallInfo): Promise<Record<string, never>> {
    return this.#run("tool-result", request.event, call, async ({ env, event }) => {
      await notify(env, "tool-result", event);
      return {};
    });
  }

  async turnStopping(request: pb.EvaluateTurnStoppingRequest, call: ServerCallInfo): Promise<{ decision: pb.TurnStoppingDecision; capped: boolean; trace: Trace }> {
    return this.#run("turn-stopping", request.event, call, async ({ env, event, started }) => {
      const stop = await decideTurnStop(env, event, { maxSteeredContinuations: this.#deps.limits().maxSteeredContinuations });
      const passed = toProtoDecision("turn-stopping", { kind: "pass" });
      switch (stop.kind) {
        case "close":
          return { decision: passed, capped: false, trace: trace("default", "", started) };
        case "steer":
          return { decision: toProtoDecision("turn-stopping", { kind: "steer", messages: stop.messages }), capped: false, trace: trace(stop.steeredBy.join(","), "", started) };
        case "capped":
          return { decision: passed, capped: true, trace: trace(stop.steeredBy.join(","), "", started) };
        case "error":
          return { decision: passed, capped: false, trace: trace(stop.error.plugin, "listener_error", started) };
      }
    });
  }

  /** Validates the event, binds it to the caller's identity, enforces the in-flight limit. */
  async #run<P extends PointName, R>(point: P, raw: unknown, call: ServerCallInfo, body: (prepared: Prepared<P>) => Promise<R>): Promise<R> {
    if (raw === undefined) throw invalidArgument("event", "required");
    const converted = fromProtoEvent(point as never, raw as never, "event") as { ok: true; value: EventOf<P> } | { ok: false; error: Error };
    if (!converted.ok) throw new StatusError(status.INVALID_ARGUMENT, converted.error.message);
    const declared = converted.value.session;
    const agentId = this.#deps.identities.resolve(call.metadata, declared.agentId);
    if (declared.sessionId === "") throw invalidArgument("event.session.session_id", "required");
    const limit = this.#deps.limits().maxInflightPerAgent;
    const inflight = this.#inflight.get(agentId) ?? 0;
    if (inflight >= limit) throw new StatusError(status.RESOURCE_EXHAUSTED, `agent "${agentId}" has ${inflight} evaluate calls in flight (limit ${limit})`);
    this.#inflight.set(agentId, inflight + 1);
    const session: SessionInfo = { ...declared, agentId };
    const event = { ...converted.value, session } as EventOf<P>;
    const scoped = event as { turn?: number; step?: number; call?: { turn: number; step: number; callId: string } };
    const env: PointEnv = {
      registry: this.#deps.registry(),
      bus: this.#deps.bus,
      signal: call.signal,
      pointBudgetMs: this.#deps.limits().pointBudgetMs,
      scope: {
        sessionId: session.sessionId,
        agentId,
        turn: scoped.turn ?? scoped.call?.turn ?? 0,
        step: scoped.step ?? scoped.call?.step ?? 0,
        ...(scoped.call ? { callId: scoped.call.callId } : {}),
      },
    };
    try {
      return await body({ env, event, started: performance.now() });
    } catch (error) {
      if (call.signal.aborted && !(error instanceof StatusError)) throw new StatusError(status.CANCELLED, "the call was cancelled");
      throw error;
    } finally {
      const left = (this.#inflight.get(agentId) ?? 1) - 1;
      if (left > 0) this.#inflight.set(agentId, left);
      else this.#inflight.delete(agentId);
    }
  }
}

function sourced(plugin: string, message: AgentMessage): AgentMessage {
  return { ...message, id: "", role: "user", source: { kind: "plugin", name: plugin } };
}

function trace(decidedBy: string, failureCause: string, started: number): Trace {
  return { decidedBy, failureCause, durationUs: BigInt(Math.round((performance.now() - started) * 1000)) };
}
