// An agent's hook request body to its typed hookd event, for any agent: the JSON parsed
// losslessly, its event name (hook_event_name, which must agree with the one the URL names, or
// the URL's alone for an agent whose payloads do not name the event),
// and the rest read by the agent's own reader (which refuses an event it does not know, or keeps
// it for the generic point); the payload as it came is kept beside the request's session
// (agent-payload.ts). Every problem is a field error naming the field (HTTP 400, `hookd eval` exit 1).
import { fieldError } from "@hookd/sdk/internal";
import { keepAgentPayload } from "./agent-payload.js";
import { parseBody, str } from "./body.js";
import type { AgentDialect, HookRequest, RequestContext } from "./contract.js";

export function readHookRequest(dialect: AgentDialect, text: string, context: RequestContext): HookRequest {
  const body = parseBody(text);
  const named = dialect.eventFromUrl === true && context.expectedEvent !== undefined ? undefined : str(body, "hook_event_name", { required: context.expectedEvent === undefined });
  const event = named ?? context.expectedEvent ?? "";
  if (context.expectedEvent !== undefined && event !== context.expectedEvent) {
    throw fieldError("hook_event_name", `is ${JSON.stringify(event)} but the request names ${JSON.stringify(context.expectedEvent)}`);
  }
  if (event === "") throw fieldError("hook_event_name", "must not be empty");
  const request = dialect.readRequest(event, body, context);
  // The command kind hands it to the same agent's hooks as it came (plugins/command/own-payload.ts).
  keepAgentPayload(request.session, { dialect: dialect.name, event, body, text });
  return request;
}
