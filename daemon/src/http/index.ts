// The HTTP endpoint for Claude Code `http` hooks and the `hookd hook` forwarder.
export { startHookHttpServer, HttpError, AGENT_HEADER, DIALECT_HEADER, EXIT_HEADER, FORWARD_HEADER } from "./server.js";
export type { HookHttpOptions, HookHttpServer } from "./server.js";
export { answerHook } from "./dispatch.js";
export type { DispatchDeps, HookEvaluator } from "./dispatch.js";
export { fitAnswer } from "./output-fields.js";
export { approvalAnswer, preToolAnswer } from "./tool-answer.js";
export type { PreToolVerdict } from "./tool-answer.js";
export type { HttpDialect } from "./server.js";
export { answerGeminiHook } from "./gemini.js";
export type { GeminiEvaluator } from "./gemini.js";
export { GEMINI_EVENTS, readGeminiRequest } from "./gemini-request.js";
export type { GeminiEvent, GeminiRequest, GeminiRequestContext } from "./gemini-request.js";
export { geminiForwardedOutput } from "./gemini-answer.js";
export { agentResolver } from "./identity.js";
export { BadRequest, StopCounter, readHookRequest, subagentSessionId } from "./request.js";
export type { HookRequest, PassThrough, RequestContext } from "./request.js";
export { contentText, forwardedOutput, postToolAnswer, preStepAnswer, sessionStartAnswer, stopAnswer } from "./answer.js";
export type { AnswerDialect, HookAnswer } from "./answer.js";
