// Validates what a handler returned at a point, through the SDK's zod validators: the daemon
// accepts a decision from untyped code only after this check. Notifications treat `undefined`
// as pass.
import { abstain, allow, pass, validateDecision } from "@hookd/sdk";
import type { HookdError, PointName } from "@hookd/sdk";
import type { AnswerOf } from "./decisions.js";

export type CheckedAnswer<P extends PointName> = { readonly ok: true; readonly answer: AnswerOf<P> } | { readonly ok: false; readonly error: HookdError };

// The constructors return frozen singletons for these: recognizing them spares the schema walk
// on the commonest answers (profiled: ~10 us of CPU per call).
const PASS = pass();
const ALLOW = allow();
const ABSTAIN = abstain();

export function validateAnswer<P extends PointName>(point: P, raw: unknown): CheckedAnswer<P> {
  if (raw === PASS || (raw === ALLOW && point === "pre-tool") || (raw === ABSTAIN && point === "guard")) {
    return { ok: true, answer: raw as AnswerOf<P> };
  }
  const checked = validateDecision(point, raw);
  return checked.ok ? { ok: true, answer: checked.decision as AnswerOf<P> } : { ok: false, error: checked.error };
}
