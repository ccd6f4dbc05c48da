// Validates what a handler returned at a point, through the SDK's zod validators: the daemon
// accepts a decision from untyped code only after this check. Notifications treat `undefined`
// as pass. The constructors' frozen singletons (allow(), pass(), ...) skip the walk there.
import { validateDecision } from "@hookd/sdk";
import type { HookdError, PointName } from "@hookd/sdk";
import type { AnswerOf } from "./decisions.js";

export type CheckedAnswer<P extends PointName> = { readonly ok: true; readonly answer: AnswerOf<P> } | { readonly ok: false; readonly error: HookdError };

export function validateAnswer<P extends PointName>(point: P, raw: unknown): CheckedAnswer<P> {
  const checked = validateDecision(point, raw);
  return checked.ok ? { ok: true, answer: checked.decision as AnswerOf<P> } : { ok: false, error: checked.error };
}
