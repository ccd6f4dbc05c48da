// What a plugin says to the agent's user beside its decision: a message the agent shows its user
// (never context for the model) and a request to stop the agent. Carried on any answer, pass
// included, at the points whose proto decisions have `user_message` / `stop_agent`; merged across
// the plugins of a point in plugin order. Owns the helpers, the check and the merge.
import { z } from "zod";
import { fieldError } from "./errors.js";
import { needsReason, parse } from "./schema.js";

/** Asks the agent to stop (Claude Code's `continue: false`); the reason is shown to its user. */
export interface StopAgent {
  readonly reason: string;
}

/** The user-facing part of an answer. Both absent: the plugin says nothing to the user. */
export interface UserNotice {
  /** Shown to the agent's user (its `systemMessage`), never sent to the model. */
  readonly userMessage?: string;
  readonly stopAgent?: StopAgent;
}

/** The answers' fields, as a handler may set them. */
export const NOTICE_KEYS = ["userMessage", "stopAgent"] as const;

/** `answer` with a message for the user added (after any it already had). */
export function tellUser<D extends object>(answer: D, message: string): D & UserNotice {
  if (typeof message !== "string" || message.trim() === "") throw fieldError("userMessage", "expected a non-empty string");
  const had = noticeOf(answer).userMessage;
  return Object.freeze({ ...answer, userMessage: had === undefined ? message : `${had}${USER_MESSAGE_SEPARATOR}${message}` });
}

/** `answer` asking the agent to stop, with the reason its user is shown. */
export function stopAgent<D extends object>(answer: D, reason: string): D & UserNotice {
  if (typeof reason !== "string" || reason.trim() === "") throw fieldError("stopAgent.reason", "a stop needs a non-empty reason");
  return Object.freeze({ ...answer, stopAgent: Object.freeze({ reason }) });
}

/** Several plugins' messages reach the user as one, in plugin order. */
export const USER_MESSAGE_SEPARATOR = "\n\n";

/** The notice an answer carries (fields of the wrong type are ignored: validateDecision refuses them first). */
export function noticeOf(answer: unknown): UserNotice {
  if (typeof answer !== "object" || answer === null) return {};
  const { userMessage, stopAgent: stop } = answer as { userMessage?: unknown; stopAgent?: unknown };
  const reason = typeof stop === "object" && stop !== null ? (stop as { reason?: unknown }).reason : undefined;
  return {
    ...(typeof userMessage === "string" && userMessage !== "" ? { userMessage } : {}),
    ...(typeof reason === "string" && reason !== "" ? { stopAgent: { reason } } : {}),
  };
}

export function hasNotice(notice: UserNotice): boolean {
  return notice.userMessage !== undefined || notice.stopAgent !== undefined;
}

/** The notices of a point's plugins, in plugin order: every message joined, the first stop. */
export function mergeNotices(notices: readonly UserNotice[]): UserNotice {
  const messages = notices.flatMap((notice) => (notice.userMessage === undefined ? [] : [notice.userMessage]));
  const stop = notices.find((notice) => notice.stopAgent !== undefined)?.stopAgent;
  return {
    ...(messages.length === 0 ? {} : { userMessage: messages.join(USER_MESSAGE_SEPARATOR) }),
    ...(stop === undefined ? {} : { stopAgent: stop }),
  };
}

/** `answer` carrying exactly `notice` (the answer itself when both say nothing). */
export function withNotice<D>(answer: D, notice: UserNotice): D {
  const current = noticeOf(answer);
  if (current.userMessage === notice.userMessage && current.stopAgent?.reason === notice.stopAgent?.reason) return answer;
  const { userMessage: _message, stopAgent: _stop, ...bare } = answer as D & UserNotice;
  return Object.freeze({ ...bare, ...notice }) as D;
}

const NOTICE_SCHEMA = z.strictObject({
  userMessage: z.string({ error: "expected a string" }).optional(),
  stopAgent: z.strictObject({ reason: needsReason("a stop") }).optional(),
});

/**
 * Splits an untyped answer into the notice (checked; a field error names the bad field) and the
 * rest, which the point's own schema reads. Undefined when the answer has neither field.
 */
export function splitNotice(input: unknown, path: string): { readonly notice: UserNotice; readonly rest: object } | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  if (!NOTICE_KEYS.some((key) => Object.hasOwn(input, key))) return undefined;
  const { userMessage, stopAgent: stop, ...rest } = input as { userMessage?: unknown; stopAgent?: unknown };
  const notice = parse(NOTICE_SCHEMA, { ...(userMessage === undefined ? {} : { userMessage }), ...(stop === undefined ? {} : { stopAgent: stop }) }, path);
  return { notice: noticeOf(notice), rest };
}

/** The proto fields of a notice (`user_message`, `stop_agent`). */
export function noticeToProto(answer: unknown): { userMessage?: string; stopAgent?: { reason: string } } {
  const notice = noticeOf(answer);
  return { ...(notice.userMessage === undefined ? {} : { userMessage: notice.userMessage }), ...(notice.stopAgent === undefined ? {} : { stopAgent: { reason: notice.stopAgent.reason } }) };
}

/** A proto decision's notice; a stop without a reason is refused, naming the field. */
export function noticeFromProto(message: { readonly userMessage: string; readonly stopAgent?: { readonly reason: string } | undefined }, path: string): UserNotice {
  if (message.stopAgent !== undefined && message.stopAgent.reason.trim() === "") throw fieldError(`${path}.stop_agent.reason`, "a stop needs a non-empty reason");
  return {
    ...(message.userMessage === "" ? {} : { userMessage: message.userMessage }),
    ...(message.stopAgent === undefined ? {} : { stopAgent: { reason: message.stopAgent.reason } }),
  };
}
