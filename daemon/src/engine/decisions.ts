// Point-typed decision maps and the failure-policy decisions: what a point's answer is, and what
// a failing plugin stands for under fail-closed. One table, so each rule lives in one place.
import { block, deny, reject } from "@hookd/sdk";
import type {
  FailurePolicy,
  GuardDecision,
  Pass,
  PointName,
  PostToolDecision,
  PreStepDecision,
  PreToolDecision,
  SessionStartDecision,
  ToolFailure,
  ToolResult,
  TurnStoppingDecision,
} from "@hookd/sdk";

/** The decision each point's plugins give (besides pass). */
export interface DecisionMap {
  "session-start": SessionStartDecision;
  "pre-step": PreStepDecision;
  "pre-tool": PreToolDecision;
  guard: GuardDecision;
  execute: ToolResult;
  "post-tool": PostToolDecision;
  "tool-result": never;
  "turn-stopping": TurnStoppingDecision;
}
export type DecisionOf<P extends PointName> = DecisionMap[P];
export type AnswerOf<P extends PointName> = DecisionOf<P> | Pass;

/** A failed tool-call outcome authored by the pipeline itself. */
export function failureResult(code: string, name: string, message: string): ToolFailure {
  return { isError: true, code, name, message, content: [{ type: "text", text: `Error: ${message}` }], contexts: [] };
}

/**
 * What a plugin that could not answer stands for. Fail-open passes; fail-closed refuses at gates
 * and at execute; notifications are always contained (they pass).
 */
export function failurePolicyAnswer<P extends PointName>(point: P, policy: FailurePolicy, plugin: string, detail: string): AnswerOf<P> {
  const PASS: Pass = { kind: "pass" };
  if (policy === "fail-open") return PASS;
  const reason = `${detail} (failure policy of ${plugin}: fail-closed)`;
  const table: { [K in PointName]: () => AnswerOf<K> } = {
    "pre-step": () => reject(reason),
    "pre-tool": () => deny(reason),
    guard: () => deny(reason),
    "post-tool": () => block(reason),
    execute: () => failureResult("plugin_failure", plugin, reason),
    "session-start": () => PASS,
    "tool-result": () => PASS,
    "turn-stopping": () => PASS,
  };
  return table[point]();
}

/** True for `pass`. Execute answers are tool results, which carry no `kind`. */
export function isPass(answer: unknown): answer is Pass {
  return typeof answer === "object" && answer !== null && (answer as { kind?: unknown }).kind === "pass";
}

/** The kind recorded for an answer: the decision's kind, or ok/error for a tool result. */
export function answerKind(answer: AnswerOf<PointName>): string {
  if ("kind" in answer) return answer.kind;
  return answer.isError ? "result:error" : "result:ok";
}
