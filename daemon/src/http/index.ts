// The HTTP endpoint for agents' `http` hooks and the `hookd hook` forwarder.
export { startHookHttpServer, AGENT_HEADER, DIALECT_HEADER, EXIT_HEADER, FORWARD_HEADER } from "./server.js";
export type { HookHttpOptions, HookHttpServer } from "./server.js";
export { agentResolver } from "./identity.js";
export { ActiveAgents, HTTP_AGENT_WINDOW_MS } from "./active-agents.js";
export { StopCounter } from "./stop-counter.js";
