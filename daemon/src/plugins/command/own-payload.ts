// A command hook's stdin when the event came from its hooks file's own agent (that agent's HTTP
// hook or forwarder): the payload the agent sent, as it came, every field included, so a hook
// reads what it reads natively. hookd writes its own value only into a field the agent sent that
// hookd changed on the way: the tool input a rewrite changed (the call that will run), the prompt
// a sequential hook added context to. Another dialect's event, the gRPC API's and the hosted
// loop's have no such payload: their stdin is rebuilt from the typed event (the agent's payload.ts).
import { toJsonText } from "@hookd/sdk";
import type { JsonValue, SessionInfo, ToolCall } from "@hookd/sdk";
import { agentPayloadOf } from "../../agents/agent-payload.js";
import type { AgentPayload } from "../../agents/agent-payload.js";
import type { Firing } from "../../agents/contract.js";

/** The payload the agent sent for this firing, or undefined when the firing's event did not come from this dialect. */
export function ownPayloadOf(dialect: string, firing: Firing): AgentPayload | undefined {
  const own = agentPayloadOf((firing.data as { session: SessionInfo }).session);
  return own !== undefined && own.dialect === dialect && own.event === firing.event ? own : undefined;
}

/** The stdin text: the agent's text as it came, or its body with the fields hookd changed since. */
export function ownPayloadText(own: AgentPayload, firing: Firing): string {
  const changed: { [field: string]: JsonValue } = {};
  const call = (firing.data as { call?: ToolCall }).call;
  const sentInput = own.body.tool_input;
  if (call !== undefined && sentInput !== undefined && toJsonText(sentInput) !== toJsonText(call.arguments)) changed.tool_input = call.arguments;
  const sentPrompt = own.body.prompt;
  if (firing.prompt !== undefined && typeof sentPrompt === "string" && sentPrompt !== firing.prompt) changed.prompt = firing.prompt;
  if (Object.keys(changed).length === 0) return own.text;
  const text = toJsonText({ ...own.body, ...changed }, "payload");
  return own.text.endsWith("\n") ? `${text}\n` : text;
}
