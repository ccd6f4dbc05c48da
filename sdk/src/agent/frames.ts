// The Session stream's frames in typed form: builds the agent's frames (open, prompts) and reads
// the daemon's non-request frames (opened, tool results, contexts, turn ends, traces). Reading is
// total (a Result naming the proto field); building a prompt checks its content first, because a
// prompt the daemon refused would leave no turn to match its follow-up to.
import { status } from "@grpc/grpc-js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { HookdError } from "../errors.js";
import type { Result } from "../convert/result.js";
import { decode } from "../convert/result.js";
import { fromProtoContentBlock, readMessages, readToolCall, readToolResult, toProtoContentBlock, toProtoSessionSource, toProtoToolDefinition } from "../convert/values.js";
import { StatusError } from "../grpc/status.js";
import * as pb from "../proto.js";
import { readTrace } from "../points/define.js";
import { turnEndedReasons } from "../points/turn-end.js";
import type { AgentMessage, ContentBlock, DecisionTrace, ToolCall, ToolResult } from "../types.js";
import type { CloseReason, OpenSessionOptions, PromptContent, SessionOpenedInfo, TurnEnd } from "./types.js";

export type RequestFrame = MessageInitShape<typeof pb.SessionRequestSchema>;

export function openFrame(options: OpenSessionOptions, agentId: string | undefined): RequestFrame {
  return {
    frame: {
      case: "open",
      value: {
        sessionId: options.sessionId,
        source: toProtoSessionSource(options.source ?? "startup"),
        cwd: options.cwd ?? "",
        tools: options.tools.map(({ finalize, ...tool }) => toProtoToolDefinition({ ...tool, finalizesContent: finalize !== undefined })),
        agentId: agentId ?? "",
        parentSessionId: options.parentSessionId ?? "",
        agentType: options.agentType ?? "",
      },
    },
  };
}

const CLOSE_REASONS = { closed: pb.SessionEndReason.CLOSED, cleared: pb.SessionEndReason.CLEARED } as const;

/** Throws StatusError(INVALID_ARGUMENT) for a reason an agent cannot give. */
export function closeFrame(reason: CloseReason): RequestFrame {
  // Checked at run time too: JavaScript callers are not held to the types.
  if (!Object.hasOwn(CLOSE_REASONS, reason)) throw new StatusError(status.INVALID_ARGUMENT, `close: reason must be "closed" or "cleared", got ${JSON.stringify(reason)}`);
  return { frame: { case: "close", value: { reason: CLOSE_REASONS[reason] } } };
}

const PROMPT_KINDS = { followUp: pb.PromptKind.FOLLOW_UP, steer: pb.PromptKind.STEER, inject: pb.PromptKind.INJECT } as const;

/** Throws StatusError(INVALID_ARGUMENT) for empty content or a block the daemon would refuse. */
export function promptFrame(kind: keyof typeof PROMPT_KINDS, content: PromptContent): RequestFrame {
  const blocks: readonly ContentBlock[] = typeof content === "string" ? [{ type: "text", text: content }] : content;
  // Checked at run time too: JavaScript callers are not held to the types.
  if (!(Array.isArray as (value: unknown) => boolean)(blocks) || blocks.length === 0 || content === "") {
    throw new StatusError(status.INVALID_ARGUMENT, `${kind}: content must be non-empty text or a non-empty list of content blocks`);
  }
  const proto = blocks.map((block, index) => {
    const path = `${kind}.content[${index}]`;
    let message: pb.ContentBlock;
    try {
      message = toProtoContentBlock(block);
    } catch (error) {
      throw new StatusError(status.INVALID_ARGUMENT, `${path}: ${HookdError.from(error).message}`, { cause: error });
    }
    const checked = fromProtoContentBlock(message, path); // a json block must hold valid JSON
    if (!checked.ok) throw new StatusError(status.INVALID_ARGUMENT, checked.error.message, { cause: checked.error });
    return message;
  });
  return { frame: { case: "prompt", value: { kind: PROMPT_KINDS[kind], content: proto } } };
}

/**
 * SessionOpened.contexts is deprecated and not read: the daemon delivers session-start contexts
 * in the first step's batch (older daemons did both; reading both would duplicate them).
 */
export function readOpened(message: pb.SessionOpened): SessionOpenedInfo {
  return Object.freeze({
    sessionId: message.sessionId,
    resumed: message.resumed,
    contexts: Object.freeze([]),
    heartbeatIntervalMs: message.heartbeatIntervalMs,
    instanceId: message.instanceId,
  });
}

export function readContext(message: pb.ContextNotice): Result<AgentMessage[]> {
  return decode("invalid_argument", "context", () => readMessages(message.messages, "context.messages"));
}

export function readToolResultNotice(message: pb.ToolResultNotice): Result<{ call: ToolCall; result: ToolResult; trace: DecisionTrace }> {
  return decode("invalid_argument", "tool_result", () => ({
    call: readToolCall(message.call, "tool_result.call"),
    result: readToolResult(message.result, "tool_result.result"),
    trace: readTrace(message.trace, "tool_result.trace"),
  }));
}

/**
 * An unspecified or unknown reason still ends the turn (its follow-up must settle): it reads as
 * "error" with the detail saying so, and `problem` says what was wrong.
 */
export function readTurnEnded(message: pb.TurnEnded): { end: TurnEnd; problem?: string } {
  const read = decode("invalid_argument", "turn_ended.reason", () => turnEndedReasons.read(message.reason, "turn_ended.reason"));
  const end = { turn: message.turn, reason: read.ok ? read.value : "error", detail: message.detail, steps: message.steps };
  if (read.ok) return { end: Object.freeze(end) };
  const problem = read.error.message;
  return { end: Object.freeze({ ...end, detail: end.detail === "" ? problem : end.detail }), problem };
}

/** A trace is required wherever the proto carries one. */
