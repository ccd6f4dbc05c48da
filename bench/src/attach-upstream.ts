// The relay's upstream on the stream path: one HookPlugin.Attach stream to a plugin server,
// opened with `open`, then pre-tool calls multiplexed by call id, each carrying the time left,
// and a `cancel` frame when the caller gives up. The bare-transport twin of the daemon's Attach
// client: the channel's own call (`createCall`) with its message callbacks and one write at a
// time, as the daemon's is, but none of its logic (no window, no deadline timers: the floor
// measures transport). It fails fast when the plugin is not there; the relay opens a new one
// after that.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Channel, Metadata, credentials, status } from "@grpc/grpc-js";
import type { StatusObject } from "@grpc/grpc-js";
import { StatusError, pb } from "@hookd/sdk/internal";

const ATTACH_PATH = `/${pb.HookPlugin.typeName}/${pb.HookPlugin.method.attach.name}`;

interface Waiter {
  resolve(frame: pb.AttachResponse): void;
  reject(error: Error): void;
}

export class AttachUpstream {
  readonly #channel: Channel;
  readonly #call: ReturnType<Channel["createCall"]>;
  readonly #waiting = new Map<bigint, Waiter>();
  readonly #writes: Buffer[] = [];
  #writing = false;
  #next = 0n;
  #ended: Error | undefined;

  constructor(target: string, pluginName: string) {
    this.#channel = new Channel(target, credentials.createInsecure(), {});
    this.#call = this.#channel.createCall(ATTACH_PATH, Infinity, null, null, null);
    this.#call.start(new Metadata(), {
      onReceiveMetadata: () => {},
      onReceiveMessage: (message: Buffer) => {
        this.#call.startRead();
        this.#received(message);
      },
      onReceiveStatus: (final: StatusObject) => this.#end(new StatusError(final.code, final.code === status.OK ? "the stream ended" : final.details)),
    });
    this.#call.startRead();
    this.#write({ frame: { case: "open", value: { daemonVersion: "bench-relay", pluginName, window: 1024 } } });
  }

  /** Cancels the stream; its end closes the channel. */
  close(): void {
    this.#call.cancelWithStatus(status.CANCELLED, "closed by the relay");
  }

  /** Set once the stream is over (its calls failed with this). */
  get ended(): Error | undefined {
    return this.#ended;
  }

  /** One pre-tool call; `cancel` sends the cancel frame and fails the call. */
  preTool(event: pb.EvaluatePreToolRequest["event"], deadlineMs: number): { answer: Promise<pb.PreToolResponse>; cancel(): void } {
    const id = ++this.#next;
    const answer = new Promise<pb.AttachResponse>((resolve, reject) => {
      if (this.#ended !== undefined) reject(this.#ended);
      else this.#waiting.set(id, { resolve, reject });
    });
    this.#write({ frame: { case: "call", value: { callId: id, deadlineMs, request: { case: "preTool", value: { event } } } } });
    return {
      answer: answer.then((frame) => {
        if (frame.reply.case === "preTool") return frame.reply.value;
        if (frame.reply.case === "error") throw new StatusError(frame.reply.value.code, `upstream: ${frame.reply.value.message}`);
        throw new StatusError(status.INTERNAL, `upstream answered a pre-tool call with ${frame.reply.case ?? "nothing"}`);
      }),
      cancel: () => {
        this.#write({ frame: { case: "cancel", value: { callId: id } } });
        this.#fail(id, new StatusError(status.CANCELLED, "the caller cancelled"));
      },
    };
  }

  #received(message: Buffer): void {
    let frame: pb.AttachResponse;
    try {
      frame = fromBinary(pb.AttachResponseSchema, message);
    } catch (error) {
      this.#end(new StatusError(status.INTERNAL, `upstream sent an undecodable AttachResponse: ${String(error)}`));
      this.#call.cancelWithStatus(status.INTERNAL, "undecodable answer");
      return;
    }
    const waiter = this.#waiting.get(frame.callId);
    this.#waiting.delete(frame.callId);
    waiter?.resolve(frame);
  }

  #fail(id: bigint, error: Error): void {
    const waiter = this.#waiting.get(id);
    this.#waiting.delete(id);
    waiter?.reject(error);
  }

  // grpc-js takes one message per call at a time: the next is written once this one is.
  #write(request: MessageInitShape<typeof pb.AttachRequestSchema>): void {
    if (this.#ended !== undefined) return;
    const bytes = toBinary(pb.AttachRequestSchema, create(pb.AttachRequestSchema, request));
    const frame = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (this.#writing) {
      this.#writes.push(frame);
      return;
    }
    this.#send(frame);
  }

  #send(frame: Buffer): void {
    this.#writing = true;
    this.#call.sendMessageWithContext(
      {
        callback: () => {
          this.#writing = false;
          const next = this.#writes.shift();
          if (next !== undefined && this.#ended === undefined) this.#send(next);
        },
      },
      frame,
    );
  }

  #end(error: Error): void {
    if (this.#ended !== undefined) return;
    this.#ended = error;
    this.#writes.length = 0;
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
    this.#channel.close();
  }
}
