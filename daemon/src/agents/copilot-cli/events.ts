// GitHub Copilot CLI 1.0's 15 hook events (camelCase, as in its hooks files): the point each one
// drives, or agent-event for the ones hookd only observes, and what a matcher is matched against.
// Naming an event in PascalCase switches Copilot to Claude-Code-style payloads: those names are
// listed apart (CLAUDE_STYLE_EVENTS) and read by Claude Code's reader (request.ts).
import type { PointName } from "@hookd/sdk";
import type { EventSpec } from "../contract.js";

const at = (point: PointName, matchOn: string): EventSpec => ({ point, matchOn });

export const COPILOT_EVENTS: { readonly [event: string]: EventSpec } = {
  sessionStart: at("session-start", "none"),
  sessionEnd: at("session-end", "none"),
  userPromptSubmitted: at("pre-step", "none"),
  // The prompt as the model will get it (date and hook contexts added): nothing to answer.
  userPromptTransformed: at("agent-event", "none"),
  preToolUse: at("pre-tool", "tool"),
  postToolUse: at("post-tool", "tool"),
  postToolUseFailure: at("post-tool", "tool"),
  permissionRequest: at("approval", "tool"),
  preMcpToolCall: at("agent-event", "field:toolName"),
  preCompact: at("agent-event", "none"),
  agentStop: at("turn-stopping", "none"),
  subagentStart: at("agent-event", "none"),
  subagentStop: at("agent-event", "none"),
  notification: at("agent-event", "none"),
  errorOccurred: at("agent-event", "none"),
};

export const COPILOT_EVENTS_AT_POINT: Partial<Record<PointName, readonly string[]>> = {
  "session-start": ["sessionStart"],
  "pre-step": ["userPromptSubmitted"],
  rewrite: ["preToolUse"],
  "pre-tool": ["preToolUse"],
  approval: ["permissionRequest"],
  "post-tool": ["postToolUse", "postToolUseFailure"],
  "turn-stopping": ["agentStop"],
  "session-end": ["sessionEnd"],
};

/**
 * Hook types its schema also lists (HookType in schemas/api.schema.json) that a hooks file may
 * name without error but that the CLI was not seen to fire (1.0.102): accepted, never run.
 */
export const UNFIRED_EVENTS: readonly string[] = ["postResult", "prePRDescription"];

/** The PascalCase names Copilot accepts, which switch a hook to Claude-Code-style payloads. */
export const CLAUDE_STYLE_EVENTS: readonly string[] = [
  "SessionStart",
  "SessionEnd",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "PreMcpToolCall",
  "PreCompact",
  "Stop",
  "SubagentStart",
  "SubagentStop",
  "Notification",
  "ErrorOccurred",
];
