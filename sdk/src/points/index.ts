// The point table: every extension point's spec in firing order, and everything derived from it
// (the closed list of names, tool points, the typed maps of events, decisions, answers and
// handlers, the evaluate RPCs). Adding a point is its proto, one file here, and one line in each
// map below.
import type { ApprovalTypes } from "./approval.js";
import { approvalEvaluate, approvalPoint } from "./approval.js";
import type { EvaluateMethod, PointMode, PointSpec } from "./define.js";
import type { ExecuteTypes } from "./execute.js";
import { executePoint } from "./execute.js";
import type { GuardTypes } from "./guard.js";
import { guardPoint } from "./guard.js";
import type { PostToolTypes } from "./post-tool.js";
import { postToolEvaluate, postToolPoint } from "./post-tool.js";
import type { PreStepTypes } from "./pre-step.js";
import { preStepEvaluate, preStepPoint } from "./pre-step.js";
import type { PreToolTypes } from "./pre-tool.js";
import { preToolEvaluate, preToolPoint } from "./pre-tool.js";
import type { RewriteTypes } from "./rewrite.js";
import { rewriteEvaluate, rewritePoint } from "./rewrite.js";
import type { SessionStartTypes } from "./session-start.js";
import { sessionStartEvaluate, sessionStartPoint } from "./session-start.js";
import type { ToolResultTypes } from "./tool-result.js";
import { toolResultEvaluate, toolResultPoint } from "./tool-result.js";
import type { TurnStoppingTypes } from "./turn-stopping.js";
import { turnStoppingEvaluate, turnStoppingPoint } from "./turn-stopping.js";
import type { TurnEndTypes } from "./turn-end.js";
import { turnEndEvaluate, turnEndPoint } from "./turn-end.js";
import type { SessionEndTypes } from "./session-end.js";
import { sessionEndEvaluate, sessionEndPoint } from "./session-end.js";
import type { AgentEventTypes } from "./agent-event.js";
import { agentEventEvaluate, agentEventPoint } from "./agent-event.js";

export * from "./session-start.js";
export * from "./pre-step.js";
export * from "./rewrite.js";
export * from "./pre-tool.js";
export * from "./approval.js";
export * from "./deny.js";
export * from "./guard.js";
export * from "./execute.js";
export * from "./post-tool.js";
export * from "./tool-result.js";
export * from "./turn-stopping.js";
export * from "./turn-end.js";
export * from "./session-end.js";
export * from "./agent-event.js";
export type { ToolCallEvent, ToolOutcomeEvent } from "./tool-events.js";
export type { BudgetName, Budgets, EvaluateOptions, EvaluateSpec, PointBudget, PointMode, PointSpec, PointShape } from "./define.js";
export { readTrace, toProtoTrace } from "./define.js";

/** The types of each point. */
export interface PointTypes {
  "session-start": SessionStartTypes;
  "pre-step": PreStepTypes;
  rewrite: RewriteTypes;
  "pre-tool": PreToolTypes;
  approval: ApprovalTypes;
  guard: GuardTypes;
  execute: ExecuteTypes;
  "post-tool": PostToolTypes;
  "tool-result": ToolResultTypes;
  "turn-stopping": TurnStoppingTypes;
  "turn-end": TurnEndTypes;
  "session-end": SessionEndTypes;
  "agent-event": AgentEventTypes;
}

/** Every point's rule, in firing order. */
export const POINT_TABLE = Object.freeze({
  "session-start": sessionStartPoint,
  "pre-step": preStepPoint,
  rewrite: rewritePoint,
  "pre-tool": preToolPoint,
  approval: approvalPoint,
  guard: guardPoint,
  execute: executePoint,
  "post-tool": postToolPoint,
  "tool-result": toolResultPoint,
  "turn-stopping": turnStoppingPoint,
  "turn-end": turnEndPoint,
  "session-end": sessionEndPoint,
  // Fires whenever the agent sends an event of its own that no point above carries.
  "agent-event": agentEventPoint,
} as const satisfies { readonly [N in keyof PointTypes]: PointSpec<N, PointTypes[N]> });

/** The evaluate RPC of each point an agent with its own loop can evaluate. */
export const EVALUATE_TABLE = Object.freeze({
  "session-start": sessionStartEvaluate,
  "pre-step": preStepEvaluate,
  rewrite: rewriteEvaluate,
  "pre-tool": preToolEvaluate,
  approval: approvalEvaluate,
  "post-tool": postToolEvaluate,
  "tool-result": toolResultEvaluate,
  "turn-stopping": turnStoppingEvaluate,
  "turn-end": turnEndEvaluate,
  "session-end": sessionEndEvaluate,
  "agent-event": agentEventEvaluate,
} as const satisfies { readonly [N in keyof PointTypes]?: { readonly method: EvaluateMethod } });

export type PointName = keyof PointTypes;
export type PointTable = typeof POINT_TABLE;

/** The extension points, in firing order. A closed list: anything else is rejected. */
export const POINTS = Object.freeze(Object.keys(POINT_TABLE)) as unknown as readonly [PointName, ...PointName[]];

/** Points whose events concern one tool call. */
export const TOOL_POINTS: ReadonlySet<PointName> = new Set(POINTS.filter((point) => POINT_TABLE[point].toolScoped));

/** Points whose subscriptions take matchers: the tool points (tool name) and agent-event (event name). */
export const MATCHED_POINTS: ReadonlySet<PointName> = new Set(POINTS.filter((point) => (POINT_TABLE[point] as PointSpec).matchKey !== undefined));

/** The name `point`'s matchers are tested against for `event`, or undefined where the point takes no matchers. */
export function matchKeyOf<P extends PointName>(point: P, event: EventOf<P>): string | undefined {
  return (POINT_TABLE[point] as PointSpec).matchKey?.(event);
}

export function isPointName(value: unknown): value is PointName {
  return typeof value === "string" && Object.hasOwn(POINT_TABLE, value);
}

export type EventOf<P extends PointName> = PointTypes[P]["event"];
/** A point's own decisions, pass excluded. */
export type DecisionOf<P extends PointName> = PointTypes[P]["decision"];
/** What a validated handler answer is at a point: its decision or pass. */
export type PointAnswer<P extends PointName> = PointTypes[P]["answer"];
export type ProtoEventOf<P extends PointName> = PointTypes[P]["protoEvent"];
export type ProtoDecisionOf<P extends PointName> = PointTypes[P]["protoDecision"];

/** One typed map from point to handler signature; each entry's mode is the point's authority. */
export type PointHandlers = { readonly [P in PointName]: PointTypes[P]["handler"] };

/** The points run by a given mode. */
export type PointsOfMode<M extends PointMode> = { [P in PointName]: PointTable[P]["mode"] extends M ? P : never }[PointName];
export type WaterfallPoint = PointsOfMode<"waterfall">;
export type NotificationPoint = PointsOfMode<"notification">;
export type ChainPoint = PointsOfMode<"chain">;

/** The points whose handlers answer with a decision (every point but observers). */
export type DecisionPoint = { [P in PointName]: PointTable[P]["decision"] extends undefined ? never : P }[PointName];
export const DECISION_POINTS: readonly DecisionPoint[] = Object.freeze(POINTS.filter((point): point is DecisionPoint => POINT_TABLE[point].decision !== undefined));

export function isDecisionPoint(value: unknown): value is DecisionPoint {
  return isPointName(value) && POINT_TABLE[value].decision !== undefined;
}

export type EvaluatedPoint = keyof typeof EVALUATE_TABLE;
export type EvaluationOf<P extends EvaluatedPoint> = ReturnType<(typeof EVALUATE_TABLE)[P]["readResponse"]>;
export type EvaluateOptionsOf<P extends EvaluatedPoint> = Parameters<(typeof EVALUATE_TABLE)[P]["requestFields"]>[0];
export const EVALUATED_POINTS = Object.freeze(Object.keys(EVALUATE_TABLE)) as readonly EvaluatedPoint[];
