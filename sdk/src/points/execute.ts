// execute: the around-dispatch waterfall for timeout, retry and metrics wrappers. A wrapper calls
// `next()` to dispatch (through the wrappers inside it) and gets the normalized result; a result
// it authors short-circuits dispatch and is re-normalized. Out of process, `pass` = call next().
// Default: core dispatch. Under fail-closed a failing wrapper becomes the call's failure result.
import { unknownCase } from "../convert/result.js";
import { readToolResult as readProtoToolResult, toProtoToolResult } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import type { Awaitable, ExecuteContext } from "../handler.js";
import * as pb from "../proto.js";
import { PASS_SCHEMA, describe, parse, readToolResult } from "../schema.js";
import type { ToolResult } from "../types.js";
import { failureResult } from "../types.js";
import type { OneofInit, PointSpec } from "./define.js";
import { PASS_ONEOF, POINT_BUDGET, decisionCodec, eventCodec, protoFacts } from "./define.js";
import type { ToolCallEvent } from "./tool-events.js";
import { callToolName, readCallEvent, toCallEvent } from "./tool-events.js";
import { fieldError } from "../errors.js";

export type ExecuteEvent = ToolCallEvent;

export interface ExecuteTypes {
  readonly event: ExecuteEvent;
  /** A wrapper-authored tool result. */
  readonly decision: ToolResult;
  readonly answer: ToolResult | Pass;
  /** Around dispatch: wrap `next()`, or answer the call yourself. */
  readonly handler: (event: ExecuteEvent, ctx: ExecuteContext) => Awaitable<ToolResult | Pass>;
  readonly protoEvent: pb.ExecuteEvent;
  readonly protoDecision: pb.ExecuteDecision;
}

export const executePoint = {
  ...protoFacts("execute"),
  matchKey: callToolName,
  budget: POINT_BUDGET,
  pluginMethod: "execute",
  event: eventCodec<ExecuteTypes, typeof pb.ExecuteEventSchema>(pb.ExecuteEventSchema, toCallEvent, readCallEvent),
  decision: decisionCodec<ExecuteTypes>(
    pb.ExecuteDecisionSchema,
    (d): OneofInit<pb.ExecuteDecision> => ("kind" in d ? PASS_ONEOF : { case: "result", value: toProtoToolResult(d) }),
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "result": return readProtoToolResult(o.value, `${path}.result`);
        default: return unknownCase(o, path);
      }
    },
  ),
  singletons: [pass()],
  readAnswer(input, path) {
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      throw fieldError(path, `expected a tool result or pass, got ${describe(input)}`);
    }
    if (!("kind" in input)) return readToolResult(input, path);
    parse(PASS_SCHEMA, input, path, 'expected "pass" (a tool result has no kind)');
    return pass();
  },
  // Nobody deciding means core dispatch, which the around runner calls itself.
  fallback: () => undefined,
  failClosed: (reason, plugin) => failureResult("plugin_failure", plugin, reason),
  // The event carries no messages; contexts of the result next() gave, handed back unchanged,
  // keep their source (the runner passes that result on as given).
  authorship: {
    given: () => [],
    contributed: (answer) => ("kind" in answer ? [] : answer.contexts),
    replaced: (answer, contexts) => ("kind" in answer ? answer : { ...answer, contexts }),
  },
} as const satisfies PointSpec<"execute", ExecuteTypes>;
