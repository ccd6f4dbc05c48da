// Agent identity for the HTTP endpoint, by the same rules as the gRPC host (host/identity.ts):
// with tokens configured a bearer token (header `Authorization: Bearer ...`, which a Claude Code
// http hook can send with `headers` + `allowedEnvVars`) is required and is the identity;
// without, the agent names itself with x-hookd-agent, else it is the dialect's name.
import type { IncomingHttpHeaders } from "node:http";
import type { AgentIdentities } from "../host/identity.js";

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A `resolveAgent` for startHookHttpServer; its errors carry gRPC codes the server maps to 401/403. */
export function agentResolver(identities: AgentIdentities): (headers: IncomingHttpHeaders, dialect: string) => string {
  return (headers, dialect) => {
    const agent = identities.resolveHeaders((name) => header(headers, name) ?? "", "");
    return agent === "anonymous" ? dialect : agent;
  };
}
