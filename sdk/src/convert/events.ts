// The event payload of every point, typed ↔ proto, as one table keyed by point. Owns only the
// per-point field lists; the shared vocabulary comes from values.ts.
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { create } from "@bufbuild/protobuf";
import type * as ev from "../events.js";
import * as pb from "../proto.js";
import { isPointName } from "../types.js";
import type { PointName } from "../types.js";
import type { Result } from "./result.js";
import { Problem, decode } from "./result.js";
import {
  readMessage,
  readMessages,
  readSessionInfo,
  readSessionSource,
  readToolCall,
  readToolDefinition,
  readToolResult,
  toProtoMessage,
  toProtoMessages,
  toProtoSessionInfo,
  toProtoSessionSource,
  toProtoToolCall,
  toProtoToolDefinition,
  toProtoToolResult,
} from "./values.js";

/** The typed and the proto event of each point. */
export interface EventForms {
  "session-start": { typed: ev.SessionStartEvent; proto: pb.SessionStartEvent };
  "pre-step": { typed: ev.PreStepEvent; proto: pb.PreStepEvent };
  "pre-tool": { typed: ev.PreToolEvent; proto: pb.PreToolEvent };
  guard: { typed: ev.GuardEvent; proto: pb.GuardEvent };
  execute: { typed: ev.ExecuteEvent; proto: pb.ExecuteEvent };
  "post-tool": { typed: ev.PostToolEvent; proto: pb.PostToolEvent };
  "tool-result": { typed: ev.ToolResultEvent; proto: pb.ToolResultEvent };
  "turn-stopping": { typed: ev.TurnStoppingEvent; proto: pb.TurnStoppingEvent };
}
export type TypedEvent<P extends PointName> = EventForms[P]["typed"];
export type ProtoEvent<P extends PointName> = EventForms[P]["proto"];

export interface EventCodec<P extends PointName> {
  readonly schema: DescMessage & { readonly typeName: string };
  toProto(event: TypedEvent<P>): ProtoEvent<P>;
  /** Total: a missing session/call/result, bad JSON or an unspecified enum is an `invalid_argument` error. */
  fromProto(message: ProtoEvent<P>, path?: string): Result<TypedEvent<P>>;
}

function codec<P extends PointName, D extends DescMessage & { readonly typeName: string }>(
  schema: D,
  to: (event: TypedEvent<P>) => MessageInitShape<D>,
  read: (message: ProtoEvent<P>, path: string) => TypedEvent<P>,
): EventCodec<P> {
  return {
    schema,
    toProto: (event) => create(schema, to(event)) as ProtoEvent<P>,
    fromProto: (message, path = "event") => decode("invalid_argument", path, () => read(message, path)),
  };
}

type CallEvent = Pick<pb.PreToolEvent, "session" | "call">;
type ResultEvent = Pick<pb.PostToolEvent, "session" | "call" | "result">;

const toCallEvent = (event: ev.ToolCallEvent) => ({
  session: toProtoSessionInfo(event.session),
  call: toProtoToolCall(event.call),
});
const readCallEvent = (message: CallEvent, path: string): ev.ToolCallEvent => ({
  session: readSessionInfo(message.session, `${path}.session`),
  call: readToolCall(message.call, `${path}.call`),
});
const toResultEvent = (event: ev.PostToolEvent | ev.ToolResultEvent) => ({
  ...toCallEvent(event),
  result: toProtoToolResult(event.result),
});
const readResultEvent = (message: ResultEvent, path: string): ev.PostToolEvent => ({
  ...readCallEvent(message, path),
  result: readToolResult(message.result, `${path}.result`),
});

/** Event conversion per point: `eventCodec[point].toProto(event)` / `.fromProto(message)`. */
export const eventCodec: { readonly [P in PointName]: EventCodec<P> } = Object.freeze({
  "session-start": codec<"session-start", typeof pb.SessionStartEventSchema>(
    pb.SessionStartEventSchema,
    (event) => ({
      session: toProtoSessionInfo(event.session),
      source: toProtoSessionSource(event.source),
      tools: event.tools.map(toProtoToolDefinition),
    }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      source: readSessionSource(message.source, `${path}.source`),
      tools: message.tools.map((tool, index) => readToolDefinition(tool, `${path}.tools[${index}]`)),
    }),
  ),
  "pre-step": codec<"pre-step", typeof pb.PreStepEventSchema>(
    pb.PreStepEventSchema,
    (event) => ({
      session: toProtoSessionInfo(event.session),
      turn: event.turn,
      step: event.step,
      messages: toProtoMessages(event.messages),
    }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      turn: message.turn,
      step: message.step,
      messages: readMessages(message.messages, `${path}.messages`),
    }),
  ),
  "pre-tool": codec<"pre-tool", typeof pb.PreToolEventSchema>(pb.PreToolEventSchema, toCallEvent, readCallEvent),
  guard: codec<"guard", typeof pb.GuardEventSchema>(pb.GuardEventSchema, toCallEvent, readCallEvent),
  execute: codec<"execute", typeof pb.ExecuteEventSchema>(pb.ExecuteEventSchema, toCallEvent, readCallEvent),
  "post-tool": codec<"post-tool", typeof pb.PostToolEventSchema>(pb.PostToolEventSchema, toResultEvent, readResultEvent),
  "tool-result": codec<"tool-result", typeof pb.ToolResultEventSchema>(pb.ToolResultEventSchema, toResultEvent, readResultEvent),
  "turn-stopping": codec<"turn-stopping", typeof pb.TurnStoppingEventSchema>(
    pb.TurnStoppingEventSchema,
    (event) => ({
      session: toProtoSessionInfo(event.session),
      turn: event.turn,
      step: event.step,
      stopHookActive: event.stopHookActive,
      steeredContinuations: event.steeredContinuations,
      ...(event.lastAssistantMessage === undefined ? {} : { lastAssistantMessage: toProtoMessage(event.lastAssistantMessage) }),
    }),
    (message, path) => ({
      session: readSessionInfo(message.session, `${path}.session`),
      turn: message.turn,
      step: message.step,
      stopHookActive: message.stopHookActive,
      steeredContinuations: message.steeredContinuations,
      ...(message.lastAssistantMessage === undefined
        ? {}
        : { lastAssistantMessage: readMessage(message.lastAssistantMessage, `${path}.last_assistant_message`) }),
    }),
  ),
});

export function toProtoEvent<P extends PointName>(point: P, event: TypedEvent<P>): ProtoEvent<P> {
  return eventCodec[point].toProto(event);
}

/** Total; an unknown point is an error too. */
export function fromProtoEvent<P extends PointName>(point: P, message: ProtoEvent<P>, path = "event"): Result<TypedEvent<P>> {
  if (!isPointName(point)) {
    return decode("invalid_argument", path, () => {
      throw new Problem(path, `unknown point ${JSON.stringify(point)}`);
    });
  }
  return eventCodec[point].fromProto(message, path);
}
