// Qwen Code 0.24's hook events and hooks file (docs/agents/qwen-code.md, measured on the binary):
// Claude Code's event names and contract, its own events besides, matchers that also answer to
// a tool's aliases, groups that may run in sequence, and timeouts in seconds (a value of 1000 or
// more is read as milliseconds, the old unit; default 60 s).
import type { EventSpec } from "../contract.js";
import { OBSERVED_EVENTS, TYPED_EVENTS, claudeStyleFormat } from "../claude-code/events.js";
import type { CompiledMatcher } from "../matcher.js";
import type { HooksFileFormat } from "../hooks-file.js";

const { Interrupt: _claudeOnly, ...typed } = TYPED_EVENTS;
const observed = (matchOn: string): EventSpec => ({ point: "agent-event", matchOn });

export const QWEN_EVENTS: { readonly [event: string]: EventSpec } = {
  ...typed,
  PostToolBatch: OBSERVED_EVENTS.PostToolBatch,
  Notification: OBSERVED_EVENTS.Notification,
  UserPromptExpansion: OBSERVED_EVENTS.UserPromptExpansion,
  MessageDisplay: OBSERVED_EVENTS.MessageDisplay,
  PreCompact: OBSERVED_EVENTS.PreCompact,
  PostCompact: OBSERVED_EVENTS.PostCompact,
  PermissionDenied: OBSERVED_EVENTS.PermissionDenied,
  InstructionsLoaded: observed("field:file_path"),
  SessionDelete: observed("none"),
  TodoCreated: observed("none"),
  TodoCompleted: observed("none"),
};

/** The names a tool also answers to in a matcher. */
const ALIASES: { readonly [tool: string]: readonly string[] } = { run_shell_command: ["Bash", "Shell", "ShellTool"] };

/**
 * Qwen's matcher: absent, "", "*" or ".*" match all; a name equal to the tool or one of its
 * aliases matches; "a|b" is a list (unless it starts with "^" or "("); anything else is an
 * unanchored regex.
 */
export function qwenMatcher(pattern: string | undefined, spec: EventSpec): CompiledMatcher {
  const trimmed = pattern?.trim() ?? "";
  if (trimmed === "" || trimmed === "*" || trimmed === ".*" || spec.matchOn === "none") return { ok: true, matches: () => true };
  const names = trimmed.startsWith("^") || trimmed.startsWith("(") ? [] : trimmed.split("|").map((name) => name.trim());
  let regex: RegExp;
  try {
    regex = new RegExp(trimmed);
  } catch (error) {
    return { ok: false, error: `invalid regular expression ${JSON.stringify(trimmed)}: ${(error as Error).message}` };
  }
  return { ok: true, matches: (input) => names.some((name) => name === input || (ALIASES[input] ?? []).includes(name)) || regex.test(input) };
}

export const QWEN_FORMAT: HooksFileFormat = {
  ...claudeStyleFormat("qwen-code", QWEN_EVENTS, "regex", { defaultSec: 60, eventSec: {}, maxSec: {}, sharedMinSec: {} }),
  matcher: qwenMatcher,
  timeoutMs: (_event, own) => (own === undefined ? 60_000 : own >= 1000 ? own : own * 1000),
  sequentialGroups: true,
};
