// OpenAI Responses (POST /v1/responses, streaming SSE), what Codex speaks: the request's input
// items read into a Conversation, the reply written as response.* events.
import type { ServerResponse } from "node:http";
import { shellCall } from "./types.js";
import type { Conversation, Reply } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (isObj(content)) return typeof content.text === "string" ? content.text : typeof content.content === "string" ? content.content : text(content.content);
  return list(content)
    .map((part) => text(part))
    .join("\n");
}

export function openaiConversation(body: unknown): Conversation {
  const b = isObj(body) ? body : {};
  const userTexts: string[] = [];
  const toolResults: string[] = [];
  const toolCalls: string[] = [];
  for (const item of list(b.input)) {
    if (!isObj(item)) continue;
    if (item.type === "function_call_output" || item.type === "custom_tool_call_output") toolResults.push(text(item.output));
    else if ((item.type === "function_call" || item.type === "custom_tool_call") && typeof item.name === "string") toolCalls.push(item.name);
    else if ((item.type === "message" || item.type === undefined) && (item.role === "user" || item.role === "developer")) userTexts.push(text(item.content));
  }
  return {
    tools: list(b.tools).flatMap((t) => (isObj(t) && typeof t.name === "string" ? [t.name] : [])),
    system: typeof b.instructions === "string" ? b.instructions : "",
    userTexts,
    toolResults,
    toolCalls,
  };
}

let ids = 0;

/** A namespaced tool (`multi_agent_v1.spawn_agent`) is called by its name within its namespace. */
function functionName(name: string): { name: string; namespace?: string } {
  const dot = name.lastIndexOf(".");
  return dot < 0 ? { name } : { namespace: name.slice(0, dot), name: name.slice(dot + 1) };
}

export function writeOpenai(res: ServerResponse, route: string, conversation: Conversation, reply: Reply): void {
  if (!route.endsWith("/responses")) {
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "fake model: only the Responses API is scripted" } }));
    return;
  }
  const id = `resp_fake_${++ids}`;
  const call = reply.kind === "shell" ? shellCall(conversation.tools, reply.command) : reply.kind === "tool" ? { name: reply.name, input: reply.input } : undefined;
  const item =
    call === undefined
      ? { type: "message", id: `msg_fake_${ids}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: reply.kind === "text" ? reply.text : "", annotations: [] }] }
      : { type: "function_call", id: `fc_fake_${ids}`, call_id: `call_fake_${ids}`, ...functionName(call.name), arguments: JSON.stringify(call.input), status: "completed" };
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (type: string, data: Obj): boolean => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("response.created", { response: { id, object: "response", status: "in_progress", output: [] } });
  send("response.output_item.added", { output_index: 0, item: { ...item, status: "in_progress" } });
  if (call === undefined && reply.kind === "text") send("response.output_text.delta", { output_index: 0, item_id: item.id, content_index: 0, delta: reply.text });
  send("response.output_item.done", { output_index: 0, item });
  const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };
  send("response.completed", { response: { id, object: "response", status: "completed", output: [item], usage } });
  res.end();
}
