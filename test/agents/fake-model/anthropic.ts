// Anthropic Messages (POST /v1/messages), what Claude Code speaks: the request read into a
// Conversation, the reply written as the streaming SSE events (or one JSON message when the
// request did not ask to stream).
import type { ServerResponse } from "node:http";
import { shellCall } from "./types.js";
import type { Conversation, Reply } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((b) => (isObj(b) && typeof b.text === "string" ? b.text : isObj(b) && b.type === "tool_result" ? blockText(b.content) : ""))
    .join("\n");
}

export function anthropicConversation(body: unknown): Conversation {
  const b = isObj(body) ? body : {};
  const userTexts: string[] = [];
  const toolResults: string[] = [];
  const toolCalls: string[] = [];
  for (const message of list(b.messages)) {
    if (!isObj(message)) continue;
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : list(message.content);
    for (const block of blocks) {
      if (!isObj(block)) continue;
      if (block.type === "tool_result") toolResults.push(blockText(block.content));
      else if (block.type === "tool_use" && typeof block.name === "string") toolCalls.push(block.name);
      else if (block.type === "text" && message.role === "user" && typeof block.text === "string") userTexts.push(block.text);
    }
  }
  return {
    tools: list(b.tools).flatMap((t) => (isObj(t) && typeof t.name === "string" ? [t.name] : [])),
    system: blockText(b.system),
    userTexts,
    toolResults,
    toolCalls,
  };
}

let ids = 0;

export function writeAnthropic(res: ServerResponse, body: unknown, conversation: Conversation, reply: Reply): void {
  const b = isObj(body) ? body : {};
  const model = typeof b.model === "string" ? b.model : "claude-fake";
  const id = `msg_fake_${++ids}`;
  const call = reply.kind === "shell" ? shellCall(conversation.tools, reply.command) : reply.kind === "tool" ? { name: reply.name, input: reply.input } : undefined;
  const text = reply.kind === "text" ? reply.text : "";
  const content = call === undefined ? [{ type: "text", text }] : [{ type: "tool_use", id: `toolu_fake_${ids}`, name: call.name, input: call.input }];
  const stopReason = call === undefined ? "end_turn" : "tool_use";
  const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  if (b.stream !== true) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id, type: "message", role: "assistant", model, content, stop_reason: stopReason, stop_sequence: null, usage }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: Obj): boolean => res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send("message_start", { message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  if (call !== undefined) {
    send("content_block_start", { index: 0, content_block: { type: "tool_use", id: `toolu_fake_${ids}`, name: call.name, input: {} } });
    send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(call.input) } });
  } else {
    send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    send("content_block_delta", { index: 0, delta: { type: "text_delta", text } });
  }
  send("content_block_stop", { index: 0 });
  send("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  send("message_stop", {});
  res.end();
}
