// The two command-hook dialects hookd speaks (Claude Code, Codex) and their hook events, as one
// table: which hookd point an event fires at, what its matcher is matched against, and the
// per-dialect facts (stdin framing, default timeouts, exit-2 rules). Owns no behaviour; every
// other module of the command kind reads its differences from here.
import type { FailurePolicy, PointName } from "@hookd/sdk";

export type Dialect = "claude-code" | "codex";

/** The hook events hookd runs at a typed point, in the agents' spelling. */
export const HOOK_EVENTS = [
  "SessionStart",
  "SubagentStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "Stop",
  "SubagentStop",
  "SessionEnd",
  "StopFailure",
  "Interrupt",
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * What an observed event's matcher is matched against, as the agents read it (Claude Code
 * 2.1.33x's matcher field per event, checked in its binary): a payload field; "file-name": the
 * base name of `file_path`; "tool-calls": any of `tool_calls[].tool_name`; "none": the event has
 * no matcher field and every hook runs. `names`: the exact-name-or-list syntax applies (Claude
 * Code reads every other matcher as a regex).
 */
export interface ObservedMatch {
  /** A payload field's name, or one of "file-name", "tool-calls", "none". */
  readonly on: string;
  readonly names: boolean;
}

const on = (field: string): ObservedMatch => ({ on: field, names: true });
const NONE: ObservedMatch = { on: "none", names: false };

/**
 * Events of the agents that have no typed point: their hooks run at the observe-only
 * `agent-event` point (observe.ts), matched as the agent matches them. Any other name is a typo
 * and rejects the file.
 */
export const OBSERVED_EVENTS: { readonly [event: string]: ObservedMatch } = {
  Setup: on("trigger"),
  UserPromptExpansion: on("command_name"),
  PermissionDenied: on("tool_name"),
  PreSkillShellCommand: on("tool_name"),
  PostToolBatch: { on: "tool-calls", names: true },
  Notification: on("notification_type"),
  MessageDisplay: NONE,
  TaskCreated: NONE,
  TaskCompleted: NONE,
  TeammateIdle: NONE,
  InstructionsLoaded: on("load_reason"),
  ConfigChange: on("source"),
  CwdChanged: NONE,
  DirectoryAdded: on("source"),
  FileChanged: { on: "file-name", names: false },
  WorktreeCreate: NONE,
  WorktreeRemove: NONE,
  PreCompact: on("trigger"),
  PostCompact: on("trigger"),
  Elicitation: on("mcp_server_name"),
  ElicitationResult: on("mcp_server_name"),
  PreModelSwitch: on("to_model"),
  PostModelSwitch: on("to_model"),
};

/** What a group's matcher is matched against; "none": the event has no matcher field and ignores it. */
export type MatchOn = "tool" | "source" | "agent-type" | "end-reason" | "error-type" | "none";

export interface EventSpec {
  readonly point: PointName;
  readonly matchOn: MatchOn;
}

export const EVENT_SPECS: { readonly [E in HookEvent]: EventSpec } = {
  SessionStart: { point: "session-start", matchOn: "source" },
  // A subagent's session start: session-start with source "subagent", matched on its agent type.
  SubagentStart: { point: "session-start", matchOn: "agent-type" },
  UserPromptSubmit: { point: "pre-step", matchOn: "none" },
  // Also runs at the rewrite point when the file has PreToolUse hooks (listener.ts): one run per
  // call answers both its updatedInput (rewrite) and its permission (pre-tool).
  PreToolUse: { point: "pre-tool", matchOn: "tool" },
  PermissionRequest: { point: "approval", matchOn: "tool" },
  PostToolUse: { point: "post-tool", matchOn: "tool" },
  PostToolUseFailure: { point: "post-tool", matchOn: "tool" },
  Stop: { point: "turn-stopping", matchOn: "none" },
  SubagentStop: { point: "turn-stopping", matchOn: "agent-type" },
  SessionEnd: { point: "session-end", matchOn: "end-reason" },
  StopFailure: { point: "turn-end", matchOn: "error-type" },
  // Codex: the user interrupted the turn (also SIGINT to a headless `codex exec`); no Stop follows.
  Interrupt: { point: "turn-end", matchOn: "none" },
};

/** The hook events that may fire at a hookd point, in the order a firing picks among them. */
export const EVENTS_AT_POINT: Partial<Record<PointName, readonly HookEvent[]>> = {
  "session-start": ["SessionStart", "SubagentStart"],
  "pre-step": ["UserPromptSubmit"],
  rewrite: ["PreToolUse"],
  "pre-tool": ["PreToolUse"],
  approval: ["PermissionRequest"],
  // PreToolUse's additionalContext is delivered with the call's result (listener.ts).
  "post-tool": ["PostToolUse", "PostToolUseFailure", "PreToolUse"],
  "turn-stopping": ["Stop", "SubagentStop"],
  "session-end": ["SessionEnd"],
  "turn-end": ["StopFailure", "Interrupt"],
};

export function isHookEvent(value: string): value is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

export interface DialectSpec {
  /** Claude Code writes the payload followed by "\n"; Codex writes the bare JSON text. */
  readonly trailingNewline: boolean;
  /**
   * Matcher syntax. "claude-code": a string of letters, digits, `_`, `-`, space, `,` and `|` is
   * an exact name or list, anything else an unanchored regex. "regex": always an unanchored regex.
   */
  readonly matcherMode: "claude-code" | "regex";
  /** Seconds a hook may run when it sets no `timeout` (the agent's own default). */
  readonly defaultTimeoutSec: number;
  /** Per-event defaults that differ from defaultTimeoutSec. */
  readonly eventTimeoutSec: { readonly [E in HookEvent]?: number };
  /** Per-event ceilings the agent applies to a hook's own `timeout`. */
  readonly maxTimeoutSec: { readonly [E in HookEvent]?: number };
  /**
   * Events whose hooks share one budget: the longest of their timeouts, at least `minSec`
   * (Claude Code's SessionEnd: every hook gets max(1.5 s, the longest own timeout up to 60 s)).
   */
  readonly sharedTimeout: { readonly [E in HookEvent]?: { readonly minSec: number } };
  /** What a hook's non-blocking error stands for when the config sets no failurePolicy. */
  readonly defaultFailurePolicy: FailurePolicy;
  /**
   * Claude Code blocks on exit 2 with an empty stderr (or `decision: "block"` without a reason)
   * using a default reason; Codex counts either as a hook error.
   */
  readonly blockNeedsReason: boolean;
  /** `transcript_path` when hookd knows no transcript: Claude Code sends a string, Codex null. */
  readonly unknownTranscript: "" | null;
  /** Codex adds `turn_id` and `model` to every payload. */
  readonly turnAndModel: boolean;
  /** Codex applies a PreToolUse updatedInput only beside permissionDecision "allow". */
  readonly updatedInputNeedsAllow: boolean;
}

export const DIALECTS: { readonly [D in Dialect]: DialectSpec } = {
  "claude-code": {
    trailingNewline: true,
    matcherMode: "claude-code",
    // Claude Code 2.1.33x: command hooks 600 s; SessionEnd hooks share 1.5 s unless a hook's own
    // timeout asks for more, up to 60 s (checked in the binary of @anthropic-ai/claude-code).
    defaultTimeoutSec: 600,
    eventTimeoutSec: { SessionEnd: 1.5 },
    maxTimeoutSec: { SessionEnd: 60 },
    sharedTimeout: { SessionEnd: { minSec: 1.5 } },
    defaultFailurePolicy: "fail-open",
    blockNeedsReason: false,
    unknownTranscript: "",
    turnAndModel: false,
    updatedInputNeedsAllow: false,
  },
  codex: {
    trailingNewline: false,
    matcherMode: "regex",
    defaultTimeoutSec: 600,
    eventTimeoutSec: {},
    maxTimeoutSec: {},
    sharedTimeout: {},
    defaultFailurePolicy: "fail-open",
    blockNeedsReason: true,
    unknownTranscript: null,
    turnAndModel: true,
    updatedInputNeedsAllow: true,
  },
};

/** A hook's timeout in seconds: its own (within the agent's ceiling for the event), else the event's default. */
export function hookTimeoutSec(dialect: Dialect, event: HookEvent, own: number | undefined): number {
  const spec = DIALECTS[dialect];
  const ceiling = spec.maxTimeoutSec[event];
  if (own !== undefined) return ceiling === undefined ? own : Math.min(own, ceiling);
  return spec.eventTimeoutSec[event] ?? spec.defaultTimeoutSec;
}
