// The texts an agent shows its model from hookd's typed answers: a message's or a result's text
// blocks joined, and the messages a pre-step plugin added after the prompt.
import type { AgentMessage, ContentBlock, ToolResult } from "@hookd/sdk";

export function blocksText(blocks: readonly ContentBlock[]): string {
  return blocks.map((block) => (block.type === "text" ? block.text : JSON.stringify(block))).join("\n");
}

export function messagesText(messages: readonly AgentMessage[]): string[] {
  return messages.map((message) => blocksText(message.content)).filter((text) => text !== "");
}

/** What the model sees of a result after post-tool: its content, then any context plugins added. */
export function resultText(result: ToolResult): string {
  const shown = result.content.length > 0 ? blocksText(result.content) : result.isError ? result.message : typeof result.value === "string" ? result.value : JSON.stringify(result.value);
  return [shown, ...messagesText(result.contexts)].join("\n\n");
}
