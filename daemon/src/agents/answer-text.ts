// The text of hookd's messages as agents take it in their answers: content blocks as text,
// several messages joined by a blank line, and the `hookSpecificOutput.additionalContext` most
// agents read context from.
import type { AgentMessage, ContentBlock } from "@hookd/sdk";
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
