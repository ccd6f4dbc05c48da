// createClient: a typed promise client for a protobuf-es GenService over grpc-js, one method per
// RPC, each taking a signal, a deadline, metadata and waitForReady. Owns the call options and the
// client's lifecycle; the methods themselves are in client-methods.ts. Knows nothing of hookd's services.
import type { DescMethod } from "@bufbuild/protobuf";
import { Client, credentials } from "@grpc/grpc-js";
import type { ChannelCredentials, ChannelInterface, ChannelOptions, Metadata } from "@grpc/grpc-js";
import { HookdError } from "../errors.js";
import { methodDefinition } from "./definition.js";
import type { AnyService, InputInitOf, MethodsOf, OutputOf } from "./definition.js";
import { bidiStreaming, serverStreaming, unary } from "./client-methods.js";

export interface CallOptions {
  /** Aborting cancels the call; the caller then gets CANCELLED with the signal's reason as `cause`. */
  readonly signal?: AbortSignal;
  /** An absolute deadline: a Date, or epoch milliseconds as grpc-js takes it. */
  readonly deadline?: Date | number;
  /** A deadline relative to the start of the call; with `deadline` as well, the earlier wins. */
  readonly timeoutMs?: number;
  /** Request headers. Binary (`-bin`) headers need a Metadata with Buffer values. */
  readonly metadata?: Metadata | Readonly<Record<string, string | readonly string[]>>;
  /** Wait for the channel to connect instead of failing fast with UNAVAILABLE. */
  readonly waitForReady?: boolean;
}

/** A bidirectional call. Rejections and the thrown errors are StatusErrors. */
export interface BidiCall<D extends Pick<DescMethod, "input" | "output">> {
  /**
   * Resolves once the message is handed to the stream: at once while it has room, later while the
   * server is slow (messages sent meanwhile wait behind it, in order); rejects once the call is over.
   */
  send(message: InputInitOf<D>): Promise<void>;
  /** Half-closes after the messages sent before it: the server's request stream ends; responses keep coming. */
  end(): void;
  /** Single use; ends when the server ends the call, throws its status if not OK; breaking out cancels. */
  readonly responses: AsyncIterable<OutputOf<D>>;
  cancel(): void;
}

type MethodShape = Pick<DescMethod, "input" | "output" | "methodKind">;

export type UnaryMethod<D extends MethodShape> = (request: InputInitOf<D>, options?: CallOptions) => Promise<OutputOf<D>>;
/** The call starts when iteration does; breaking out of the loop or aborting the signal cancels it. */
export type ServerStreamingMethod<D extends MethodShape> = (request: InputInitOf<D>, options?: CallOptions) => AsyncIterable<OutputOf<D>>;
export type BidiStreamingMethod<D extends MethodShape> = (options?: CallOptions) => BidiCall<D>;
/** Client-streaming methods are not supported (hookd has none): their type is `never`. */
export type ClientMethod<D extends MethodShape> = D["methodKind"] extends "unary"
  ? UnaryMethod<D>
  : D["methodKind"] extends "server_streaming"
    ? ServerStreamingMethod<D>
    : D["methodKind"] extends "bidi_streaming"
      ? BidiStreamingMethod<D>
      : never;

export type TypedClient<S extends AnyService> = { readonly [K in keyof MethodsOf<S>]: ClientMethod<MethodsOf<S>[K]> };

export interface ClientOptions {
  /** Default: insecure, for Unix sockets and loopback. */
  readonly credentials?: ChannelCredentials;
  /** grpc-js channel options; ignored when a Channel is passed. */
  readonly channelOptions?: ChannelOptions;
}

// grpc-js's Client#close closes the channel even when it was passed in and may be shared, so the
// closer is kept out of the typed client (where it could also collide with a method name).
const closers = new WeakMap<object, () => void>();

/**
 * A client for `service` at `target` ("unix:///abs/path", "unix:/abs/path", "host:port") or on an
 * existing channel. Close it with closeClient; a channel passed in is left open for its owner.
 */
export function createClient<S extends AnyService>(
  service: S,
  target: string | ChannelInterface,
  options: ClientOptions = {},
): TypedClient<S> {
  const channelCredentials = options.credentials ?? credentials.createInsecure();
  const client =
    typeof target === "string"
      ? new Client(target, channelCredentials, options.channelOptions)
      : new Client(target.getTarget(), channelCredentials, { channelOverride: target });
  const methods: Record<string, unknown> = {};
  for (const method of service.methods) {
    const definition = methodDefinition(method);
    switch (method.methodKind) {
      case "unary":
        methods[method.localName] = unary(client, definition);
        break;
      case "server_streaming":
        methods[method.localName] = serverStreaming(client, definition);
        break;
      case "bidi_streaming":
        methods[method.localName] = bidiStreaming(client, definition);
        break;
      case "client_streaming":
        break; // typed `never`; nothing to call
      default: {
        const unknownKind: never = method.methodKind;
        throw new HookdError("internal", `unknown method kind ${String(unknownKind)}`);
      }
    }
  }
  const typed = Object.freeze(methods) as TypedClient<S>;
  closers.set(typed, typeof target === "string" ? () => client.close() : () => {});
  return typed;
}

/** Closes the client's own channel (calls in flight fail with UNAVAILABLE). Idempotent. */
export function closeClient(client: object): void {
  const close = closers.get(client);
  if (!close) throw new HookdError("invalid_argument", "closeClient: not a client made by createClient");
  close();
}
