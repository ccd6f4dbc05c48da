// @hookd/sdk public surface: what plugin and agent authors use. Internals live behind
// "@hookd/sdk/internal" with no compatibility promise.
export * from "./types.js";
export * from "./decisions.js";
// A message for the user and a stop request beside any decision (sdk/src/notice.ts).
export { tellUser, stopAgent, noticeOf, mergeNotices, withNotice, hasNotice, USER_MESSAGE_SEPARATOR, type UserNotice, type StopAgent } from "./notice.js";
// Every point's events, decisions and constructors, and the point table (sdk/src/points).
export * from "./points/index.js";
export * from "./plugin.js";
export { HookdError, ERROR_CODES, hasCode, type ErrorCode, type HookdErrorDetails, type HookdErrorOptions } from "./errors.js";
export { compileToolMatcher, type ToolMatcher } from "./matcher.js";
export {
  parseJson,
  parseJsonFast,
  toJsonText,
  snapshotJson,
  snapshotJsonText,
  canonicalJson,
  deepFreeze,
  isDeeplyFrozen,
  LosslessNumber,
  type JsonValue,
  type JsonObject,
  type JsonSnapshot,
} from "./json.js";
export {
  validateDecision,
  validateToolResult,
  type DecisionCheck,
  type PointAnswer,
  type ToolResultCheck,
} from "./validate.js";
// The agent client (sdk/src/agent): connectHost, hosted sessions, evaluate calls.
export * from "./agent/index.js";
// The plugin server (sdk/src/serve): runs a definePlugin() definition as an out-of-process plugin.
export { servePlugin, PLUGIN_SOCKET_ENV, type ServeOptions, type ServeTransport, type PluginServer } from "./serve/index.js";
// Typed events with defaults (ids, turn, step), for agent authors and plugin tests (sdk/src/builders.ts).
export { DEFAULT_SESSION, events, sessionInfo, toolCall, toolCallFromJson, type SessionEventOptions, type ToolCallOptions, type ToolEventOptions } from "./builders.js";
