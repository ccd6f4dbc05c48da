// A hook endpoint that only records: every POSTed hook body (an agent's http hook), parsed, in
// arrival order, answered `{}` (no opinion). Shows what the real agent sends, event by event.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface HookRecorder {
  readonly url: string;
  readonly bodies: Record<string, unknown>[];
  events(): string[];
  close(): Promise<void>;
}

export async function startRecorder(): Promise<HookRecorder> {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (text += chunk));
    req.on("end", () => {
      try {
        bodies.push(JSON.parse(text) as Record<string, unknown>);
      } catch {
        bodies.push({ unparsable: text });
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
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
