// Gemini CLI 0.61's hook events and hooks file: the point each event fires at, and the format
// (groups {matcher?, sequential?, hooks}; hooks {type: "command", command, name?, timeout?
// (MILLISECONDS, default 60 000), env?}). A matcher never makes the file invalid: Gemini tests
// tool names with an unanchored regex and falls back to an exact name when the regex does not
// compile; trigger events (SessionStart, SessionEnd, PreCompress) compare exact strings.
import type { PointName } from "@hookd/sdk";
import type { EventSpec } from "../contract.js";
import type { CompiledMatcher } from "../matcher.js";
import type { HooksFileFormat } from "../hooks-file.js";

const at = (point: PointName, matchOn: string): EventSpec => ({ point, matchOn });

export const GEMINI_EVENTS: { readonly [event: string]: EventSpec } = {
  SessionStart: at("session-start", "trigger"),
  SessionEnd: at("session-end", "trigger"),
  BeforeAgent: at("pre-step", "none"),
  AfterAgent: at("turn-stopping", "none"),
  BeforeModel: at("agent-event", "none"),
  AfterModel: at("agent-event", "none"),
  BeforeToolSelection: at("agent-event", "none"),
  // Runs ONCE per call, at the rewrite point; the same run answers pre-tool.
  BeforeTool: at("pre-tool", "tool"),
  AfterTool: at("post-tool", "tool"),
  PreCompress: at("agent-event", "field:trigger"),
  Notification: at("agent-event", "none"),
};

export const GEMINI_EVENTS_AT_POINT: Partial<Record<PointName, readonly string[]>> = {
  "session-start": ["SessionStart"],
  "pre-step": ["BeforeAgent"],
  rewrite: ["BeforeTool"],
  "pre-tool": ["BeforeTool"],
  "post-tool": ["AfterTool"],
  "turn-stopping": ["AfterAgent"],
  "session-end": ["SessionEnd"],
};

const DEFAULT_TIMEOUT_MS = 60_000;

/** Gemini's matcher rule for one group (never fails). */
export function geminiMatcher(pattern: string | undefined, spec: EventSpec): CompiledMatcher {
  const trimmed = pattern?.trim() ?? "";
  if (trimmed === "" || trimmed === "*" || spec.matchOn === "none") return { ok: true, matches: () => true };
  if (spec.matchOn !== "tool") return { ok: true, matches: (input) => input === trimmed };
  try {
    const regex = new RegExp(trimmed);
    return { ok: true, matches: (input) => regex.test(input) };
  } catch {
    return { ok: true, matches: (input) => input === trimmed };
  }
}

export const GEMINI_FORMAT: HooksFileFormat = {
  dialect: "gemini",
  eventWord: "Gemini CLI hook event",
  events: GEMINI_EVENTS,
  // Gemini's own switches in the same object.
  switches: ["enabled", "disabled", "notifications"],
  matcher: geminiMatcher,
  timeoutUnit: "milliseconds",
  timeoutMs: (_event, own) => own ?? DEFAULT_TIMEOUT_MS,
  sequentialGroups: true,
  namedHooks: true,
  asyncHooks: false,
};
