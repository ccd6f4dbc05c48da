// tool-result: the contained notification after every transform, with the same frozen call
// identity and an immutable snapshot of the authoritative result. Observers answer nothing and
// cannot change the outcome; a failing observer is contained.
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, HandlerContext } from "../handler.js";
import * as pb from "../proto.js";
import type { EvaluateOptions, EvaluateSpec, PointSpec } from "./define.js";
import { POINT_BUDGET, eventCodec, protoFacts } from "./define.js";
import type { ToolOutcomeEvent } from "./tool-events.js";
import { callToolName, readOutcomeEvent, toOutcomeEvent } from "./tool-events.js";

/** The authoritative final result of a call. */
export type ToolResultEvent = ToolOutcomeEvent;

export interface ToolResultTypes {
  readonly event: ToolResultEvent;
  readonly decision: never;
  readonly answer: Pass;
  /** Notification with the final result; cannot change anything, failures are contained. */
  readonly handler: (event: ToolResultEvent, ctx: HandlerContext) => Awaitable<void>;
  readonly protoEvent: pb.ToolResultEvent;
  readonly protoDecision: never;
}

export const toolResultPoint = {
  ...protoFacts("tool-result"),
  matchKey: callToolName,
  budget: POINT_BUDGET,
  pluginMethod: "toolResult",
  event: eventCodec<ToolResultTypes, typeof pb.ToolResultEventSchema>(pb.ToolResultEventSchema, toOutcomeEvent, readOutcomeEvent),
  decision: undefined,
  singletons: [pass()],
  // Whatever an observer returns is ignored.
  readAnswer: () => pass(),
  fallback: () => undefined,
  failClosed: () => pass(),
} as const satisfies PointSpec<"tool-result", ToolResultTypes>;

export const toolResultEvaluate: EvaluateSpec<ToolResultEvent, EvaluateOptions, void, "evaluateToolResult"> = {
  method: "evaluateToolResult",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse: () => undefined,
  toResponse: () => ({}),
};
