// Cline 3.0's hook events (docs/agents/cline.md, read in its installed @cline/core bundle): one
// executable per event in a hooks directory. Only PreToolUse and PostToolUse are awaited by the
// CLI; TaskStart and TaskResume only when the host makes them blocking; every other event runs
// fire-and-forget, so hookd only observes it.
import type { PointName } from "@hookd/sdk";
import type { EventSpec } from "../contract.js";

const typed = (point: PointName): EventSpec => ({ point, matchOn: "none" });
const observed: EventSpec = { point: "agent-event", matchOn: "none" };

export const CLINE_EVENTS: { readonly [event: string]: EventSpec } = {
  TaskStart: typed("session-start"),
  TaskResume: typed("session-start"),
  PreToolUse: typed("pre-tool"),
  PostToolUse: typed("post-tool"),
  TaskComplete: typed("turn-end"),
  TaskError: typed("turn-end"),
  TaskCancel: typed("turn-end"),
  SessionShutdown: typed("session-end"),
  // Fire-and-forget in Cline: an answer could not block the prompt, so hookd observes it.
  UserPromptSubmit: observed,
  // Named by Cline but mapped to no runtime hook in 3.0.65: never fired.
  PreCompact: observed,
};

export const CLINE_EVENTS_AT_POINT: Partial<Record<PointName, readonly string[]>> = {
  "session-start": ["TaskStart", "TaskResume"],
  rewrite: ["PreToolUse"],
  "pre-tool": ["PreToolUse"],
  "post-tool": ["PostToolUse"],
  "turn-end": ["TaskComplete", "TaskError", "TaskCancel"],
  "session-end": ["SessionShutdown"],
};
