// The Gemini CLI dialect of the HTTP endpoint: one request decided through the evaluate API, the
// same decision path as the gRPC host and the Claude Code / Codex dialects.
//   SessionStart -> session-start      BeforeAgent -> pre-step
//   BeforeTool   -> rewrite, then pre-tool (+ approval, guards) on the rewritten call
//   AfterTool    -> post-tool          AfterAgent  -> turn-stopping
//   SessionEnd   -> session-end
//   BeforeModel, AfterModel, BeforeToolSelection, PreCompress, Notification -> agent-event
import type { Cancellation } from "@hookd/sdk/internal";
import type { EvaluateService } from "../host/evaluate.js";
import type { HookAnswer } from "./answer.js";
import {
  geminiAfterAgentAnswer,
  geminiAfterToolAnswer,
  geminiBeforeAgentAnswer,
  geminiBeforeToolAnswer,
  geminiRewriteDenied,
  geminiSessionStartAnswer,
} from "./gemini-answer.js";
import type { GeminiRequest } from "./gemini-request.js";

/** What the Gemini dialect needs of the evaluate API. */
export type GeminiEvaluator = Pick<EvaluateService, "evaluate">;

export async function answerGeminiHook(evaluate: GeminiEvaluator, request: GeminiRequest, signal: Cancellation): Promise<HookAnswer> {
  switch (request.event) {
    case "SessionStart":
      return geminiSessionStartAnswer((await evaluate.evaluate("session-start", request.data, { signal })).contexts);
    case "BeforeAgent":
      return geminiBeforeAgentAnswer((await evaluate.evaluate("pre-step", request.data, { signal })).decision);
    case "BeforeTool": {
      const { session, call } = request.data;
      const rewrite = await evaluate.evaluate("rewrite", { session, call }, { signal });
      if (rewrite.outcome.kind === "deny") return geminiRewriteDenied(rewrite.outcome.reason);
      const effective = rewrite.outcome.call;
      // The agent resolves an ask itself (its confirmation), after hookd's approval plugins passed.
      const result = await evaluate.evaluate("pre-tool", { session, call: effective }, { signal, agentResolvesAsk: true });
      return geminiBeforeToolAnswer(result.decision, call, effective);
    }
    case "AfterTool": {
      const result = await evaluate.evaluate("post-tool", request.data, { signal });
      return geminiAfterToolAnswer(result.decision, result.result, request.data.call, result.trace.decidedBy);
    }
    case "AfterAgent": {
      const result = await evaluate.evaluate("turn-stopping", request.data, { signal });
      return geminiAfterAgentAnswer(result.decision, result.capped);
    }
    case "SessionEnd":
      // Gemini does not wait for SessionEnd hooks; plugins still hear it (bounded by the session-end budget).
      await evaluate.evaluate("session-end", request.data, { signal });
      return {};
    case "BeforeModel":
    case "AfterModel":
    case "BeforeToolSelection":
    case "PreCompress":
    case "Notification":
      // Observe-only: the generic point, for plugins subscribed by the event's name.
      await evaluate.evaluate("agent-event", { session: request.session, dialect: "gemini", eventName: request.event, payload: request.payload }, { signal });
      return {};
  }
}
