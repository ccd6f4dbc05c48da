// The event of an evaluate request, read for the evaluate API: converted from proto, checked
// (a session id, the session header's affinity, a tool call that names itself and has object
// arguments), and bound to the caller's authenticated identity. Refusals are INVALID_ARGUMENT
// naming the field.
import type { Metadata } from "@grpc/grpc-js";
import { status } from "@grpc/grpc-js";
import type { PointName, ToolCall } from "@hookd/sdk";
import type { ProtoEvent } from "@hookd/sdk/internal";
import { StatusError, fromProtoEvent, invalidArgument } from "@hookd/sdk/internal";
import type { EventOf } from "../engine/listener.js";
import { checkSessionHeader } from "./affinity.js";
import type { AgentIdentities } from "./identity.js";
import { identityProblem, isArgumentsObject } from "./tool-calls.js";

export function readEvaluateEvent<P extends PointName>(point: P, raw: ProtoEvent<P> | undefined, metadata: Metadata, identities: AgentIdentities): EventOf<P> {
  if (raw === undefined) throw invalidArgument("event", "required");
  const converted = fromProtoEvent(point, raw, "event");
  if (!converted.ok) throw new StatusError(status.INVALID_ARGUMENT, converted.error.message);
  const event = converted.value;
  const declared = event.session;
  if (declared.sessionId === "") throw invalidArgument("event.session.session_id", "required");
  checkSessionHeader(metadata, declared.sessionId, "event.session.session_id");
  const { call } = event as { readonly call?: ToolCall };
  if (call !== undefined) checkCall(call);
  const agentId = identities.resolve(metadata, declared.agentId);
  // Without tokens the identity is the declared one: the converted event is used as it is.
  return agentId === declared.agentId ? event : { ...event, session: { ...declared, agentId } };
}

/** A tool point's call names its call and tool and has object arguments (see tool-calls.ts). */
function checkCall(call: ToolCall): void {
  const problem = identityProblem(call, "event.call") ?? (isArgumentsObject(call.arguments) ? undefined : "event.call.arguments_json: expected a JSON object");
  if (problem !== undefined) throw new StatusError(status.INVALID_ARGUMENT, problem);
}
