// Agent identity for the HTTP endpoint, by the same rules as the gRPC host (host/identity.ts):
// with tokens configured a bearer token (header `Authorization: Bearer ...`, which a Claude Code
// http hook can send with `headers` + `allowedEnvVars`) is required and is the identity;
// without, the agent names itself with x-hookd-agent, else it is the dialect's name.
import { Metadata } from "@grpc/grpc-js";
import type { IncomingHttpHeaders } from "node:http";
import type { AgentIdentities } from "../host/identity.js";
import { AGENT_HEADER } from "./server.js";
import type { HttpDialect } from "./server.js";

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A `resolveAgent` for startHookHttpServer; its errors carry gRPC codes the server maps to 401/403. */
export function agentResolver(identities: AgentIdentities): (headers: IncomingHttpHeaders, dialect: HttpDialect) => string {
  return (headers, dialect) => {
    const metadata = new Metadata();
    for (const name of [AGENT_HEADER, "authorization"]) {
      const value = header(headers, name);
      if (value !== undefined && value !== "") metadata.set(name, value);
    }
    const agent = identities.resolve(metadata, "");
    return agent === "anonymous" ? dialect : agent;
  };
}
