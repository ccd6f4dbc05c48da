// Runs the agent's handlers for the daemon's three requests and builds the replies. Total: a
// handler that throws, answers garbage, or a request this client cannot read still produces a
// reply (an error step, a failure result, a cancelled approval), plus a problem to record.
// Owns the mapping only; when a reply is sent (or dropped) is the session's business.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { fromProtoMessage, fromProtoToolCall, fromProtoToolResult, toProtoContentBlock, toProtoMessage, toProtoToolResult } from "../convert/values.js";
import { HookdError } from "../errors.js";
import { validateToolResult } from "../validate.js";
import { deepFreeze, toJsonText } from "../json.js";
import * as pb from "../proto.js";
import type { AgentMessage, ToolCall } from "../types.js";
import { messageOf, resultOf, thrownResult, toolFailure } from "./results.js";
import type { AgentHandlers, AgentTool, ApprovalAnswer, ProposedToolCall } from "./types.js";

type StepReplyInit = MessageInitShape<typeof pb.StepReplySchema>;
type DispatchReplyInit = MessageInitShape<typeof pb.DispatchReplySchema>;
type ApprovalReplyInit = MessageInitShape<typeof pb.ApprovalReplySchema>;
type FinalizeReplyInit = MessageInitShape<typeof pb.FinalizeReplySchema>;

/** The finalize functions of the session's tools, by tool name. */
export type Finalizers = ReadonlyMap<string, NonNullable<AgentTool["finalize"]>>;

/** Records something this client could not use in a daemon frame (code INVALID_ARGUMENT). */
export type Report = (message: string, requestId: string) => void;

export async function answerStep(handlers: AgentHandlers, request: pb.StepRequest, signal: AbortSignal, report: Report): Promise<StepReplyInit> {
  const { requestId } = request;
  const messages: AgentMessage[] = [];
  for (const [index, message] of request.messages.entries()) {
    const read = fromProtoMessage(message, `step_request.messages[${index}]`);
    if (!read.ok) {
      report(read.error.message, requestId);
      return { requestId, error: `the agent could not read the step's messages: ${read.error.message}` };
    }
    messages.push(read.value);
  }
  try {
    const input = { turn: request.turn, step: request.step, messages: deepFreeze(messages), signal };
    const output = await handlers.runStep(input);
    return { requestId, assistantMessage: toProtoMessage(output.assistant), toolCalls: output.toolCalls.map(proposedCall) };
  } catch (error) {
    return { requestId, error: messageOf(error) };
  }
}

function proposedCall(call: ProposedToolCall, index: number): MessageInitShape<typeof pb.ProposedToolCallSchema> {
  const argumentsJson = call.argumentsJson ?? toJsonText(call.arguments, `toolCalls[${index}].arguments`);
  return { callId: call.callId, toolName: call.toolName, argumentsJson };
}

export async function answerDispatch(handlers: AgentHandlers, request: pb.DispatchRequest, signal: AbortSignal, report: Report): Promise<DispatchReplyInit> {
  const { requestId } = request;
  const call = readCall(request.call, "dispatch_request.call", requestId, report);
  if (call === undefined) {
    const failure = toolFailure("the agent could not read the sealed call", { code: "invalid_arguments", name: "hookd-agent" });
    return { requestId, result: toProtoToolResult(failure) };
  }
  let result;
  try {
    result = resultOf(await handlers.dispatch(call, signal));
  } catch (error) {
    result = thrownResult(error);
  }
  try {
    return { requestId, result: toProtoToolResult(result) };
  } catch (error) {
    // resultOf validated the result, so this is a bug here; still answer.
    return { requestId, result: toProtoToolResult(toolFailure(messageOf(error), { code: "internal", name: "hookd-agent" })) };
  }
}

const OUTCOMES: Readonly<Record<ApprovalAnswer, pb.ApprovalOutcome>> = {
  "allowed-once": pb.ApprovalOutcome.ALLOWED_ONCE,
  rejected: pb.ApprovalOutcome.REJECTED,
  cancelled: pb.ApprovalOutcome.CANCELLED,
};

export const NO_APPROVER = "agent has no approver";

export async function answerApproval(
  handlers: AgentHandlers,
  request: pb.ApprovalRequest,
  signal: AbortSignal,
  report: Report,
): Promise<ApprovalReplyInit> {
  const { requestId } = request;
  const cancelled = (note: string): ApprovalReplyInit => ({ requestId, outcome: pb.ApprovalOutcome.CANCELLED, note });
  if (handlers.approve === undefined) return cancelled(NO_APPROVER);
  const call = readCall(request.call, "approval_request.call", requestId, report);
  if (call === undefined) return cancelled("the agent could not read the call to approve");
  try {
    const answer: unknown = await handlers.approve({ call, reason: request.reason, askedBy: request.askedBy, deadlineMs: request.deadlineMs, signal });
    const { outcome, note } = typeof answer === "object" && answer !== null ? (answer as { outcome?: unknown; note?: unknown }) : { outcome: answer, note: "" };
    if (typeof outcome !== "string" || !Object.hasOwn(OUTCOMES, outcome)) {
      return cancelled(`the approver answered ${JSON.stringify(outcome) ?? String(outcome)}, not one of ${Object.keys(OUTCOMES).join(", ")}`);
    }
    return { requestId, outcome: OUTCOMES[outcome as ApprovalAnswer], note: typeof note === "string" ? note : "" };
  } catch (error) {
    return cancelled(`the approver failed: ${messageOf(error)}`);
  }
}

/**
 * Runs the tool's finalize function. Total: a function that throws, or a request this client
 * cannot read, keeps the content (no content in the reply); content that is not a list of valid
 * blocks is reported and also kept.
 */
export async function answerFinalize(finalizers: Finalizers, request: pb.FinalizeRequest, signal: AbortSignal, report: Report): Promise<FinalizeReplyInit> {
  const { requestId } = request;
  const keep: FinalizeReplyInit = { requestId };
  const call = readCall(request.call, "finalize_request.call", requestId, report);
  const candidate = fromProtoToolResult(request.candidate, "finalize_request.candidate");
  if (!candidate.ok) report(candidate.error.message, requestId);
  const finalize = call === undefined ? undefined : finalizers.get(call.toolName);
  if (call === undefined || !candidate.ok || finalize === undefined) return keep;
  let answer: unknown;
  try {
    answer = await finalize({ call, candidate: candidate.value, deadlineMs: request.deadlineMs, signal });
  } catch {
    return keep;
  }
  if (answer === undefined) return keep;
  // Checked as the daemon will: the candidate with this content must still be a valid result.
  const checked = validateToolResult({ ...candidate.value, content: answer }, "finalize");
  if (!checked.ok) {
    report(`the finalize of ${call.toolName} answered unusable content (the content was kept): ${checked.error.message}`, requestId);
    return keep;
  }
  return { requestId, content: { blocks: checked.result.content.map(toProtoContentBlock) } };
}

function readCall(message: pb.ToolCall | undefined, path: string, requestId: string, report: Report): ToolCall | undefined {
  const read = fromProtoToolCall(message, path);
  if (read.ok) return read.value;
  report(read.error.message, requestId);
  return undefined;
}

/**
 * Runs `answer` under a local deadline that aborts its signal: past it the daemon has already
 * decided without the answer, so `expired()` tells the session to send nothing.
 */
export function untilDeadline<R>(
  deadlineMs: number,
  what: string,
  answer: (signal: AbortSignal) => Promise<R>,
): { run: (signal: AbortSignal, controller: AbortController) => Promise<R>; expired: () => boolean } {
  let expired = false;
  const expire = (controller: AbortController): void => {
    expired = true;
    controller.abort(new HookdError("deadline_exceeded", `the ${what} deadline of ${deadlineMs} ms passed`));
  };
  const run = async (signal: AbortSignal, controller: AbortController): Promise<R> => {
    const timer = deadlineMs > 0 ? setTimeout(expire, deadlineMs, controller) : undefined;
    try {
      return await answer(signal);
    } finally {
      clearTimeout(timer);
    }
  };
  return { run, expired: () => expired };
}
