// Gemini generateContent / streamGenerateContent (?alt=sse), what Gemini CLI speaks: contents
// read into a Conversation, the reply written as one candidate (a functionCall or text; a long
// text streamed in pieces).
import type { ServerResponse } from "node:http";
import { shellCall } from "./types.js";
import type { Conversation, Reply } from "./types.js";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

export function geminiConversation(body: unknown): Conversation {
  const b = isObj(body) ? body : {};
  const userTexts: string[] = [];
  const toolResults: string[] = [];
  const toolCalls: string[] = [];
  for (const content of list(b.contents)) {
    if (!isObj(content)) continue;
    for (const part of list(content.parts)) {
      if (!isObj(part)) continue;
      if (isObj(part.functionResponse)) toolResults.push(JSON.stringify(part.functionResponse.response ?? {}));
      else if (isObj(part.functionCall) && typeof part.functionCall.name === "string") toolCalls.push(part.functionCall.name);
      else if (typeof part.text === "string" && content.role !== "model") userTexts.push(part.text);
    }
  }
  const system = isObj(b.systemInstruction) ? list(b.systemInstruction.parts).map((p) => (isObj(p) && typeof p.text === "string" ? p.text : "")).join("\n") : "";
  const tools = list(b.tools).flatMap((t) => (isObj(t) ? list(t.functionDeclarations).flatMap((d) => (isObj(d) && typeof d.name === "string" ? [d.name] : [])) : []));
  return { tools, system, userTexts, toolResults, toolCalls };
}

/** Longer text replies are streamed in pieces of this many characters. */
const CHUNK = 40;

export function writeGemini(res: ServerResponse, stream: boolean, conversation: Conversation, reply: Reply): void {
  const call = reply.kind === "shell" ? shellCall(conversation.tools, reply.command) : reply.kind === "tool" ? { name: reply.name, input: reply.input } : undefined;
  const part = call === undefined ? { text: reply.kind === "text" ? reply.text : "" } : { functionCall: { name: call.name, args: call.input } };
  const chunk = {
    candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: "gemini-fake",
  };
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(chunk));
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  // A long text streams in pieces, as the real API does (Gemini CLI runs AfterModel per chunk).
  const text = reply.kind === "text" ? reply.text : "";
  const pieces: string[] = [];
  if (call === undefined && text.length > CHUNK) for (let at = 0; at < text.length; at += CHUNK) pieces.push(text.slice(at, at + CHUNK));
  if (pieces.length === 0) {
    res.end(`data: ${JSON.stringify(chunk)}\n\n`);
    return;
  }
  for (const [i, piece] of pieces.entries()) {
    const last = i === pieces.length - 1;
    const candidate = { content: { role: "model", parts: [{ text: piece }] }, index: 0, ...(last ? { finishReason: "STOP" } : {}) };
    res.write(`data: ${JSON.stringify({ candidates: [candidate], ...(last ? { usageMetadata: chunk.usageMetadata } : {}), modelVersion: chunk.modelVersion })}\n\n`);
  }
  res.end();
}

