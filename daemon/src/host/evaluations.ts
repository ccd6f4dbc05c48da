// What each evaluated point answers, derived from the point table: by the point's mode (a
// waterfall's decision, or its fail-closed refusal when a handler failed; an observer's nothing),
// or, where an evaluation is a whole pipeline phase (the policy, the rewrite chain, the review, the
// turn-stopping merge), that phase's verdict. Owns the mapping; admission and conversion are evaluate.ts's.
import { status } from "@grpc/grpc-js";
import { EVALUATED_POINTS, POINT_TABLE, block, deny, unreachable, withNotice } from "@hookd/sdk";
import type { AgentMessage, EvaluatedPoint, EvaluationOf, NotificationPoint, Pass, PointSpec, WaterfallPoint } from "@hookd/sdk";
import type { Cancellation } from "@hookd/sdk/internal";
import { StatusError } from "@hookd/sdk/internal";
import { decide } from "../engine/decide.js";
import type { PointEnv } from "../engine/decide.js";
import type { EventOf } from "../engine/listener.js";
import { decideTurnStop } from "../engine/loop/index.js";
import type { ApprovalSeam } from "../engine/pipeline/index.js";
import { RETURN_ASK, decideToolPolicy, reviewResult, rewriteCall } from "../engine/pipeline/index.js";
import { DEFAULT_DECIDER } from "../engine/runners/outcome.js";
import { elapsedUs, traceOf } from "../engine/verdict.js";

/** What one evaluation may read besides its point's environment. */
export interface EvaluationContext {
  /** The session's approval channel, for a pre-tool ask the agent does not resolve itself. */
  approvalSeam(agentId: string, sessionId: string): ApprovalSeam | undefined;
  readonly maxSteeredContinuations: number;
}

/** The options of an evaluate call (the caller's cancellation, and pre-tool's request field). */
export interface EvaluationOptions {
  readonly signal: Cancellation;
  readonly agentResolvesAsk?: boolean;
}

export interface Evaluation<P extends EvaluatedPoint> {
  /**
   * The answer when no plugin, enforcing or shadow, listens for the event: the point decides and
   * records nothing then, so it is answered without entering it. Absent where the point records
   * even an undecided event.
   */
  readonly unheard?: (event: EventOf<P>, started: number) => EvaluationOf<P>;
  /** `started`: when the evaluation was admitted, for a trace no decided point gives. */
  readonly run: (env: PointEnv, event: EventOf<P>, options: EvaluationOptions, context: EvaluationContext, started: number) => Promise<EvaluationOf<P>>;
}

const PASS: Pass = Object.freeze({ kind: "pass" });

function cancelled(reason: string): never {
  throw new StatusError(status.CANCELLED, reason);
}

/** The points whose evaluation is a pipeline phase rather than their mode's mapping. */
const PHASES: { readonly [P in EvaluatedPoint]?: Evaluation<P> } = {
  // Every plugin's context messages, in plugin order, each sourced to its plugin.
  "session-start": {
    run: async (env, event) => {
      const outcome = await decide(env, "session-start", event);
      const contexts = outcome.answers.flatMap(({ plugin, decision }) => decision.messages.map((m) => sourced(plugin, m)));
      return outcome.notice === undefined ? { contexts } : { contexts, ...outcome.notice };
    },
  },
  // The call with its effective arguments, or a deny when a fail-closed rewrite plugin failed (or a handler erred).
  rewrite: {
    unheard: (event, started) => ({ outcome: { kind: "call", call: event.call }, trace: traceOf(DEFAULT_DECIDER, undefined, elapsedUs(started)) }),
    run: async (env, event, _options, _context, started) => {
      const verdict = await rewriteCall(env, event.session, event.call);
      switch (verdict.kind) {
        case "rewritten":
          // Untraced when nobody changed the call and no failure was passed over: the default stands.
          return { outcome: { kind: "call", call: verdict.call }, trace: verdict.trace ?? traceOf(DEFAULT_DECIDER, undefined, elapsedUs(started)) };
        case "deny":
        case "error":
          return { outcome: deny(verdict.reason), trace: verdict.trace };
        case "cancelled":
          return cancelled(verdict.reason);
      }
    },
  },
  // pre-tool, approval and guards. An ask goes to the approval plugins first; with
  // agentResolvesAsk, an ask they all passed is returned (after the guards), otherwise the
  // session's approval channel is asked.
  "pre-tool": {
    run: async (env, event, options, context, started) => {
      const approval = options.agentResolvesAsk === true ? RETURN_ASK : context.approvalSeam(event.session.agentId, event.session.sessionId);
      const verdict = await decideToolPolicy(env, event.session, event.call, approval);
      if (verdict.kind === "cancelled") return cancelled(verdict.reason);
      // Every verdict but a cancellation has its trace (policy.ts); the fallback names its decider.
      const trace = verdict.trace ?? traceOf(verdict.decidedBy, undefined, elapsedUs(started));
      const notice = verdict.notice ?? {};
      switch (verdict.kind) {
        case "allow":
          return { decision: withNotice({ kind: "allow" }, notice), trace };
        case "ask":
          return { decision: withNotice({ kind: "ask", reason: verdict.reason }, notice), trace };
        case "deny":
        case "error":
          return { decision: withNotice(deny(verdict.reason), notice), trace };
        default:
          return unreachable(verdict, "policy verdict");
      }
    },
  },
  // The review over the agent's result: the decision (block when a handler failed) and the result it leaves.
  "post-tool": {
    run: async (env, event) => {
      const outcome = await reviewResult(env, event.session, event.call, undefined, event.result);
      if (outcome.applied === "cancelled" || outcome.trace === undefined) return cancelled("the call was cancelled");
      const failed = outcome.result.isError ? outcome.result.message : "post-tool failed";
      const decision = outcome.applied === "error" || outcome.decision === undefined ? block(failed) : outcome.decision;
      return { decision, result: outcome.result, trace: outcome.trace };
    },
  },
  // The merged steering, or pass (capped when the continuation cap refused it); a failed handler passes.
  "turn-stopping": {
    run: async (env, event, _options, context) => {
      const stop = await decideTurnStop(env, event, { maxSteeredContinuations: context.maxSteeredContinuations });
      const notice = stop.notice ?? {};
      switch (stop.kind) {
        case "steer":
          return { decision: withNotice({ kind: "steer", messages: stop.messages }, notice), capped: false, trace: stop.trace };
        case "capped":
          return { decision: withNotice(PASS, notice), capped: true, trace: stop.trace };
        case "close":
        case "error":
          return { decision: withNotice(PASS, notice), capped: false, trace: stop.trace };
      }
    },
  },
};

/** The evaluation of a point its mode defines: a waterfall's decision, or an observer's nothing. */
function byMode<P extends EvaluatedPoint>(point: P): Evaluation<P> {
  const spec = POINT_TABLE[point] as PointSpec;
  if (spec.mode === "waterfall") {
    return {
      run: async (env, event) => {
        const outcome = await decide(env, point as WaterfallPoint, event as EventOf<WaterfallPoint>);
        // A handler that failed stands for the point's refusal, named in the trace.
        const decision = outcome.type === "error" ? spec.failClosed(outcome.error.message, outcome.error.details.plugin) : outcome.decision;
        return { decision, trace: outcome.trace } as EvaluationOf<P>;
      },
    };
  }
  if (spec.mode === "notification" && spec.decision === undefined) {
    return {
      run: async (env, event) => {
        await decide(env, point as NotificationPoint, event as EventOf<NotificationPoint>);
        return undefined as EvaluationOf<P>;
      },
    };
  }
  throw new Error(`point ${point}: no evaluation for a ${spec.mode} point with answers; give it one in evaluations.ts`);
}

/** Each evaluated point's evaluation, built once. */
export const EVALUATIONS = Object.freeze(Object.fromEntries(EVALUATED_POINTS.map((point) => [point, PHASES[point] ?? byMode(point)]))) as {
  readonly [P in EvaluatedPoint]: Evaluation<P>;
};

function sourced(plugin: string, message: AgentMessage): AgentMessage {
  return { ...message, id: "", role: "user", source: { kind: "plugin", name: plugin } };
}
