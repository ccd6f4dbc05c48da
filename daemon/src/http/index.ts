// The HTTP endpoint for Claude Code `http` hooks and the `hookd hook` forwarder.
export { startHookHttpServer, answerHook, HttpError, AGENT_HEADER, DIALECT_HEADER, EXIT_HEADER, FORWARD_HEADER } from "./server.js";
export type { HookEvaluator, HookHttpOptions, HookHttpServer } from "./server.js";
export { agentResolver } from "./identity.js";
export { BadRequest, StopCounter, readHookRequest } from "./request.js";
export type { HookRequest, RequestContext } from "./request.js";
export { contentText, forwardedOutput, postToolAnswer, preStepAnswer, preToolAnswer, sessionStartAnswer, stopAnswer } from "./answer.js";
export type { AnswerDialect, HookAnswer } from "./answer.js";
