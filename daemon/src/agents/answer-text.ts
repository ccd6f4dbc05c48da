// The text of hookd's messages as agents take it in their answers: content blocks as text,
// several messages joined by a blank line, and the `hookSpecificOutput.additionalContext` most
// agents read context from.
import type { AgentMessage, ContentBlock, UserNotice } from "@hookd/sdk";
import type { HookAnswer } from "./contract.js";

export const NO_OPINION: HookAnswer = Object.freeze({});

export function contentText(content: readonly ContentBlock[]): string {
  return content.map((block) => (block.type === "text" ? block.text : block.type === "json" ? block.json : `[image ${block.uri}]`)).join("\n");
}

export function joined(messages: readonly AgentMessage[]): string {
  return messages
    .map((message) => contentText(message.content))
    .filter((text) => text !== "")
    .join("\n\n");
}

/** `base` with the messages as the event's additionalContext (base itself when they say nothing). */
export function withContext(event: string, contexts: readonly AgentMessage[], base: HookAnswer = NO_OPINION): HookAnswer {
  const text = joined(contexts);
  return text === "" ? base : { ...base, hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

/**
 * `answer` with what the plugins said to the user, in the common fields of the agents whose hooks
 * speak Claude Code's contract (Codex, Gemini CLI and Qwen Code have them too): the message as
 * `systemMessage` (after one the answer already had) and a stop as `continue: false` with
 * `stopReason`. Nothing is added unless a plugin asked for it; the agent's fields table drops
 * what it does not take at the event.
 */
export function withUserNotice(answer: HookAnswer, notice: UserNotice): HookAnswer {
  if (notice.userMessage === undefined && notice.stopAgent === undefined) return answer;
  const had = typeof answer.systemMessage === "string" && answer.systemMessage !== "" ? answer.systemMessage : undefined;
  const message = [had, notice.userMessage].filter((text) => text !== undefined).join("\n\n");
  return {
    ...answer,
    ...(message === "" ? {} : { systemMessage: message }),
    ...(notice.stopAgent === undefined ? {} : { continue: false, stopReason: notice.stopAgent.reason }),
  };
}
