// The event shapes the tool-scoped points share: a sealed call (before it runs), and a call with
// its result (once it ran), with their proto field mappings.
import type * as pb from "../proto.js";
import type { SessionInfo, ToolCall, ToolResult } from "../types.js";
import { readSessionInfo, readToolCall, readToolResult, toProtoSessionInfo, toProtoToolCall, toProtoToolResult } from "../convert/values.js";

export interface ToolCallEvent {
  readonly session: SessionInfo;
  readonly call: ToolCall;
}

export interface ToolOutcomeEvent {
  readonly session: SessionInfo;
  readonly call: ToolCall;
  /** The normalized result so far (a denial included) when it is reviewed, or the final one when it is observed. */
  readonly result: ToolResult;
}

interface CallMessage {
  readonly session?: pb.SessionInfo;
  readonly call?: pb.ToolCall;
}
interface OutcomeMessage extends CallMessage {
  readonly result?: pb.ToolResult;
}

export const toCallEvent = (event: ToolCallEvent) => ({
  session: toProtoSessionInfo(event.session),
  call: toProtoToolCall(event.call),
});
export const readCallEvent = (message: CallMessage, path: string): ToolCallEvent => ({
  session: readSessionInfo(message.session, `${path}.session`),
  call: readToolCall(message.call, `${path}.call`),
});
export const toOutcomeEvent = (event: ToolOutcomeEvent) => ({
  ...toCallEvent(event),
  result: toProtoToolResult(event.result),
});
export const readOutcomeEvent = (message: OutcomeMessage, path: string): ToolOutcomeEvent => ({
  ...readCallEvent(message, path),
  result: readToolResult(message.result, `${path}.result`),
});

/** The match key of every tool-scoped point: matchers match the call's tool name. */
export const callToolName = (event: { readonly call: ToolCall }): string => event.call.toolName;
