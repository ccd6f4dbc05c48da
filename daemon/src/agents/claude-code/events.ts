// Claude Code's hook events (2.1.33x, checked in its binary) as one table: the hookd point each
// fires at (agent-event for those without a typed point), what its matcher is matched against,
// and the hooks file's format (matcher syntax, timeouts). Codex and Qwen Code start from it.
import type { PointName } from "@hookd/sdk";
import type { EventSpec } from "../contract.js";
import { compileMatcher } from "../matcher.js";
import type { MatcherMode } from "../matcher.js";
import type { HooksFileFormat } from "../hooks-file.js";

const typed = (point: PointName, matchOn: string): EventSpec => ({ point, matchOn });
const observed = (matchOn: string, names = true): EventSpec => ({ point: "agent-event", matchOn, names });

/** Events with a typed point. The firing (firing.ts) supplies a "trigger" event's match value. */
export const TYPED_EVENTS = {
  SessionStart: typed("session-start", "trigger"),
  // A subagent's session start: session-start with source "subagent", matched on its agent type.
  SubagentStart: typed("session-start", "trigger"),
  UserPromptSubmit: typed("pre-step", "none"),
  // Runs ONCE per call, at the rewrite point; the same run answers pre-tool (plugins/command/listener.ts).
  PreToolUse: typed("pre-tool", "tool"),
  PermissionRequest: typed("approval", "tool"),
  PostToolUse: typed("post-tool", "tool"),
  PostToolUseFailure: typed("post-tool", "tool"),
  Stop: typed("turn-stopping", "none"),
  SubagentStop: typed("turn-stopping", "trigger"),
  SessionEnd: typed("session-end", "trigger"),
  StopFailure: typed("turn-end", "trigger"),
  Interrupt: typed("turn-end", "none"),
} as const satisfies { readonly [event: string]: EventSpec };

/**
 * Events without a typed point: their hooks run at the observe-only agent-event point, matched
 * as the agent matches them (a payload field; "file-name": the base name of `file_path`;
 * "tool-calls": any of `tool_calls[].tool_name`). Any other name is a typo and rejects the file.
 */
export const OBSERVED_EVENTS = {
  Setup: observed("field:trigger"),
  UserPromptExpansion: observed("field:command_name"),
  PermissionDenied: observed("field:tool_name"),
  PreSkillShellCommand: observed("field:tool_name"),
  PostToolBatch: observed("tool-calls"),
  Notification: observed("field:notification_type"),
  MessageDisplay: observed("none", false),
  TaskCreated: observed("none", false),
  TaskCompleted: observed("none", false),
  TeammateIdle: observed("none", false),
  InstructionsLoaded: observed("field:load_reason"),
  ConfigChange: observed("field:source"),
  CwdChanged: observed("none", false),
  DirectoryAdded: observed("field:source"),
  FileChanged: observed("file-name", false),
  WorktreeCreate: observed("none", false),
  WorktreeRemove: observed("none", false),
  PreCompact: observed("field:trigger"),
  PostCompact: observed("field:trigger"),
  Elicitation: observed("field:mcp_server_name"),
  ElicitationResult: observed("field:mcp_server_name"),
  PreModelSwitch: observed("field:to_model"),
  PostModelSwitch: observed("field:to_model"),
} as const satisfies { readonly [event: string]: EventSpec };

export const EVENTS: { readonly [event: string]: EventSpec } = { ...TYPED_EVENTS, ...OBSERVED_EVENTS };

/** Claude Code's own table (2.1.337, 35 events): its Interrupt matches on who stopped the turn (`source`). */
export const CLAUDE_EVENTS: { readonly [event: string]: EventSpec } = { ...EVENTS, Interrupt: typed("turn-end", "trigger") };

/** The hook events that may fire at a hookd point, in the order a firing picks among them. */
export const EVENTS_AT_POINT: Partial<Record<PointName, readonly string[]>> = {
  "session-start": ["SessionStart", "SubagentStart"],
  "pre-step": ["UserPromptSubmit"],
  rewrite: ["PreToolUse"],
  "pre-tool": ["PreToolUse"],
  approval: ["PermissionRequest"],
  // PreToolUse's additionalContext is delivered with the call's result.
  "post-tool": ["PostToolUse", "PostToolUseFailure", "PreToolUse"],
  "turn-stopping": ["Stop", "SubagentStop"],
  "session-end": ["SessionEnd"],
  "turn-end": ["StopFailure", "Interrupt"],
};

/** Timeouts of a hooks file, in seconds as the file writes them. */
export interface TimeoutFacts {
  /** When a hook sets no `timeout` (the agent's own default). */
  readonly defaultSec: number;
  /** Per-event defaults that differ from defaultSec. */
  readonly eventSec: { readonly [event: string]: number };
  /** Per-event ceilings the agent applies to a hook's own `timeout`. */
  readonly maxSec: { readonly [event: string]: number };
  /** Events whose hooks share one budget: the longest of their timeouts, at least this. */
  readonly sharedMinSec: { readonly [event: string]: number };
}

// Claude Code 2.1.33x: command hooks 600 s; SessionEnd hooks share 1.5 s unless a hook's own
// timeout asks for more, up to 60 s.
export const CLAUDE_TIMEOUTS: TimeoutFacts = { defaultSec: 600, eventSec: { SessionEnd: 1.5 }, maxSec: { SessionEnd: 60 }, sharedMinSec: { SessionEnd: 1.5 } };

/** A hook's timeout in seconds: its own (within the agent's ceiling for the event), else the event's default. */
export function hookTimeoutSec(facts: TimeoutFacts, event: string, own: number | undefined): number {
  const ceiling = facts.maxSec[event];
  if (own !== undefined) return ceiling === undefined ? own : Math.min(own, ceiling);
  return facts.eventSec[event] ?? facts.defaultSec;
}

/**
 * A Claude-Code-style hooks file: "names" matchers are an exact name or list unless they hold
 * other characters (then a regex) in Claude Code, always a regex in `mode` "regex" (Codex).
 */
export function claudeStyleFormat(dialect: string, events: { readonly [event: string]: EventSpec }, mode: MatcherMode, timeouts: TimeoutFacts): HooksFileFormat {
  return {
    dialect,
    eventWord: "hook event",
    events,
    matcher: (pattern, spec) => compileMatcher(pattern, spec.names === false ? "regex" : mode),
    timeoutUnit: "seconds",
    timeoutMs: (event, own) => hookTimeoutSec(timeouts, event, own) * 1000,
    sharedTimeoutMs: (event) => {
      const min = timeouts.sharedMinSec[event];
      return min === undefined ? undefined : min * 1000;
    },
    sequentialGroups: false,
    namedHooks: false,
    asyncHooks: true,
  };
}
