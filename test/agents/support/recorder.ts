// A hook endpoint that records: every POSTed hook body (an agent's http hook), parsed, in
// arrival order, answered `{}` (no opinion) unless the test gives an answer: what the real
// agent sends, event by event, and what it does with an answer.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface HookRecorder {
  readonly url: string;
  readonly bodies: Record<string, unknown>[];
  events(): string[];
  close(): Promise<void>;
}

/** `answer` may return the JSON to answer a body with (default `{}`). */
export async function startRecorder(answer: (body: Record<string, unknown>) => unknown = () => ({})): Promise<HookRecorder> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsable: text };
      }
      bodies.push(body);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    events: () => bodies.map((b) => String(b.hook_event_name)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
