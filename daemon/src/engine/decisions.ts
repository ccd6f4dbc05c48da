// What a plugin's answer stands for, read from the point table: the fail-closed answer of a
// failing plugin, whether an answer is a pass, and the kind and reason recorded for it.
import { POINT_TABLE } from "@hookd/sdk";
import type { FailurePolicy, Pass, PointAnswer, PointName } from "@hookd/sdk";

const PASS: Pass = Object.freeze({ kind: "pass" });

/**
 * What a plugin that could not answer stands for. Fail-open passes; fail-closed gives the
 * point's fail-closed answer (gates refuse, execute fails the call, notifications pass).
 */
export function failurePolicyAnswer<P extends PointName>(point: P, policy: FailurePolicy, plugin: string, detail: string): PointAnswer<P> {
  if (policy === "fail-open") return PASS;
  return POINT_TABLE[point].failClosed(`${detail} (failure policy of ${plugin}: fail-closed)`, plugin);
}

/** True for `pass`. Execute answers are tool results, which carry no `kind`. */
export function isPass(answer: unknown): answer is Pass {
  return typeof answer === "object" && answer !== null && (answer as { kind?: unknown }).kind === "pass";
}

/** The kind recorded for an answer: the decision's kind, or ok/error for a tool result. */
export function answerKind(answer: unknown): string {
  if (typeof answer === "object" && answer !== null && "kind" in answer) return String(answer.kind);
  return (answer as { readonly isError?: unknown }).isError === true ? "result:error" : "result:ok";
}

/** The reason or feedback a decision carries, for the audit record. */
export function reasonOf(decision: unknown): string | undefined {
  const d = decision as { reason?: unknown; feedback?: unknown; message?: unknown };
  const reason = d.reason ?? d.feedback ?? d.message;
  return typeof reason === "string" ? reason : undefined;
}
