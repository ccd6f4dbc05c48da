// bench-policy as a remote plugin, through the SDK's servePlugin.
// Usage: node serve-policy.js --listen unix:///path [--name NAME] [--harmless allow|pass] [--transport stream|unary]
// --transport unary makes the manifest ask for the unary RPCs (the unary scenarios' plugins);
// stream (the default) leaves the daemon on Attach.
// Prints "ready" on stdout once it listens; SIGTERM/SIGINT close it.
import { servePlugin } from "@hookd/sdk";
import { argument } from "../proc-args.js";
import { createPolicy } from "./policy.js";

const harmless = argument("--harmless", "allow");
if (harmless !== "allow" && harmless !== "pass") throw new Error("--harmless allow|pass");
const transport = argument("--transport", "stream");
if (transport !== "stream" && transport !== "unary") throw new Error("--transport stream|unary");
const stop = new AbortController();
process.once("SIGTERM", () => stop.abort());
process.once("SIGINT", () => stop.abort());
const server = await servePlugin(createPolicy({ name: argument("--name", "bench-policy"), harmless }), {
  address: argument("--listen"),
  signal: stop.signal,
  graceMs: 200,
  transport,
});
process.stdout.write("ready\n");
await server.closed;
