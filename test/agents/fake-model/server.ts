// The project's fake model server for the real-agent lane: one loopback HTTP server speaking the
// wire APIs the agents use (Anthropic Messages with SSE for Claude Code, OpenAI Responses for
// Codex, Gemini's generateContent / streamGenerateContent for Gemini CLI, OpenAI Chat Completions
// for Qwen Code and GitHub Copilot CLI). Each request is
// read into one agent-neutral Conversation, a Script picks the reply (a shell call or text), and
// the wire adapter writes it in the agent's own form. Every request body is logged as received,
// so tests assert on what reached the model (a tool result's text, a hook's context, a steer).
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicConversation, writeAnthropic } from "./anthropic.js";
import { chatConversation, writeChatCompletion } from "./chat-completions.js";
import { geminiConversation, writeGemini } from "./gemini.js";
import { openaiConversation, writeOpenai } from "./openai.js";
import type { Conversation, Reply, Script } from "./types.js";

export type { Conversation, Reply, Script } from "./types.js";
export { conversationText, scripted, shellCall } from "./types.js";

export interface LoggedRequest {
  readonly api: "anthropic" | "openai" | "gemini" | "other";
  readonly path: string;
  /** The raw body text, as the agent sent it. */
  readonly body: string;
  readonly conversation?: Conversation;
  readonly reply?: Reply;
}

export interface FakeModel {
  readonly url: string;
  readonly requests: LoggedRequest[];
  /** Every logged body concatenated: for "did this text reach the model at all". */
  allText(): string;
  /** Conversations the script answered (requests that offered tools: the agent's own loop). */
  conversations(): Conversation[];
  setScript(script: Script): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** A scripted API error, in the error body each wire API uses. */
function writeError(res: ServerResponse, api: LoggedRequest["api"], reply: Reply & { kind: "error" }): void {
  const { status, type, message } = reply;
  json(res, status, api === "anthropic" ? { type: "error", error: { type, message } } : api === "gemini" ? { error: { code: status, message, status: type } } : { error: { type, message, code: null } });
}

export async function startFakeModel(initial: Script): Promise<FakeModel> {
  let script = initial;
  const requests: LoggedRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url ?? "/";
    const body = await readBody(req);
    const parsed = ((): unknown => {
      try {
        return JSON.parse(body);
      } catch {
        return undefined;
      }
    })();
    const route = path.split("?")[0] ?? path;
    if (req.method === "POST" && route.endsWith("/messages/count_tokens")) {
      requests.push({ api: "other", path, body });
      return json(res, 200, { input_tokens: 10 });
    }
    if (req.method === "POST" && route.endsWith("/messages")) {
      const conversation = anthropicConversation(parsed);
      const reply = script(conversation);
      requests.push({ api: "anthropic", path, body, conversation, reply });
      if (reply.kind === "error") return writeError(res, "anthropic", reply);
      return writeAnthropic(res, parsed, conversation, reply);
    }
    if (req.method === "POST" && route.endsWith("/chat/completions")) {
      const conversation = chatConversation(parsed);
      const reply = script(conversation);
      requests.push({ api: "openai", path, body, conversation, reply });
      if (reply.kind === "error") return writeError(res, "openai", reply);
      return writeChatCompletion(res, parsed, conversation, reply);
    }
    if (req.method === "POST" && route.endsWith("/responses")) {
      const conversation = openaiConversation(parsed);
      const reply = script(conversation);
      requests.push({ api: "openai", path, body, conversation, reply });
      if (reply.kind === "error") return writeError(res, "openai", reply);
      return writeOpenai(res, route, conversation, reply);
    }
    if (req.method === "POST" && /:(stream)?generateContent$/i.test(route)) {
      const conversation = geminiConversation(parsed);
      const reply = script(conversation);
      requests.push({ api: "gemini", path, body, conversation, reply });
      if (reply.kind === "error") return writeError(res, "gemini", reply);
      return writeGemini(res, /:streamGenerateContent$/i.test(route), conversation, reply);
    }
    if (req.method === "POST" && /:countTokens$/i.test(route)) {
      requests.push({ api: "other", path, body });
      return json(res, 200, { totalTokens: 10 });
    }
    requests.push({ api: "other", path, body });
    // Models lists and anything else an agent probes: an empty success, never a hang.
    if (req.method === "GET" && route.endsWith("/models")) return json(res, 200, { data: [], models: [] });
    return json(res, 404, { error: { message: `fake model: no route for ${req.method ?? "?"} ${path}` } });
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { message: String(error) } });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    allText: () => requests.map((r) => r.body).join("\n"),
    conversations: () => requests.flatMap((r) => (r.conversation !== undefined && r.conversation.tools.length > 0 ? [r.conversation] : [])),
    setScript: (next) => (script = next),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
