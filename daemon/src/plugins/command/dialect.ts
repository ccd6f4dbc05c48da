// The two command-hook dialects hookd speaks (Claude Code, Codex) and the hook events they share,
// as one table: which hookd point an event fires at, what its matcher is matched against, and the
// per-dialect facts (stdin framing, default timeout, exit-2 rules). Owns no behaviour; every other
// module of the command kind reads its differences from here.
import type { FailurePolicy, PointName } from "@hookd/sdk";

export type Dialect = "claude-code" | "codex";

/** The hook events hookd runs, in the agents' spelling. */
export const HOOK_EVENTS = ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SubagentStart", "SubagentStop"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * Events of the agents that a hooks file may contain but hookd has no point for. They are
 * accepted (so an existing settings file loads) and listed as unsupported by `hookd check`;
 * any other name is a typo and rejects the file.
 */
export const FOREIGN_EVENTS: ReadonlySet<string> = new Set([
  "Notification",
  "PreCompact",
  "PostCompact",
  "SessionEnd",
  "PermissionRequest",
  "PostToolUseFailure",
  "StopFailure",
  "Setup",
  "Interrupt",
]);

export interface EventSpec {
  /**
   * Where the event fires. SubagentStart/SubagentStop fire only where an agent reports subagents;
   * hookd has no such point yet, so they are parsed and validated but never run.
   */
  readonly point: PointName | undefined;
  /** What the matcher is matched against; "none" ignores the matcher (both agents do so). */
  readonly matchOn: "tool" | "source" | "agent-type" | "none";
}

export const EVENT_SPECS: { readonly [E in HookEvent]: EventSpec } = {
  SessionStart: { point: "session-start", matchOn: "source" },
  UserPromptSubmit: { point: "pre-step", matchOn: "none" },
  PreToolUse: { point: "pre-tool", matchOn: "tool" },
  PostToolUse: { point: "post-tool", matchOn: "tool" },
  Stop: { point: "turn-stopping", matchOn: "none" },
  SubagentStart: { point: undefined, matchOn: "agent-type" },
  SubagentStop: { point: undefined, matchOn: "agent-type" },
};

/** The hook event that fires at a hookd point (one per point). */
export const EVENT_AT_POINT: Partial<Record<PointName, HookEvent>> = {
  "session-start": "SessionStart",
  "pre-step": "UserPromptSubmit",
  "pre-tool": "PreToolUse",
  "post-tool": "PostToolUse",
  "turn-stopping": "Stop",
};

export function isHookEvent(value: string): value is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(value);
}

export interface DialectSpec {
  /** Claude Code writes the payload followed by "\n"; Codex writes the bare JSON text. */
  readonly trailingNewline: boolean;
  /**
   * Matcher syntax. "claude-code": a string of letters, digits, `_` and `|` is an exact name or
   * `|`-list, anything else an unanchored regex. "regex": always an unanchored regex (Codex
   * releases before the exact-name rule; see matcher.ts).
   */
  readonly matcherMode: "claude-code" | "regex";
  /** Seconds a hook may run when it sets no `timeout`. */
  readonly defaultTimeoutSec: number;
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
}

export const DIALECTS: { readonly [D in Dialect]: DialectSpec } = {
  "claude-code": {
    trailingNewline: true,
    matcherMode: "claude-code",
    // Both agents default to 600 s today; hookd uses 60 s so a hung hook cannot hold a gate for
    // ten minutes by default. A hook's own `timeout` still wins (and the point budget caps it).
    defaultTimeoutSec: 60,
    defaultFailurePolicy: "fail-open",
    blockNeedsReason: false,
    unknownTranscript: "",
    turnAndModel: false,
  },
  codex: {
    trailingNewline: false,
    matcherMode: "regex",
    defaultTimeoutSec: 60,
    defaultFailurePolicy: "fail-open",
    blockNeedsReason: true,
    unknownTranscript: null,
    turnAndModel: true,
  },
};
