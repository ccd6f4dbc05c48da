#!/usr/bin/env node
// Runs {{name}} as an out-of-process plugin: on the socket path in $HOOKD_PLUGIN_SOCKET (how
// hookd starts a managed plugin), or on `--listen ADDRESS` ("unix:///path" or "host:port").
// SIGTERM and SIGINT close it gracefully.
import { servePlugin } from "@hookd/sdk";
import plugin from "./plugin.js";

const flag = process.argv.indexOf("--listen");
const address = flag >= 0 ? process.argv[flag + 1] : undefined;
const stop = new AbortController();
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => stop.abort());

const server = await servePlugin(plugin, { signal: stop.signal, ...(address === undefined ? {} : { address }) });
process.stderr.write(`{{name}} listening on ${server.address}\n`);
await server.closed;
