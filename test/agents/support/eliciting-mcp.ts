// A minimal MCP server (stdio, newline-delimited JSON-RPC) with one tool, `ask`, whose call asks
// the client for input (`elicitation/create`) and answers with whatever the client replied: what
// drives Claude Code's Elicitation and ElicitationResult events. Written to a file for the agent
// to start, with the `--mcp-config` JSON that names it.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";

export const ELICIT_MESSAGE = "ELICIT-MESSAGE-3c9: what is your name?";

const SOURCE = `
import { createInterface } from "node:readline";
const send = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
let call;
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") send({ id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "elicit", version: "1.0.0" } } });
  else if (m.method === "tools/list") send({ id: m.id, result: { tools: [{ name: "ask", description: "asks the user for their name", inputSchema: { type: "object", properties: {} } }] } });
  else if (m.method === "tools/call") {
    call = m.id;
    const requestedSchema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    send({ id: "elicit-1", method: "elicitation/create", params: { message: ${JSON.stringify(ELICIT_MESSAGE)}, requestedSchema } });
  } else if (m.id === "elicit-1") send({ id: call, result: { content: [{ type: "text", text: "elicited: " + JSON.stringify(m.result ?? m.error) }] } });
  else if (m.id !== undefined && m.method !== undefined) send({ id: m.id, result: {} });
});
`;

/** Writes the server into `dir`; returns the `--mcp-config` JSON (server name "elicit", tool `mcp__elicit__ask`). */
export async function elicitingMcpConfig(dir: string): Promise<string> {
  const path = join(dir, "eliciting-mcp.mjs");
  await writeFile(path, SOURCE);
  return JSON.stringify({ mcpServers: { elicit: { command: process.execPath, args: [path] } } });
}
