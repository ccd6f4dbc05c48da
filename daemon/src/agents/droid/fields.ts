// The answer fields Factory Droid 0.225 accepts at each event (its hook output schema, read in
// its binary): the universal and blocking fields everywhere, hookSpecificOutput only where listed.
import { BLOCKING, CONTEXT } from "../claude-code/fields.js";
import type { AnswerFields } from "../fit-answer.js";

const SPECIFIC: { readonly [event: string]: readonly string[] } = {
  SessionStart: CONTEXT,
  UserPromptSubmit: CONTEXT,
  PreToolUse: ["hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput"],
  PostToolUse: CONTEXT,
};

export const DROID_FIELDS: AnswerFields = {
  of: (event) => {
    const specific = Object.hasOwn(SPECIFIC, event) ? (SPECIFIC[event] ?? []) : [];
    return { top: specific.length === 0 ? BLOCKING : [...BLOCKING, "hookSpecificOutput"], specific };
  },
};
