// The frames of HookPlugin.Attach as bytes. A call frame embeds the point's unary request bytes
// as they are (encoded once per fan-out, answers.ts), and an answer frame is read field by field
// rather than decoded as a whole: the point's response inside it is then decoded exactly as the
// unary RPC's response is, so garbage, a missing decision or another point's answer become the
// same faults on both transports, and a bad response never hides which call it answers.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BinaryReader, BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { pb } from "@hookd/sdk/internal";

/** The oneof field of a point's request in AttachCall and of its response in AttachResponse. */
export const ATTACH_FIELD_OFFSET = 10;

export function openFrame(open: { readonly daemonVersion: string; readonly pluginName: string; readonly window: number }): Buffer {
  return asBuffer(toBinary(pb.AttachRequestSchema, create(pb.AttachRequestSchema, { frame: { case: "open", value: open } })));
}

/** AttachRequest{call: AttachCall{call_id, deadline_ms, traceparent?, <10 + point>: request}}. */
export function callFrame(callId: number, deadlineMs: number, pointField: number, request: Uint8Array, traceparent?: string): Buffer {
  const writer = new BinaryWriter()
    .tag(1, WireType.Varint)
    .uint64(callId)
    .tag(2, WireType.Varint)
    .uint32(Math.max(0, Math.min(0xffffffff, Math.ceil(deadlineMs))));
  // Proto3 leaves an empty string off the wire: tracing off adds nothing to the frame.
  if (traceparent !== undefined && traceparent !== "") writer.tag(3, WireType.LengthDelimited).string(traceparent);
  const call = writer
    .tag(ATTACH_FIELD_OFFSET + pointField, WireType.LengthDelimited)
    .bytes(request)
    .finish();
  return asBuffer(new BinaryWriter().tag(2, WireType.LengthDelimited).bytes(call).finish());
}

export function cancelFrame(callId: number): Buffer {
  return asBuffer(toBinary(pb.AttachRequestSchema, create(pb.AttachRequestSchema, { frame: { case: "cancel", value: { callId: BigInt(callId) } } })));
}

/** One answer frame: which call, and its reply. */
export interface AnswerFrame {
  readonly callId: number;
  readonly reply:
    | { readonly kind: "error"; readonly code: number; readonly message: string }
    | { readonly kind: "response"; readonly field: number; readonly bytes: Uint8Array }
    | { readonly kind: "none" };
}

/** Throws on bytes that are not an AttachResponse (the frame then answers nothing). */
export function readAnswer(bytes: Uint8Array): AnswerFrame {
  const reader = new BinaryReader(bytes);
  let callId = 0;
  let reply: AnswerFrame["reply"] = { kind: "none" };
  while (reader.pos < reader.len) {
    const [field, wireType] = reader.tag();
    if (field === 1 && wireType === WireType.Varint) {
      callId = Number(reader.uint64());
    } else if (field === 2 && wireType === WireType.LengthDelimited) {
      const error = fromBinary(pb.CallErrorSchema, reader.bytes());
      reply = { kind: "error", code: error.code, message: error.message };
    } else if (field > ATTACH_FIELD_OFFSET && wireType === WireType.LengthDelimited) {
      // The last oneof member on the wire wins, as protobuf decoding would have it.
      reply = { kind: "response", field, bytes: reader.bytes() };
    } else {
      reader.skip(wireType, field);
    }
  }
  return { callId, reply };
}

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
