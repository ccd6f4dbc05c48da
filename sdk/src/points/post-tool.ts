// post-tool: the inspect/transform waterfall after the tool ran (a denial included). `accept` may
// replace the presentation content OR the canonical value (never both); `block` replaces the
// result with feedback; either may carry additionalContexts, appended when the batch settles.
// Default: accept unchanged.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { z } from "zod";
import { readJson, unknownCase, unknownVariant } from "../convert/result.js";
import { jsonText, readContent, readContributedMessages, readToolResult, toProtoContent, toProtoMessages, toProtoToolResult } from "../convert/values.js";
import type { Pass } from "../decisions.js";
import { pass } from "../decisions.js";
import { HookdError, fieldError } from "../errors.js";
import type { Awaitable, WaterfallContext } from "../handler.js";
import type { JsonValue } from "../json.js";
import { snapshotJson } from "../json.js";
import * as pb from "../proto.js";
import { PASS_SCHEMA, contentBlock, contexts, kind, messages, parse, readKind } from "../schema.js";
import type { AgentMessage, ContentBlock, DecisionTrace, ToolResult } from "../types.js";
import type { EvaluateOptions, EvaluateSpec, OneofInit, PointSpec } from "./define.js";
import { PASS_ONEOF, POINT_BUDGET, decisionCodec, eventCodec, needDecision, protoFacts, readTrace, toProtoTrace } from "./define.js";
import type { ToolOutcomeEvent } from "./tool-events.js";
import { callToolName, readOutcomeEvent, toOutcomeEvent } from "./tool-events.js";

export type PostToolEvent = ToolOutcomeEvent;

interface AcceptBase {
  readonly kind: "accept";
  readonly additionalContexts?: readonly AgentMessage[];
}
/** Accept unchanged. */
export interface AcceptUnchanged extends AcceptBase {
  readonly content?: never;
  readonly value?: never;
}
/** Replace only what the model sees; the canonical value is kept. */
export interface AcceptContent extends AcceptBase {
  readonly content: readonly ContentBlock[];
  readonly value?: never;
}
/** Replace the canonical value; it is revalidated and the presentation recomputed. */
export interface AcceptValue extends AcceptBase {
  readonly value: JsonValue;
  readonly content?: never;
}
export type AcceptDecision = AcceptUnchanged | AcceptContent | AcceptValue;
export interface BlockDecision {
  readonly kind: "block";
  /** Shown to the model verbatim; a fallback text is used when empty. */
  readonly feedback: string;
  readonly additionalContexts?: readonly AgentMessage[];
}
export type PostToolDecision = AcceptDecision | BlockDecision;

type AcceptOptions =
  | { readonly content?: never; readonly value?: never; readonly additionalContexts?: readonly AgentMessage[] }
  | { readonly content: readonly ContentBlock[]; readonly value?: never; readonly additionalContexts?: readonly AgentMessage[] }
  | { readonly value: JsonValue; readonly content?: never; readonly additionalContexts?: readonly AgentMessage[] };

export function accept(options: AcceptOptions = {}): AcceptDecision {
  return { kind: "accept", ...options };
}
export const block = (feedback: string, additionalContexts?: readonly AgentMessage[]): BlockDecision =>
  additionalContexts === undefined ? { kind: "block", feedback } : { kind: "block", feedback, additionalContexts };

export interface PostToolEvaluation {
  readonly decision: PostToolDecision;
  /** The result after applying the decision, as the model should see it. */
  readonly result: ToolResult;
  readonly trace: DecisionTrace;
}

export interface PostToolTypes {
  readonly event: PostToolEvent;
  readonly decision: PostToolDecision;
  readonly answer: PostToolDecision | Pass;
  /** Waterfall after the tool ran: accept (optionally replacing content or value) or block. */
  readonly handler: (event: PostToolEvent, ctx: WaterfallContext<PostToolDecision>) => Awaitable<PostToolDecision | Pass>;
  readonly protoEvent: pb.PostToolEvent;
  readonly protoDecision: pb.PostToolDecision;
}

const ACCEPT = z.strictObject({
  kind: kind("accept"),
  content: z.array(contentBlock).optional(),
  value: z.unknown().optional(),
  additionalContexts: messages.optional(),
});
const BLOCK = z.strictObject({ kind: kind("block"), feedback: z.string(), additionalContexts: messages.optional() });
const KINDS = { accept: ACCEPT, block: BLOCK, pass: PASS_SCHEMA };
const BOTH = "cannot replace both content and value";

/** `value` present with any value, `undefined` included, replaces the canonical value and must be JSON. */
function readAcceptAnswer(input: object, path: string): AcceptDecision {
  if ("value" in input && (input as { content?: unknown }).content !== undefined) throw fieldError(path, `accept ${BOTH}`);
  const data = parse(ACCEPT, input, path);
  const extra = contexts(data.additionalContexts);
  if ("value" in input) return { kind: "accept", value: snapshotJson(data.value, `${path}.value`).value, ...extra };
  if (data.content !== undefined) return { kind: "accept", content: data.content, ...extra };
  return { kind: "accept", ...extra };
}

/** Empty context lists are left out of the typed form, so `accept()` and `block(f)` round-trip. */
function protoContexts(list: readonly pb.Message[], path: string): { additionalContexts?: AgentMessage[] } {
  return list.length === 0 ? {} : { additionalContexts: readContributedMessages(list, path) };
}

function toAccept(decision: AcceptDecision): MessageInitShape<typeof pb.AcceptSchema> {
  if (decision.content !== undefined && decision.value !== undefined) throw new HookdError("invalid_decision", `decision: accept ${BOTH}`);
  return {
    ...(decision.content === undefined ? {} : { content: { blocks: toProtoContent(decision.content) } }),
    ...(decision.value === undefined ? {} : { valueJson: jsonText(decision.value, "decision.value") }),
    additionalContexts: toProtoMessages(decision.additionalContexts ?? []),
  };
}

function readAccept(message: pb.Accept, path: string): AcceptDecision {
  if (message.content !== undefined && message.valueJson !== undefined) throw fieldError(path, BOTH);
  const extra = protoContexts(message.additionalContexts, `${path}.additional_contexts`);
  if (message.content !== undefined) return { kind: "accept", content: readContent(message.content.blocks, `${path}.content.blocks`), ...extra };
  if (message.valueJson !== undefined) return { kind: "accept", value: readJson(message.valueJson, `${path}.value_json`).value, ...extra };
  return { kind: "accept", ...extra };
}

export const postToolPoint = {
  ...protoFacts("post-tool"),
  matchKey: callToolName,
  budget: POINT_BUDGET,
  pluginMethod: "postTool",
  event: eventCodec<PostToolTypes, typeof pb.PostToolEventSchema>(pb.PostToolEventSchema, toOutcomeEvent, readOutcomeEvent),
  decision: decisionCodec<PostToolTypes>(
    pb.PostToolDecisionSchema,
    (d): OneofInit<pb.PostToolDecision> => {
      switch (d.kind) {
        case "pass": return PASS_ONEOF;
        case "accept": return { case: "accept", value: toAccept(d) };
        case "block": return { case: "block", value: { feedback: d.feedback, additionalContexts: toProtoMessages(d.additionalContexts ?? []) } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "accept": return readAccept(o.value, `${path}.accept`);
        case "block": return { kind: "block", feedback: o.value.feedback, ...protoContexts(o.value.additionalContexts, `${path}.block.additional_contexts`) };
        default: return unknownCase(o, path);
      }
    },
    true,
  ),
  singletons: [pass()],
  readAnswer(input, path) {
    if (typeof input === "object" && input !== null && !Array.isArray(input) && (input as { kind?: unknown }).kind === "accept") {
      return readAcceptAnswer(input, path);
    }
    const data = readKind(KINDS, input, path);
    if (data.kind === "pass") return pass();
    const { feedback, additionalContexts } = data as z.infer<typeof BLOCK>;
    return { kind: "block", feedback, ...contexts(additionalContexts) } satisfies BlockDecision;
  },
  fallback: () => accept(),
  failClosed: (reason) => block(reason),
  // A context the result already carried, handed back unchanged, keeps its source.
  authorship: {
    given: (event) => event.result.contexts,
    contributed: (answer) => (answer.kind === "pass" ? [] : (answer.additionalContexts ?? [])),
    replaced: (answer, added) => (answer.kind === "pass" ? answer : { ...answer, additionalContexts: added }),
  },
  notices: true,
} as const satisfies PointSpec<"post-tool", PostToolTypes>;

export const postToolEvaluate: EvaluateSpec<PostToolEvent, EvaluateOptions, PostToolEvaluation, "evaluatePostTool"> = {
  method: "evaluatePostTool",
  requestFields: () => ({}),
  requestOptions: () => ({}),
  readResponse(message) {
    const response = message as pb.EvaluatePostToolResponse;
    const decision = needDecision(response.decision, (d) => postToolPoint.decision.fromProto(d, "response.decision"));
    return {
      // A `pass` reads as the default, accept unchanged.
      decision: decision.kind === "pass" ? accept() : decision,
      result: readToolResult(response.result, "response.result"),
      trace: readTrace(response.trace, "response.trace"),
    };
  },
  toResponse: (evaluation) => ({
    decision: postToolPoint.decision.toProto(evaluation.decision),
    result: toProtoToolResult(evaluation.result),
    trace: toProtoTrace(evaluation.trace),
  }),
};
