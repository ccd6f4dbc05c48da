// A tiny fake Gemini API (generativelanguage v1beta) on 127.0.0.1 for driving the real Gemini CLI
// headless: `GOOGLE_GEMINI_BASE_URL` points the CLI here, any GEMINI_API_KEY is accepted. The
// conversation is scripted: each main-loop request (streamGenerateContent) gets the next scripted
// reply's parts (a functionCall, or text); once the script is used up it ends the turn with text.
// Side requests (model routing, next-speaker checks: generateContent with a response schema) get a
// small JSON answer. Every request body is kept so a test can assert on what reached the model.
import { createServer } from "node:http";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

export type Part = { readonly text: string } | { readonly functionCall: { readonly name: string; readonly args: Record<string, unknown> } };

export interface FakeGeminiApi {
  readonly url: string;
  /** The main-loop request bodies, in order (parsed JSON). */
  readonly requests: unknown[];
  /** Every text the model was sent in functionResponse parts, in order. */
  functionResponses(): string[];
  close(): Promise<void>;
}

function chunk(parts: readonly Part[]): string {
  return JSON.stringify({
    candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 5, totalTokenCount: 10 },
  });
}

export async function startFakeGeminiApi(script: readonly (readonly Part[])[]): Promise<FakeGeminiApi> {
  const requests: unknown[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (data: string) => (body += data));
    req.on("end", () => {
      const url = req.url ?? "";
      if (!url.includes(":streamGenerateContent") && !url.includes(":generateContent")) {
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      const parsed = JSON.parse(body === "" ? "{}" : body) as { generationConfig?: Record<string, unknown> };
      if (!url.includes(":streamGenerateContent")) {
        // Routing / next-speaker side calls: a JSON answer the CLI accepts (or falls back from).
        res.writeHead(200, { "content-type": "application/json" }).end(chunk([{ text: JSON.stringify({ reasoning: "done", next_speaker: "user" }) }]));
        return;
      }
      requests.push(parsed);
      const parts = script[next] ?? [{ text: "All done." }];
      next++;
      res.writeHead(200, { "content-type": "text/event-stream" }).end(`data: ${chunk(parts)}\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    functionResponses: () =>
      requests.flatMap((request) => {
        const contents = (request as { contents?: { parts?: { functionResponse?: { response?: unknown } }[] }[] }).contents ?? [];
        return contents.flatMap((content) => (content.parts ?? []).flatMap((part) => (part.functionResponse === undefined ? [] : [JSON.stringify(part.functionResponse.response)])));
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
