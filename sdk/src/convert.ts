// Exact conversion between the protobuf messages of hookd.v1 and the typed form plugins use
// (types.ts, events.ts, decisions.ts). `toProto*` trusts the typed form; `fromProto*` is total and
// answers a Result whose error names the offending proto field, so remote answers never crash the
// daemon. Untyped JS input is checked by validate.ts, not here.
export type { Result } from "./convert/result.js";
export { PLUGIN_METHODS, toProtoPoint, fromProtoPoint } from "./convert/points.js";
export {
  toProtoFailurePolicy,
  fromProtoFailurePolicy,
  toProtoSessionSource,
  fromProtoSessionSource,
  toProtoContentBlock,
  fromProtoContentBlock,
  toProtoMessageSource,
  fromProtoMessageSource,
  toProtoMessage,
  fromProtoMessage,
  toProtoToolDefinition,
  fromProtoToolDefinition,
  toProtoToolCall,
  fromProtoToolCall,
  toProtoToolResult,
  fromProtoToolResult,
  toProtoSessionInfo,
  fromProtoSessionInfo,
} from "./convert/values.js";
export {
  eventCodec,
  toProtoEvent,
  fromProtoEvent,
  type EventCodec,
  type EventForms,
  type TypedEvent,
  type ProtoEvent,
} from "./convert/events.js";
export {
  decisionCodec,
  toProtoDecision,
  fromProtoDecision,
  DECISION_POINTS,
  isDecisionPoint,
  type DecisionCodec,
  type DecisionForms,
  type DecisionPoint,
  type TypedDecision,
  type ProtoDecision,
} from "./convert/decisions.js";
