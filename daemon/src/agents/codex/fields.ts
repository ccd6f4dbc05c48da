// The answer fields Codex accepts at each event. Its output schemas are strict
// (additionalProperties: false) and some fields they list are refused at run time ("PreToolUse
// hook returned unsupported continue:false"): an answer with a field Codex does not support
// makes Codex count the hook as FAILED and carry on as if it had not run (fail-open), so a deny
// with one stray field would let the call run. The table is its 0.17x schemas (codex-rs hook
// *.command.output) minus what its runtime refuses.
import { BLOCKING, CONTEXT, UNIVERSAL } from "../claude-code/fields.js";
import type { AnswerFields, EventFields } from "../fit-answer.js";

const TABLE: { readonly [event: string]: EventFields } = {
  SessionStart: { top: [...UNIVERSAL, "hookSpecificOutput"], specific: CONTEXT },
  SubagentStart: { top: [...UNIVERSAL, "hookSpecificOutput"], specific: CONTEXT },
  UserPromptSubmit: { top: [...BLOCKING, "hookSpecificOutput"], specific: CONTEXT },
  // continue, stopReason and suppressOutput are in the schema but refused at run time.
  PreToolUse: { top: ["decision", "reason", "systemMessage", "hookSpecificOutput"], specific: ["hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"] },
  PermissionRequest: { top: ["systemMessage", "hookSpecificOutput"], specific: ["hookEventName", "decision"] },
  PostToolUse: { top: ["continue", "stopReason", "systemMessage", "decision", "reason", "hookSpecificOutput"], specific: ["hookEventName", "additionalContext", "updatedMCPToolOutput"] },
  Stop: { top: BLOCKING, specific: [] },
  SubagentStop: { top: BLOCKING, specific: [] },
  PreCompact: { top: UNIVERSAL, specific: [] },
  PostCompact: { top: UNIVERSAL, specific: [] },
  Interrupt: { top: ["systemMessage"], specific: [] },
  // SessionEnd has no output schema: nothing is read.
};

const NOTHING: EventFields = { top: [], specific: [] };

export const CODEX_FIELDS: AnswerFields = {
  of: (event) => (Object.hasOwn(TABLE, event) ? (TABLE[event] ?? NOTHING) : NOTHING),
  // Codex hooks cannot ask, and take an allow only beside updatedInput.
  refused: (specific, field) => field === "permissionDecision" && (specific[field] === "ask" || (specific[field] === "allow" && specific.updatedInput === undefined)),
  reasonNeedsDecision: true,
};
