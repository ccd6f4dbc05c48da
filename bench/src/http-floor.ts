// floor_http's server process: a bare node:http server on loopback that reads each POST's body
// and answers `{}` (no opinion), with no hookd logic: the floor of a Claude Code http hook. A
// request in forwarder mode (x-hookd-forward: 1, as the shipped forwarders send) is answered as
// hookd answers one, with a fixed allow to print and exit code 0: floor_forwarder's server.
// Usage: node http-floor.js. Prints "ready http://127.0.0.1:PORT" once it listens.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** What the forwarder prints: an allow, so the bench can tell the floor answered. */
const FORWARDED_ALLOW = `${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } })}\n`;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    // Read as the daemon reads it: the whole body, as text.
    const empty = Buffer.concat(chunks).toString("utf8") === "";
    if (!empty && req.headers["x-hookd-forward"] === "1") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(FORWARDED_ALLOW), "x-hookd-exit": "0" });
      res.end(FORWARDED_ALLOW);
      return;
    }
    res.writeHead(empty ? 400 : 200, { "content-type": "application/json", "content-length": 2 });
    res.end("{}");
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`ready http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
const stop = (): void => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 1_000).unref();
};
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
