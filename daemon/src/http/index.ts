// The HTTP endpoint for Claude Code `http` hooks and the `hookd hook` forwarder.
export { startHookHttpServer, answerHook, HttpError, AGENT_HEADER, DIALECT_HEADER, EXIT_HEADER, FORWARD_HEADER } from "./server.js";
export type { HookEvaluator, HookHttpOptions, HookHttpServer, HttpDialect } from "./server.js";
export { answerGeminiHook } from "./gemini.js";
export type { GeminiEvaluator } from "./gemini.js";
export { GEMINI_EVENTS, readGeminiRequest } from "./gemini-request.js";
export type { GeminiEvent, GeminiRequest, GeminiRequestContext } from "./gemini-request.js";
export { geminiForwardedOutput } from "./gemini-answer.js";
export { agentResolver } from "./identity.js";
export { BadRequest, StopCounter, readHookRequest } from "./request.js";
export type { HookRequest, RequestContext } from "./request.js";
export { contentText, forwardedOutput, postToolAnswer, preStepAnswer, preToolAnswer, sessionStartAnswer, stopAnswer } from "./answer.js";
export type { AnswerDialect, HookAnswer } from "./answer.js";
