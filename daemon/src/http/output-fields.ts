// The answer fields each agent accepts at each event, applied to every answer before it leaves.
// Codex's output schemas are strict (additionalProperties: false) and some fields they list are
// refused at run time ("PreToolUse hook returned unsupported continue:false"): an answer with a
// field Codex does not support makes Codex count the hook as FAILED and carry on as if it had not
// run (fail-open), so a deny with one stray field would let the call run. The Codex table is
// its 0.17x schemas (codex-rs hook *.command.output) minus what its runtime refuses; Claude Code's
// is its hook output schema (2.1.3xx). A field outside the table is dropped and reported, never
// silently: the caller logs every dropped field.
import type { AnswerDialect, HookAnswer } from "./answer.js";

interface EventFields {
  /** Top-level fields. */
  readonly top: readonly string[];
  /** hookSpecificOutput fields (hookEventName included); empty = no hookSpecificOutput. */
  readonly specific: readonly string[];
}

const CONTEXT = ["hookEventName", "additionalContext"];
const UNIVERSAL = ["continue", "stopReason", "suppressOutput", "systemMessage"];
const BLOCKING = [...UNIVERSAL, "decision", "reason"];

const CODEX: { readonly [event: string]: EventFields } = {
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

const CLAUDE_SPECIFIC: { readonly [event: string]: readonly string[] } = {
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

function fieldsOf(event: string, dialect: AnswerDialect): EventFields {
  if (dialect === "codex") return Object.hasOwn(CODEX, event) ? (CODEX[event] ?? { top: [], specific: [] }) : { top: [], specific: [] };
  const specific = Object.hasOwn(CLAUDE_SPECIFIC, event) ? (CLAUDE_SPECIFIC[event] ?? []) : [];
  return { top: specific.length === 0 ? BLOCKING : [...BLOCKING, "hookSpecificOutput"], specific };
}

/** Values a field may hold where the agent accepts only some (Codex: no ask; allow only with updatedInput). */
function refusedValue(specific: { readonly [key: string]: unknown }, field: string, dialect: AnswerDialect): boolean {
  if (dialect !== "codex" || field !== "permissionDecision") return false;
  const value = specific[field];
  return value === "ask" || (value === "allow" && specific.updatedInput === undefined);
}

export interface FittedAnswer {
  readonly answer: HookAnswer;
  /** The fields removed, as paths ("hookSpecificOutput.updatedToolOutput"). */
  readonly dropped: readonly string[];
}

/** The answer with only the fields `dialect` accepts at `event`. */
export function fitAnswer(answer: HookAnswer, event: string, dialect: AnswerDialect): FittedAnswer {
  const allowed = fieldsOf(event, dialect);
  const dropped: string[] = [];
  const fitted: { [key: string]: unknown } = {};
  for (const [key, value] of Object.entries(answer)) {
    if (!allowed.top.includes(key)) {
      dropped.push(key);
      continue;
    }
    if (key !== "hookSpecificOutput") {
      fitted[key] = value;
      continue;
    }
    const specific = value as { readonly [key: string]: unknown };
    const kept: { [key: string]: unknown } = {};
    for (const [field, inner] of Object.entries(specific)) {
      if (allowed.specific.includes(field) && !refusedValue(specific, field, dialect)) kept[field] = inner;
      else dropped.push(`hookSpecificOutput.${field}`);
    }
    if (dialect === "codex" && kept.permissionDecisionReason !== undefined && kept.permissionDecision === undefined) {
      delete kept.permissionDecisionReason; // Codex refuses a reason without a decision
      dropped.push("hookSpecificOutput.permissionDecisionReason");
    }
    if (Object.keys(kept).some((field) => field !== "hookEventName")) fitted[key] = kept;
  }
  return { answer: fitted, dropped };
}
