// Validation of decisions handed to the daemon by untyped code (JS plugins, worker results,
// wrapper-authored tool results). Total: every function answers a result whose error names the
// offending field; valid input comes back deep-frozen, as a copy that shares nothing with the
// caller's (or as is, when it was deep-frozen already). The rules per point are in points/; this
// file only runs them.
import { HookdError } from "./errors.js";
import { POINT_TABLE, isPointName } from "./points/index.js";
import type { PointAnswer, PointName, PointSpec } from "./points/index.js";
import { splitNotice, withNotice } from "./notice.js";
import { check, readToolResult } from "./schema.js";
import type { ToolResult } from "./types.js";

export type { PointAnswer };

export type DecisionCheck<P extends PointName> =
  | { readonly ok: true; readonly decision: PointAnswer<P> }
  | { readonly ok: false; readonly error: HookdError };

export type ToolResultCheck = { readonly ok: true; readonly result: ToolResult } | { readonly ok: false; readonly error: HookdError };

/** The table's specs through their common interface. */
const SPECS: readonly PointSpec[] = Object.values(POINT_TABLE);

/** Every point's constructors' frozen singletons (pass, allow, abstain): the commonest answers. */
export const SINGLETON_ANSWERS: ReadonlySet<unknown> = new Set(SPECS.flatMap((spec) => spec.singletons));

/** Per point, its singleton answers by kind. */
const SINGLETONS_BY_KIND: ReadonlyMap<string, ReadonlyMap<string, unknown>> = new Map(
  SPECS.map((spec) => [spec.name, new Map(spec.singletons.map((answer) => [answer.kind, answer]))]),
);

/**
 * Validates what a handler at `point` answered. Never throws. A notification that answers
 * nothing (`undefined`) passes; an observer's answer is ignored (pass).
 */
export function validateDecision<P extends PointName>(point: P, input: unknown): DecisionCheck<P> {
  if (!isPointName(point)) return { ok: false, error: new HookdError("invalid_decision", `point: unknown point ${JSON.stringify(point)}`) };
  const spec: PointSpec = POINT_TABLE[point];
  if (spec.decision === undefined) return { ok: true, decision: spec.readAnswer(input, "decision") as PointAnswer<P> };
  const bare = bareAnswer(point, input);
  if (bare !== undefined) return { ok: true, decision: bare as PointAnswer<P> };
  const checked = check("invalid_decision", input, () => readWithNotice(spec, input));
  return checked.ok ? { ok: true, decision: checked.value as PointAnswer<P> } : checked;
}

/** The point's own schema reads the answer; its message for the user and stop request are checked here, where the point has them. */
function readWithNotice(spec: PointSpec, input: unknown): unknown {
  const split = spec.notices === true ? splitNotice(input, "decision") : undefined;
  if (split === undefined) return spec.readAnswer(input, "decision");
  return withNotice(spec.readAnswer(split.rest, "decision"), split.notice);
}

/** Validates a tool result authored by untyped code (an execute wrapper, a worker). Never throws. */
export function validateToolResult(input: unknown, path = "result"): ToolResultCheck {
  const checked = check("invalid_argument", input, () => readToolResult(input, path));
  return checked.ok ? { ok: true, result: checked.value } : checked;
}

/**
 * The commonest answers without the schema walk (measurable CPU per call, bench/README.md): a
 * point's singletons (pass, allow, abstain), given as the constructor's singleton or as a plain
 * object holding only their `kind`, which is what a plugin with its own copy of the SDK, a
 * literal, or a worker's structured clone gives. Returns the singleton, as the schema path does;
 * undefined for anything else, which the schema then judges.
 */
function bareAnswer(point: PointName, input: unknown): unknown {
  if (typeof input !== "object" || input === null) return undefined;
  try {
    const kind: unknown = (input as { kind?: unknown }).kind;
    const answer = typeof kind === "string" ? SINGLETONS_BY_KIND.get(point)?.get(kind) : undefined;
    if (answer === undefined || input === answer) return answer;
    // What the strict schema would accept, without it: a plain object whose only own key is `kind`.
    return Object.getPrototypeOf(input) === Object.prototype && Object.hasOwn(input, "kind") && Object.keys(input).length === 1 ? answer : undefined;
  } catch {
    return undefined; // a throwing getter or a proxy's trap: the schema path reports it
  }
}
