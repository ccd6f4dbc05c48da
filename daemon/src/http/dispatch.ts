// One hook request decided through the evaluate API, the same decision path as the gRPC host, and
// rendered as the dialect's answer with only the fields that agent accepts at that event. The
// points each event drives are request.ts's; the answer shapes answer.ts's and tool-answer.ts's.
//
// PreToolUse runs the rewrite chain first, then pre-tool (approval of an ask, guards) on the
// effective call, as the hosted pipeline does. The turn-end notification the hosted loop fires is
// fired here where the agent's event ends a turn: a rejected prompt (outcome blocked), a stop
// nobody steered (completed, or continuation_cap), StopFailure (error), Codex Interrupt (cancelled).
import type { Cancellation } from "@hookd/sdk/internal";
import type { EvaluateService } from "../host/evaluate.js";
import type { Logger } from "../log.js";
import type { AnswerDialect, HookAnswer } from "./answer.js";
import { postToolAnswer, preStepAnswer, sessionStartAnswer, stopAnswer } from "./answer.js";
import { fitAnswer } from "./output-fields.js";
import type { HookRequest } from "./request.js";
import { approvalAnswer, preToolAnswer } from "./tool-answer.js";

/** What the endpoint needs of the evaluate API. */
export type HookEvaluator = Pick<EvaluateService, "evaluate">;

export interface DispatchDeps {
  readonly evaluate: HookEvaluator;
  readonly log: Logger;
  /** Whether a plugin's allow may bypass the agent's own permission rules (its config's `bypassAgentPermissions`). */
  readonly bypassesAgentPermissions: (plugin: string) => boolean;
}

const NO_OPINION: HookAnswer = Object.freeze({});

// Claude Code events whose hook performs the action itself: an observer's answer cannot, so the
// endpoint says so each time one reaches it (Claude Code only reports a failed creation).
const PERFORMED_BY_THE_HOOK = new Map<string, string>([
  ["WorktreeCreate", "a WorktreeCreate hook replaces Claude Code's own worktree creation and must answer the new worktree's path; hookd only observes it, so unless another WorktreeCreate hook prints the path, Claude Code fails to create the worktree"],
  ["WorktreeRemove", "a WorktreeRemove hook performs Claude Code's removal of a hook-made worktree; hookd only observes it, so unless another WorktreeRemove hook removes it, the worktree stays on disk"],
]);

async function preTool(deps: DispatchDeps, request: HookRequest & { point: "pre-tool" }, dialect: AnswerDialect, signal: Cancellation): Promise<HookAnswer> {
  const { evaluate } = deps;
  const rewrite = await evaluate.evaluate("rewrite", request.data, { signal });
  if (rewrite.outcome.kind === "deny") return preToolAnswer({ decision: rewrite.outcome, decidedBy: rewrite.trace.decidedBy, bypass: false }, dialect);
  const call = rewrite.outcome.call;
  const result = await evaluate.evaluate("pre-tool", { session: request.data.session, call }, { signal, agentResolvesAsk: true });
  const decidedBy = result.trace.decidedBy;
  return preToolAnswer(
    { decision: result.decision, decidedBy, bypass: deps.bypassesAgentPermissions(decidedBy), ...((call.rewrittenBy ?? []).length > 0 ? { rewritten: call } : {}) },
    dialect,
  );
}

async function decideRequest(deps: DispatchDeps, request: HookRequest, dialect: AnswerDialect, signal: Cancellation): Promise<HookAnswer> {
  const { evaluate } = deps;
  const { session } = request;
  switch (request.point) {
    case "session-start":
      return sessionStartAnswer((await evaluate.evaluate("session-start", request.data, { signal })).contexts, request.data.source === "subagent" ? "SubagentStart" : "SessionStart");
    case "pre-step": {
      const { decision } = await evaluate.evaluate("pre-step", request.data, { signal });
      if (decision.kind === "reject") await evaluate.evaluate("turn-end", { session, turn: 0, outcome: "blocked", detail: decision.reason, steps: 0 }, { signal });
      return preStepAnswer(decision);
    }
    case "pre-tool":
      return preTool(deps, request, dialect, signal);
    case "approval":
      return approvalAnswer((await evaluate.evaluate("approval", request.data, { signal })).decision);
    case "post-tool": {
      const result = await evaluate.evaluate("post-tool", request.data, { signal });
      const event = request.data.result.isError ? "PostToolUseFailure" : "PostToolUse";
      return postToolAnswer(result.decision, result.result, request.data.call, result.trace.decidedBy, dialect, event);
    }
    case "turn-stopping": {
      const result = await evaluate.evaluate("turn-stopping", request.data, { signal });
      if (result.decision.kind === "pass") {
        const outcome = result.capped ? "continuation_cap" : "completed";
        await evaluate.evaluate("turn-end", { session, turn: 0, outcome, detail: result.capped ? "limits.maxSteeredContinuations reached" : "", steps: 0 }, { signal });
      }
      return stopAnswer(result.decision, result.capped);
    }
    case "session-end":
      await evaluate.evaluate("session-end", request.data, { signal });
      return NO_OPINION;
    case "turn-end":
      await evaluate.evaluate("turn-end", request.data, { signal });
      return NO_OPINION;
    case "agent-event":
      // No typed point: the generic observe-only point, for plugins subscribed by the event's name.
      deps.log.debug("hook event to agent-event", { event: request.event, dialect, sessionId: session.sessionId, agentId: session.agentId, ...request.passThrough });
      if (dialect === "claude-code" && PERFORMED_BY_THE_HOOK.has(request.event)) deps.log.warn(PERFORMED_BY_THE_HOOK.get(request.event) ?? "", { event: request.event, sessionId: session.sessionId });
      await evaluate.evaluate("agent-event", { session, dialect, eventName: request.event, payload: request.payload }, { signal });
      return NO_OPINION;
  }
}

/** Decides one request and renders the dialect's answer, fitted to the fields the agent accepts there. */
export async function answerHook(deps: DispatchDeps, request: HookRequest, dialect: AnswerDialect, signal: Cancellation): Promise<HookAnswer> {
  const { answer, dropped } = fitAnswer(await decideRequest(deps, request, dialect, signal), request.event, dialect);
  if (dropped.length > 0) deps.log.warn("answer fields the agent does not accept at this event were dropped", { event: request.event, dialect, dropped });
  return answer;
}
