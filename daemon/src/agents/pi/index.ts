// pi: in-process TypeScript extensions only, so hookd serves it through its extension
// (integrations/pi) over gRPC. What the daemon knows: each extension event the extension
// forwards and the point it drives (docs/agents/pi.md), and its tool kinds.
import type { EventSpec } from "../contract.js";
import { inProcessAgent } from "../in-process.js";
import { PI_TOOLS } from "./tools.js";

const observed: EventSpec = { point: "agent-event", matchOn: "none" };

/** The events the extension answers, then those it forwards to be observed. */
export const PI_EVENTS: { readonly [event: string]: EventSpec } = {
  session_start: { point: "session-start", matchOn: "none" },
  input: { point: "pre-step", matchOn: "none" },
  // {block, reason} denies (the reason is the tool result); mutating input rewrites: the rewrite chain, then pre-tool.
  tool_call: { point: "pre-tool", matchOn: "tool" },
  tool_result: { point: "post-tool", matchOn: "tool" },
  // Entries and `continue: true` run the agent once more: a steer.
  agent_before_settle: { point: "turn-stopping", matchOn: "none" },
  session_shutdown: { point: "session-end", matchOn: "none" },
  session_compact: observed,
  model_select: observed,
  agent_settled: observed,
};

export const pi = inProcessAgent({
  name: "pi",
  title: "pi",
  integration: "hookd's pi extension (integrations/pi)",
  events: PI_EVENTS,
  tools: PI_TOOLS,
});
