// The `input` document a Rego policy sees: the point's typed event as protobuf JSON (the same
// message a gRPC plugin receives, every field present), the point's name, parsed forms of the
// JSON text fields a policy would otherwise unmarshal itself, what the agent's own hook payloads
// told about the session, and the payload of the agent's hook request the event came from.
// docs/rego.md lists the mapping.
import { toJson } from "@bufbuild/protobuf";
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { POINT_TABLE } from "@hookd/sdk";
import type { PointName, SessionInfo } from "@hookd/sdk";
import { agentPayloadOf } from "../../agents/agent-payload.js";
import type { SessionFacts } from "../../engine/session-facts.js";

type JsonObject = Record<string, unknown>;

interface EventCodec {
  readonly schema: DescMessage;
  toProto(event: unknown): Message;
}

/** `facts`: what agents told hookd in their hook payloads (transcript, permission mode, model). */
export function regoInput(point: PointName, event: unknown, facts?: SessionFacts): JsonObject {
  const codec = POINT_TABLE[point].event as unknown as EventCodec;
  // Every field present, so a policy reads `""` or `0` rather than an undefined that silently
  // makes a rule body false.
  const json = toJson(codec.schema, codec.toProto(event), { alwaysEmitImplicit: true }) as JsonObject;
  const input: JsonObject = { point, ...json };
  const call = json.call as JsonObject | undefined;
  if (typeof call?.argumentsJson === "string") input.arguments = JSON.parse(call.argumentsJson) as unknown;
  // agent-event: the agent's own hook payload, as the agent sent it.
  if (typeof json.payloadJson === "string") input.payload = JSON.parse(json.payloadJson) as unknown;
  const session = (event as { session?: SessionInfo }).session;
  const told = session === undefined ? undefined : facts?.of(session);
  if (told !== undefined && Object.keys(told).length > 0) input.agent = told;
  // An event an agent's hook request carried: its payload as the agent sent it, every field.
  const sent = session === undefined ? undefined : agentPayloadOf(session);
  if (sent !== undefined && input.payload === undefined) {
    input.payload = JSON.parse(sent.text) as unknown;
    input.dialect = sent.dialect;
  }
  return input;
}
