// OpenCode: in-process JS/TS plugins only, so hookd serves it through its plugin
// (integrations/opencode) over gRPC. What the daemon knows: each plugin hook and bus event the
// plugin forwards and the point it drives (docs/agents/opencode.md), and its tool kinds.
import type { EventSpec } from "../contract.js";
import { inProcessAgent } from "../in-process.js";
import { OPENCODE_TOOLS } from "./tools.js";

const observed: EventSpec = { point: "agent-event", matchOn: "none" };

/** The plugin hooks that drive a typed point, then the bus events the plugin forwards. */
export const OPENCODE_EVENTS: { readonly [event: string]: EventSpec } = {
  "chat.message": { point: "pre-step", matchOn: "none" },
  // A throw denies (its text is the tool result); mutating args rewrites: the rewrite chain, then pre-tool.
  "tool.execute.before": { point: "pre-tool", matchOn: "tool" },
  "tool.execute.after": { point: "post-tool", matchOn: "tool" },
  "session.created": { point: "session-start", matchOn: "none" },
  "session.deleted": { point: "session-end", matchOn: "none" },
  "session.idle": observed,
  "session.error": observed,
  "session.compacted": observed,
  "permission.asked": observed,
  "permission.replied": observed,
  "file.edited": observed,
  "command.executed": observed,
  "todo.updated": observed,
};

export const openCode = inProcessAgent({
  name: "opencode",
  title: "OpenCode",
  integration: "hookd's OpenCode plugin (integrations/opencode)",
  events: OPENCODE_EVENTS,
  tools: OPENCODE_TOOLS,
});
