// @hookd/sdk/testing: the test harness for plugin authors. Build typed events (the same builders
// agents use, sdk/src/builders.ts), call a plugin's handlers in-process and get the decision the
// daemon would apply (callHandler), or run the plugin against a real daemon on a temporary socket
// in one call (startTestDaemon). Works with any test runner; imports nothing of the daemon.
export { DEFAULT_SESSION, events, sessionInfo, toolCall, toolCallFromJson } from "../builders.js";
export type { SessionEventOptions, ToolCallOptions, ToolEventOptions } from "../builders.js";
export { toolFailure, toolSuccess } from "../agent/results.js";
export { callHandler, matches, type CallHandlerOptions } from "./call.js";
export { startTestDaemon, type PluginCommand, type PluginModule, type PointOverrides, type TestDaemon, type TestDaemonOptions, type TestPlugin } from "./daemon.js";
export { DAEMON_ENV, locateDaemon, type DaemonCommand } from "./locate.js";
