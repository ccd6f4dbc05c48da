// serviceDefinition: a protobuf-es `GenService` as the grpc-js `ServiceDefinition` that servers
// and clients are built on (paths, streaming flags, binary codecs). Owns the wire codecs and the
// per-method types derived from a GenService; knows nothing of handlers or calls.
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import type { DescMessage, DescMethod, MessageInitShape, MessageShape } from "@bufbuild/protobuf";
import type { GenService, GenServiceMethods } from "@bufbuild/protobuf/codegenv2";
import { status } from "@grpc/grpc-js";
import type { MethodDefinition } from "@grpc/grpc-js";
import { StatusError } from "./status.js";

/** Any generated service, e.g. `typeof HookAdmin`. */
export type AnyService = GenService<GenServiceMethods>;
/** The methods of a generated service by local name (`getStatus`), with kind, input and output. */
export type MethodsOf<S extends AnyService> = S["method"];
export type MethodKind = DescMethod["methodKind"];
export type InputOf<D extends Pick<DescMethod, "input">> = MessageShape<D["input"]>;
export type OutputOf<D extends Pick<DescMethod, "output">> = MessageShape<D["output"]>;
export type InputInitOf<D extends Pick<DescMethod, "input">> = MessageInitShape<D["input"]>;
export type OutputInitOf<D extends Pick<DescMethod, "output">> = MessageInitShape<D["output"]>;

/**
 * A request as the server's deserializer hands it over. Decoding never throws: grpc-js answers a
 * throwing deserializer with INTERNAL and hides the reason, while a malformed request is the
 * caller's fault and deserves INVALID_ARGUMENT naming what failed.
 */
export type Decoded<T> = { readonly ok: true; readonly message: T } | { readonly ok: false; readonly error: StatusError };

/**
 * One method for grpc-js. The client side sends and receives messages. The server side receives
 * `Decoded` requests and sends responses already encoded: the handler wrappers encode, so a
 * message that cannot be encoded fails where it was produced, with protobuf-es's reason, instead
 * of as grpc-js's opaque "Error serializing response".
 */
export interface HookdMethodDefinition<I extends DescMessage = DescMessage, O extends DescMessage = DescMessage>
  extends Pick<
      MethodDefinition<MessageShape<I>, MessageShape<O>>,
      "path" | "requestStream" | "responseStream" | "originalName" | "requestSerialize" | "responseDeserialize"
    >,
    Pick<MethodDefinition<Decoded<MessageShape<I>>, Buffer>, "requestDeserialize" | "responseSerialize"> {
  readonly method: DescMethod;
}

export type HookdServiceDefinition<S extends AnyService> = {
  readonly [K in keyof MethodsOf<S>]: HookdMethodDefinition<MethodsOf<S>[K]["input"], MethodsOf<S>[K]["output"]>;
};

const STREAMING: Readonly<Record<MethodKind, { requestStream: boolean; responseStream: boolean }>> = {
  unary: { requestStream: false, responseStream: false },
  server_streaming: { requestStream: false, responseStream: true },
  client_streaming: { requestStream: true, responseStream: false },
  bidi_streaming: { requestStream: true, responseStream: true },
};

/** grpc-js needs a Buffer (it calls Buffer#copy); wrapping the fresh array from toBinary copies nothing. */
export function encode(schema: DescMessage, message: MessageShape<DescMessage>): Buffer {
  const bytes = toBinary(schema, message);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** What a server accepts; grpc-js's own receive limit should stay above these. */
export interface RequestLimits {
  /** Larger requests are refused with INVALID_ARGUMENT naming the size and the limit. */
  readonly maxRequestBytes?: number;
}

/**
 * Total: a decode failure comes back as INVALID_ARGUMENT "<type name>: <protobuf-es's reason>",
 * and a message over `maxBytes` as INVALID_ARGUMENT naming its size and the limit.
 */
export function decode<D extends DescMessage>(schema: D, bytes: Uint8Array, maxBytes = Infinity): Decoded<MessageShape<D>> {
  if (bytes.byteLength > maxBytes) {
    return { ok: false, error: new StatusError(status.INVALID_ARGUMENT, `${schema.typeName}: a message of ${bytes.byteLength} bytes is over the limit of ${maxBytes} bytes`) };
  }
  try {
    return { ok: true, message: fromBinary(schema, bytes) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: new StatusError(status.INVALID_ARGUMENT, `${schema.typeName}: ${reason}`, { cause: error }) };
  }
}

/** The method's path on the wire: `/hookd.v1.HookAdmin/GetStatus`. */
export function methodPath(method: DescMethod): string {
  return `/${method.parent.typeName}/${method.name}`;
}

export function methodDefinition(method: DescMethod, limits: RequestLimits = {}): HookdMethodDefinition {
  const { input, output } = method;
  return {
    method,
    path: methodPath(method),
    originalName: method.name,
    ...STREAMING[method.methodKind],
    requestSerialize: (message) => encode(input, message),
    requestDeserialize: (bytes) => decode(input, bytes, limits.maxRequestBytes),
    responseSerialize: (encoded) => encoded,
    // Client side: grpc-js turns a throw here into INTERNAL for the caller, which is right for a
    // server that answered bytes its own schema does not describe.
    responseDeserialize: (bytes) => fromBinary(output, bytes),
  };
}

/** Keyed by the methods' local names (`getStatus`), which is also how implementations are keyed. */
export function serviceDefinition<S extends AnyService>(service: S, limits: RequestLimits = {}): HookdServiceDefinition<S> {
  const definition: Record<string, HookdMethodDefinition> = {};
  for (const method of service.methods) definition[method.localName] = methodDefinition(method, limits);
  return definition as HookdServiceDefinition<S>;
}
