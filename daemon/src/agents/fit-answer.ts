// An answer cut down to the fields its agent accepts at the event, applied to every answer
// before it leaves. A field outside the agent's table is dropped and reported, never silently:
// the caller logs every dropped field. Each agent's table is its own (agents/<agent>/fields.ts).
import type { FittedAnswer, HookAnswer } from "./contract.js";

export interface EventFields {
  /** Top-level fields. */
  readonly top: readonly string[];
  /** hookSpecificOutput fields (hookEventName included); empty = no hookSpecificOutput. */
  readonly specific: readonly string[];
}

export interface AnswerFields {
  readonly of: (event: string) => EventFields;
  /** A value of a hookSpecificOutput field that the agent refuses at run time. */
  readonly refused?: (specific: { readonly [key: string]: unknown }, field: string) => boolean;
  /** The agent refuses a permissionDecisionReason without a permissionDecision. */
  readonly reasonNeedsDecision?: boolean;
}

export function fitAnswer(answer: HookAnswer, event: string, fields: AnswerFields): FittedAnswer {
  const allowed = fields.of(event);
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
      if (allowed.specific.includes(field) && fields.refused?.(specific, field) !== true) kept[field] = inner;
      else dropped.push(`hookSpecificOutput.${field}`);
    }
    if (fields.reasonNeedsDecision === true && kept.permissionDecisionReason !== undefined && kept.permissionDecision === undefined) {
      delete kept.permissionDecisionReason;
      dropped.push("hookSpecificOutput.permissionDecisionReason");
    }
    if (Object.keys(kept).some((field) => field !== "hookEventName")) fitted[key] = kept;
  }
  return { answer: fitted, dropped };
}
