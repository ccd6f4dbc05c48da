// The event shapes the tool points share: a sealed call (pre-tool, guard, execute), and a call
// with its result (post-tool, tool-result), with their proto field mappings.
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
  /** The normalized result so far (post-tool, a denial included), or the final one (tool-result). */
  readonly result: ToolResult;
}

type CallMessage = Pick<pb.PreToolEvent, "session" | "call">;
type OutcomeMessage = Pick<pb.PostToolEvent, "session" | "call" | "result">;

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
