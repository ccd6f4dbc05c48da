// OpenAI Chat Completions (POST /v1/chat/completions), what Qwen Code speaks with `--auth-type
// openai` and GitHub Copilot CLI with COPILOT_PROVIDER_BASE_URL: the request's messages read into a Conversation, the reply written as one streamed
// chat.completion.chunk sequence (or one chat.completion when the request did not ask to stream).
import type { ServerResponse } from "node:http";
import { shellCall } from "./types.js";
import type { Conversation, Reply } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A message's content as text: a string, or the text parts of a content array. */
function text(content: unknown): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((part) => (isObj(part) && typeof part.text === "string" ? part.text : ""))
    .join("\n");
}

export function chatConversation(body: unknown): Conversation {
  const b = isObj(body) ? body : {};
  const userTexts: string[] = [];
  const toolResults: string[] = [];
  const toolCalls: string[] = [];
  const system: string[] = [];
  for (const message of list(b.messages)) {
    if (!isObj(message)) continue;
    if (message.role === "system") system.push(text(message.content));
    else if (message.role === "tool") toolResults.push(text(message.content));
    else if (message.role === "user") userTexts.push(text(message.content));
    else if (message.role === "assistant") {
      for (const call of list(message.tool_calls)) if (isObj(call) && isObj(call.function) && typeof call.function.name === "string") toolCalls.push(call.function.name);
    }
  }
  return {
    tools: list(b.tools).flatMap((t) => (isObj(t) && isObj(t.function) && typeof t.function.name === "string" ? [t.function.name] : [])),
    system: system.join("\n"),
    userTexts,
    toolResults,
    toolCalls,
  };
}

let ids = 0;

export function writeChatCompletion(res: ServerResponse, body: unknown, conversation: Conversation, reply: Reply): void {
  const b = isObj(body) ? body : {};
  const model = typeof b.model === "string" ? b.model : "chat-fake";
  const id = `chatcmpl_fake_${++ids}`;
  const call = reply.kind === "shell" ? shellCall(conversation.tools, reply.command) : reply.kind === "tool" ? { name: reply.name, input: reply.input } : undefined;
  const toolCall = call === undefined ? undefined : { id: `call_fake_${ids}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.input) } };
  const content = reply.kind === "text" ? reply.text : null;
  const finishReason = toolCall === undefined ? "stop" : "tool_calls";
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const created = Math.floor(Date.now() / 1000);
  if (b.stream !== true) {
    const message = { role: "assistant", content, ...(toolCall === undefined ? {} : { tool_calls: [toolCall] }) };
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ id, object: "chat.completion", created, model, choices: [{ index: 0, message, finish_reason: finishReason }], usage }));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (choice: Obj, extra: Obj = {}): boolean => res.write(`data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, ...choice }], ...extra })}\n\n`);
  const delta = toolCall === undefined ? { role: "assistant", content } : { role: "assistant", content: null, tool_calls: [{ index: 0, ...toolCall }] };
  send({ delta, finish_reason: null });
  send({ delta: {}, finish_reason: finishReason }, { usage });
  res.end("data: [DONE]\n\n");
}
