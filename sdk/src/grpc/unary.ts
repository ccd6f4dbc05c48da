// One unary call on a channel's own call (`createCall`), below grpc-js's Client: no interceptor
// layers, no EventEmitter, and no Error capturing the caller's stack on every call, which was
// costly deep in an async chain. The SDK's typed client and the daemon's plugin calls share it;
// each turns the end of the call into its own errors.
import { Metadata, status } from "@grpc/grpc-js";
import type { ChannelInterface, Deadline, StatusObject } from "@grpc/grpc-js";
import { whenAborted } from "../lazy-abort.js";
import type { Cancellation } from "../lazy-abort.js";

export interface UnaryCallOptions {
  /** Infinity for none. */
  readonly deadline: Deadline;
  readonly metadata?: Metadata;
  /** Cancels the call (CANCELLED); a lazy one is followed without making its AbortSignal. */
  readonly cancellation?: Cancellation;
}

/**
 * Sends `request` to `path` and calls `onEnd` once, with the call's status and its response, if
 * one came. It reads on after the first response, so a second one ends the call at once as
 * UNIMPLEMENTED instead of being left unread until the deadline. The bytes are not decoded here.
 */
export function startUnaryCall(
  channel: ChannelInterface,
  path: string,
  request: Buffer,
  options: UnaryCallOptions,
  onEnd: (final: StatusObject, response: Buffer | undefined) => void,
): void {
  const call = channel.createCall(path, options.deadline, null, null, null);
  let response: Buffer | undefined;
  const unlink = options.cancellation === undefined ? undefined : whenAborted(options.cancellation, () => call.cancelWithStatus(status.CANCELLED, "cancelled by the caller"));
  call.start(options.metadata ?? new Metadata(), {
    onReceiveMetadata: () => {},
    onReceiveMessage: (message: Buffer) => {
      if (response !== undefined) {
        call.cancelWithStatus(status.UNIMPLEMENTED, "more than one response to a unary call");
        return;
      }
      response = message;
      call.startRead();
    },
    onReceiveStatus: (final: StatusObject) => {
      unlink?.();
      onEnd(final, response);
    },
  });
  call.startRead();
  call.sendMessageWithContext({}, request);
  call.halfClose();
}
