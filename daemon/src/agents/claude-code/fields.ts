// The answer fields Claude Code accepts at each event: its hook output schema (2.1.3xx). Every
// event takes the universal and blocking fields; hookSpecificOutput only where listed.
import type { AnswerFields } from "../fit-answer.js";

export const CONTEXT = ["hookEventName", "additionalContext"];
export const UNIVERSAL = ["continue", "stopReason", "suppressOutput", "systemMessage"];
export const BLOCKING = [...UNIVERSAL, "decision", "reason"];

const SPECIFIC: { readonly [event: string]: readonly string[] } = {
  SessionStart: CONTEXT,
  SubagentStart: CONTEXT,
  UserPromptSubmit: [...CONTEXT, "sessionTitle"],
  PreToolUse: ["hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"],
  PermissionRequest: ["hookEventName", "decision"],
  PostToolUse: [...CONTEXT, "updatedToolOutput", "updatedMCPToolOutput"],
  PostToolUseFailure: CONTEXT,
  SubagentStop: CONTEXT,
  Notification: CONTEXT,
};

export const CLAUDE_FIELDS: AnswerFields = {
  of: (event) => {
    const specific = Object.hasOwn(SPECIFIC, event) ? (SPECIFIC[event] ?? []) : [];
    return { top: specific.length === 0 ? BLOCKING : [...BLOCKING, "hookSpecificOutput"], specific };
  },
};
