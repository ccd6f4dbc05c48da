// The decision of every point that has one, typed ↔ proto, as one table keyed by point, `pass`
// included. Conversion is structural: an unset oneof, JSON text that does not parse, or an accept
// replacing both content and value is an error naming the proto field path. The semantic rules
// (non-empty reasons, steer needs a message) live in validate.ts, which accepts this output.
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { create } from "@bufbuild/protobuf";
import type {
  AcceptDecision,
  BlockDecision,
  GuardDecision,
  Pass,
  PostToolDecision,
  PreStepDecision,
  PreToolDecision,
  SessionStartDecision,
  TurnStoppingDecision,
} from "../decisions.js";
import { abstain, allow, ask, deny, enter, inject, pass, reject, steer } from "../decisions.js";
import { HookdError } from "../errors.js";
import * as pb from "../proto.js";
import type { AgentMessage, ToolResult } from "../types.js";
import type { Result } from "./result.js";
import { Problem, decode, readJson, unknownCase, unknownVariant } from "./result.js";
import { jsonText, readContent, readMessages, readToolResult, toProtoContent, toProtoMessages, toProtoToolResult } from "./values.js";

/** The typed and the proto decision of each point that has one (tool-result answers nothing). */
export interface DecisionForms {
  "session-start": { typed: SessionStartDecision | Pass; proto: pb.SessionStartDecision };
  "pre-step": { typed: PreStepDecision | Pass; proto: pb.PreStepDecision };
  "pre-tool": { typed: PreToolDecision | Pass; proto: pb.PreToolDecision };
  guard: { typed: GuardDecision; proto: pb.GuardDecision };
  execute: { typed: ToolResult | Pass; proto: pb.ExecuteDecision };
  "post-tool": { typed: PostToolDecision | Pass; proto: pb.PostToolDecision };
  "turn-stopping": { typed: TurnStoppingDecision | Pass; proto: pb.TurnStoppingDecision };
}
export type DecisionPoint = keyof DecisionForms;
export type TypedDecision<P extends DecisionPoint> = DecisionForms[P]["typed"];
export type ProtoDecision<P extends DecisionPoint> = DecisionForms[P]["proto"];

/** The points that answer with a decision, in firing order. */
export const DECISION_POINTS: readonly DecisionPoint[] = Object.freeze([
  "session-start",
  "pre-step",
  "pre-tool",
  "guard",
  "execute",
  "post-tool",
  "turn-stopping",
]);

export function isDecisionPoint(value: unknown): value is DecisionPoint {
  return typeof value === "string" && (DECISION_POINTS as readonly string[]).includes(value);
}

export interface DecisionCodec<P extends DecisionPoint> {
  readonly schema: DescMessage;
  /** Trusts the typed form; throws HookdError only for what the types forbid (e.g. a non-JSON value). */
  toProto(decision: TypedDecision<P>): ProtoDecision<P>;
  /** Total: unusable input is an `invalid_decision` (or `invalid_json`) error naming the proto field. */
  fromProto(message: ProtoDecision<P>, path?: string): Result<TypedDecision<P>>;
}

/** The init form of a point's `decision` oneof, and the read form with a case set. */
type OneofInit<P extends DecisionPoint> =
  MessageInitShape<GenMessage<ProtoDecision<P>>> extends { decision?: infer O } ? NonNullable<O> : never;
type SetOneof<P extends DecisionPoint> = Exclude<ProtoDecision<P>["decision"], { case: undefined }>;

function codec<P extends DecisionPoint>(
  schema: GenMessage<ProtoDecision<P>>,
  to: (decision: TypedDecision<P>) => OneofInit<P>,
  read: (oneof: SetOneof<P>, path: string) => TypedDecision<P>,
): DecisionCodec<P> {
  return {
    schema,
    // The generic P hides the concrete init shape from the compiler; `to` is checked per point.
    toProto: (decision) => create(schema, { decision: to(decision) } as unknown as MessageInitShape<GenMessage<ProtoDecision<P>>>),
    fromProto: (message, path = "decision") =>
      decode("invalid_decision", path, () => {
        if (message.decision.case === undefined) throw new Problem(path, "no decision set");
        return read(message.decision as SetOneof<P>, path);
      }),
  };
}

const PASS = { case: "pass", value: {} } as const;
const BOTH = "cannot replace both content and value";

/** Empty context lists are left out of the typed form, so `accept()` and `block(f)` round-trip. */
function contexts(messages: readonly pb.Message[], path: string): { additionalContexts?: AgentMessage[] } {
  return messages.length === 0 ? {} : { additionalContexts: readMessages(messages, path) };
}

function toAccept(decision: AcceptDecision): MessageInitShape<typeof pb.AcceptSchema> {
  if (decision.content !== undefined && decision.value !== undefined) {
    throw new HookdError("invalid_decision", `decision: accept ${BOTH}`);
  }
  return {
    ...(decision.content === undefined ? {} : { content: { blocks: toProtoContent(decision.content) } }),
    ...(decision.value === undefined ? {} : { valueJson: jsonText(decision.value, "decision.value") }),
    additionalContexts: toProtoMessages(decision.additionalContexts ?? []),
  };
}

function readAccept(message: pb.Accept, path: string): AcceptDecision {
  if (message.content !== undefined && message.valueJson !== undefined) throw new Problem(path, BOTH);
  const extra = contexts(message.additionalContexts, `${path}.additional_contexts`);
  if (message.content !== undefined) return { kind: "accept", content: readContent(message.content.blocks, `${path}.content.blocks`), ...extra };
  if (message.valueJson !== undefined) return { kind: "accept", value: readJson(message.valueJson, `${path}.value_json`).value, ...extra };
  return { kind: "accept", ...extra };
}

const toBlock = (decision: BlockDecision) => ({
  feedback: decision.feedback,
  additionalContexts: toProtoMessages(decision.additionalContexts ?? []),
});
const readBlock = (message: pb.Block, path: string): BlockDecision => ({
  kind: "block",
  feedback: message.feedback,
  ...contexts(message.additionalContexts, `${path}.additional_contexts`),
});

/** Decision conversion per point: `decisionCodec[point].toProto(decision)` / `.fromProto(message)`. */
export const decisionCodec: { readonly [P in DecisionPoint]: DecisionCodec<P> } = Object.freeze({
  "session-start": codec<"session-start">(
    pb.SessionStartDecisionSchema,
    (d): OneofInit<"session-start"> => {
      switch (d.kind) {
        case "pass": return PASS;
        case "inject": return { case: "inject", value: { messages: toProtoMessages(d.messages) } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "inject": return inject(readMessages(o.value.messages, `${path}.inject.messages`));
        default: return unknownCase(o, path);
      }
    },
  ),
  "pre-step": codec<"pre-step">(
    pb.PreStepDecisionSchema,
    (d): OneofInit<"pre-step"> => {
      switch (d.kind) {
        case "pass": return PASS;
        case "enter": return { case: "enter", value: { messages: toProtoMessages(d.messages) } };
        case "reject": return { case: "reject", value: { reason: d.reason } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "enter": return enter(readMessages(o.value.messages, `${path}.enter.messages`));
        case "reject": return reject(o.value.reason);
        default: return unknownCase(o, path);
      }
    },
  ),
  "pre-tool": codec<"pre-tool">(
    pb.PreToolDecisionSchema,
    (d): OneofInit<"pre-tool"> => {
      switch (d.kind) {
        case "pass": return PASS;
        case "allow": return { case: "allow", value: {} };
        case "deny": return { case: "deny", value: { reason: d.reason } };
        case "ask": return { case: "ask", value: { reason: d.reason } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "allow": return allow();
        case "deny": return deny(o.value.reason);
        case "ask": return ask(o.value.reason);
        default: return unknownCase(o, path);
      }
    },
  ),
  guard: codec<"guard">(
    pb.GuardDecisionSchema,
    (d): OneofInit<"guard"> => {
      switch (d.kind) {
        case "abstain": return { case: "abstain", value: {} };
        case "deny": return { case: "deny", value: { reason: d.reason } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "abstain": return abstain();
        case "deny": return deny(o.value.reason);
        default: return unknownCase(o, path);
      }
    },
  ),
  execute: codec<"execute">(
    pb.ExecuteDecisionSchema,
    (d): OneofInit<"execute"> => ("kind" in d ? PASS : { case: "result", value: toProtoToolResult(d) }),
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "result": return readToolResult(o.value, `${path}.result`);
        default: return unknownCase(o, path);
      }
    },
  ),
  "post-tool": codec<"post-tool">(
    pb.PostToolDecisionSchema,
    (d): OneofInit<"post-tool"> => {
      switch (d.kind) {
        case "pass": return PASS;
        case "accept": return { case: "accept", value: toAccept(d) };
        case "block": return { case: "block", value: toBlock(d) };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "accept": return readAccept(o.value, `${path}.accept`);
        case "block": return readBlock(o.value, `${path}.block`);
        default: return unknownCase(o, path);
      }
    },
  ),
  "turn-stopping": codec<"turn-stopping">(
    pb.TurnStoppingDecisionSchema,
    (d): OneofInit<"turn-stopping"> => {
      switch (d.kind) {
        case "pass": return PASS;
        case "steer": return { case: "steer", value: { messages: toProtoMessages(d.messages) } };
        default: return unknownVariant(d, "decision", "invalid_decision");
      }
    },
    (o, path) => {
      switch (o.case) {
        case "pass": return pass();
        case "steer": return steer(readMessages(o.value.messages, `${path}.steer.messages`));
        default: return unknownCase(o, path);
      }
    },
  ),
});

export function toProtoDecision<P extends DecisionPoint>(point: P, decision: TypedDecision<P>): ProtoDecision<P> {
  return decisionCodec[point].toProto(decision);
}

/** Total; an unknown point is an `invalid_decision` error too. */
export function fromProtoDecision<P extends DecisionPoint>(point: P, message: ProtoDecision<P>, path = "decision"): Result<TypedDecision<P>> {
  if (!isDecisionPoint(point)) {
    return decode("invalid_decision", path, () => {
      throw new Problem(path, `no decision for point ${JSON.stringify(point)}`);
    });
  }
  return decisionCodec[point].fromProto(message, path);
}
