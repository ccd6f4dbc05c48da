#!/usr/bin/env node
// Runs shell-policy as an out-of-process plugin: on the socket path in $HOOKD_PLUGIN_SOCKET (how
// hookd starts a managed plugin), or on `--listen ADDRESS` ("unix:///path", "unix:/path" or
// "host:port"). SIGTERM and SIGINT close it gracefully.
import { servePlugin } from "@hookd/sdk";
import policy from "./policy.js";

function listenArgument(argv: readonly string[]): string | undefined {
  const index = argv.findIndex((arg) => arg === "--listen" || arg.startsWith("--listen="));
  if (index === -1) return undefined;
  const arg = argv[index] ?? "";
  const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[index + 1];
  if (value === undefined || value === "") throw new Error("--listen needs an address, e.g. --listen unix:///tmp/shell-policy.sock");
  return value;
}

const stop = new AbortController();
process.once("SIGTERM", () => stop.abort());
process.once("SIGINT", () => stop.abort());

try {
  const address = listenArgument(process.argv.slice(2));
  const server = await servePlugin(policy, { ...(address === undefined ? {} : { address }), signal: stop.signal });
  process.stderr.write(`${policy.name} ${policy.version} listening on ${server.address}\n`);
  await server.closed;
  process.stderr.write(`${policy.name} stopped\n`);
} catch (error) {
  process.stderr.write(`${policy.name}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
