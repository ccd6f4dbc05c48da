// The `input` document a Rego policy sees: the point's typed event as protobuf JSON (the same
// message a gRPC plugin receives, every field present), the point's name, and parsed forms of the
// JSON text fields a policy would otherwise unmarshal itself. docs/rego.md lists the mapping.
import { toJson } from "@bufbuild/protobuf";
import type { DescMessage, Message } from "@bufbuild/protobuf";
import { POINT_TABLE } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";

type JsonObject = Record<string, unknown>;

interface EventCodec {
  readonly schema: DescMessage;
  toProto(event: unknown): Message;
}

export function regoInput(point: PointName, event: unknown): JsonObject {
  const codec = POINT_TABLE[point].event as unknown as EventCodec;
  // Every field present, so a policy reads `""` or `0` rather than an undefined that silently
  // makes a rule body false.
  const json = toJson(codec.schema, codec.toProto(event), { alwaysEmitImplicit: true }) as JsonObject;
  const input: JsonObject = { point, ...json };
  const call = json.call as JsonObject | undefined;
  if (typeof call?.argumentsJson === "string") input.arguments = JSON.parse(call.argumentsJson) as unknown;
  // agent-event: the agent's own hook payload, as the agent sent it.
  if (typeof json.payloadJson === "string") input.payload = JSON.parse(json.payloadJson) as unknown;
  return input;
}
