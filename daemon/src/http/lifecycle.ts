// One agent hook request decided through the evaluate API (the same decision path as the gRPC
// host) and written as that agent's answer, fitted to the fields it accepts there. For every
// agent alike: a pre-tool event runs the rewrite chain first, then pre-tool (approval of an ask,
// guards) on the effective call, as the hosted pipeline does; and the turn-end notification the
// hosted loop fires is fired where the agent's event ends a turn: a rejected prompt (outcome
// blocked), a stop nobody steered (completed, or continuation_cap), and the agent's own turn-end
// events (an error, an interrupt).
import { noticeOf } from "@hookd/sdk";
import type { Cancellation } from "@hookd/sdk/internal";
import type { EvaluateService } from "../host/evaluate.js";
import type { Logger } from "../log.js";
import { NO_OPINION } from "../agents/answer-text.js";
import type { AgentDialect, HookAnswer, HookRequest } from "../agents/contract.js";

/** What the dispatcher needs of the evaluate API. */
export type HookEvaluator = Pick<EvaluateService, "evaluate">;

export interface DispatchDeps {
  readonly evaluate: HookEvaluator;
  readonly log: Logger;
  /** Whether a plugin's allow may bypass the agent's own permission rules (its config's effective `bypassAgentPermissions`). */
  readonly bypassesAgentPermissions: (plugin: string) => boolean;
}

async function preTool(deps: DispatchDeps, agent: AgentDialect, request: HookRequest & { point: "pre-tool" }, signal: Cancellation): Promise<HookAnswer> {
  const { evaluate } = deps;
  const proposed = request.data.call;
  const rewrite = await evaluate.evaluate("rewrite", request.data, { signal });
  if (rewrite.outcome.kind === "deny") return agent.answers.preTool({ decision: rewrite.outcome, decidedBy: rewrite.trace.decidedBy, proposed, effective: proposed, bypass: false });
  const effective = rewrite.outcome.call;
  // The agent resolves an ask itself (its own prompt), after hookd's approval plugins passed.
  const result = await evaluate.evaluate("pre-tool", { session: request.data.session, call: effective }, { signal, agentResolvesAsk: true });
  const decidedBy = result.trace.decidedBy;
  const answer = agent.answers.preTool({ decision: result.decision, decidedBy, proposed, effective, bypass: deps.bypassesAgentPermissions(decidedBy) });
  return agent.answers.notice(answer, noticeOf(result.decision));
}

async function decide(deps: DispatchDeps, agent: AgentDialect, request: HookRequest, signal: Cancellation): Promise<HookAnswer> {
  const { evaluate } = deps;
  const { session } = request;
  switch (request.point) {
    case "session-start": {
      const evaluation = await evaluate.evaluate("session-start", request.data, { signal });
      return agent.answers.notice(agent.answers.sessionStart(evaluation.contexts, request.event), evaluation);
    }
    case "pre-step": {
      const { decision } = await evaluate.evaluate("pre-step", request.data, { signal });
      if (decision.kind === "reject") await evaluate.evaluate("turn-end", { session, turn: 0, outcome: "blocked", detail: decision.reason, steps: 0 }, { signal });
      return agent.answers.notice(agent.answers.preStep(decision), noticeOf(decision));
    }
    case "pre-tool":
      return preTool(deps, agent, request, signal);
    case "approval": {
      const { decision } = await evaluate.evaluate("approval", request.data, { signal });
      return agent.answers.notice(agent.answers.approval(decision), noticeOf(decision));
    }
    case "post-tool": {
      const result = await evaluate.evaluate("post-tool", request.data, { signal });
      return agent.answers.notice(agent.answers.postTool(result.decision, result.result, request.data.call, result.trace.decidedBy, request.event), noticeOf(result.decision));
    }
    case "turn-stopping": {
      const result = await evaluate.evaluate("turn-stopping", request.data, { signal });
      if (result.decision.kind === "pass") {
        const outcome = result.capped ? "continuation_cap" : "completed";
        await evaluate.evaluate("turn-end", { session, turn: 0, outcome, detail: result.capped ? "limits.maxSteeredContinuations reached" : "", steps: 0 }, { signal });
      }
      return agent.answers.notice(agent.answers.stop(result.decision, result.capped), noticeOf(result.decision));
    }
    case "session-end":
      await evaluate.evaluate("session-end", request.data, { signal });
      return NO_OPINION;
    case "turn-end":
      await evaluate.evaluate("turn-end", request.data, { signal });
      return NO_OPINION;
    case "agent-event": {
      // No typed point: the generic observe-only point, for plugins subscribed by the event's name.
      deps.log.debug("hook event to agent-event", { event: request.event, dialect: agent.name, sessionId: session.sessionId, agentId: session.agentId, ...request.passThrough });
      const warning = agent.observedWarning?.(request.event);
      if (warning !== undefined) deps.log.warn(warning, { event: request.event, sessionId: session.sessionId });
      await evaluate.evaluate("agent-event", { session, dialect: agent.name, eventName: request.event, payload: request.payload }, { signal });
      return NO_OPINION;
    }
  }
}

/** Decides one request and writes the agent's answer, fitted to the fields the agent accepts there. */
export async function answerHook(deps: DispatchDeps, agent: AgentDialect, request: HookRequest, signal: Cancellation): Promise<HookAnswer> {
  const { answer, dropped } = agent.fit(await decide(deps, agent, request, signal), request.event);
  if (dropped.length > 0) deps.log.warn("answer fields the agent does not accept at this event were dropped", { event: request.event, dialect: agent.name, dropped });
  return answer;
}
