// The payload an agent sent with one hook request, kept beside the request's session object (by
// identity: every event decided for the request shares it), so the command kind can give a hook of
// the same agent's hooks file exactly what the agent sent, fields hookd does not model included.
// Never on the wire (remote plugins, audits): it lives only as long as the request's session object.
import type { SessionInfo } from "@hookd/sdk";
import type { Body } from "./body.js";

export interface AgentPayload {
  /** The dialect that sent it (a name of agents/registry.ts). */
  readonly dialect: string;
  /** Its hook_event_name. */
  readonly event: string;
  /** The body, parsed losslessly. */
  readonly body: Body;
  /** The text as it came. */
  readonly text: string;
}

const payloads = new WeakMap<SessionInfo, AgentPayload>();

export function keepAgentPayload(session: SessionInfo, payload: AgentPayload): void {
  payloads.set(session, payload);
}

/** What the agent sent with the request this session object was read from, if it came from an agent's hook request. */
export function agentPayloadOf(session: SessionInfo): AgentPayload | undefined {
  return payloads.get(session);
}
