// What of pi reaches hookd: the events this extension answers, and the ones it forwards to be
// observed as they are (most of pi's ~25 are streaming or UI updates nobody guards on).

/** The events the extension drives a typed point with. */
export const ANSWERED_EVENTS: readonly string[] = ["session_start", "session_shutdown", "input", "tool_call", "tool_result", "agent_before_settle"];

/** Forwarded to hookd's agent-event point, payload as pi sends it. */
export const OBSERVED_EVENTS: readonly string[] = ["session_compact", "model_select", "agent_settled"];
