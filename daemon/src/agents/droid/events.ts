// Factory Droid 0.225's hook events and hooks file (docs/agents/droid.md, read in its binary and
// run headless): Claude Code's original nine events and nested format; a matcher that is absent,
// "" or "*" matches all, else the exact name or an unanchored regex; timeouts in seconds, 60 by default.
import type { EventSpec } from "../contract.js";
import { OBSERVED_EVENTS, TYPED_EVENTS, claudeStyleFormat } from "../claude-code/events.js";
import type { HooksFileFormat } from "../hooks-file.js";

export const DROID_EVENTS: { readonly [event: string]: EventSpec } = {
  SessionStart: TYPED_EVENTS.SessionStart,
  UserPromptSubmit: TYPED_EVENTS.UserPromptSubmit,
  PreToolUse: TYPED_EVENTS.PreToolUse,
  PostToolUse: TYPED_EVENTS.PostToolUse,
  Stop: TYPED_EVENTS.Stop,
  SubagentStop: TYPED_EVENTS.SubagentStop,
  SessionEnd: TYPED_EVENTS.SessionEnd,
  Notification: OBSERVED_EVENTS.Notification,
  PreCompact: OBSERVED_EVENTS.PreCompact,
};

export const DROID_FORMAT: HooksFileFormat = claudeStyleFormat("droid", DROID_EVENTS, "regex", { defaultSec: 60, eventSec: {}, maxSec: {}, sharedMinSec: {} });
