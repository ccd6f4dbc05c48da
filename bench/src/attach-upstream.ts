// The relay's upstream on the stream path: one HookPlugin.Attach stream to a plugin server,
// opened with `open`, then pre-tool calls multiplexed by call id (mux.ts), each carrying the time
// left, and a `cancel` frame when the caller gives up. The bare-transport twin of the daemon's
// Attach client, with none of its logic (no window, no deadline timers: the floor measures
// transport). It fails fast when the plugin is not there; the relay opens a new one after that.
import { create } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import { StatusError, createClient, pb } from "@hookd/sdk/internal";
import type { BidiCall } from "@hookd/sdk/internal";
import { Mux } from "./mux.js";

type AttachCall = BidiCall<(typeof pb.HookPlugin.method)["attach"]>;

export class AttachUpstream {
  readonly #call: AttachCall;
  readonly #mux: Mux<pb.AttachResponse>;

  constructor(target: string, pluginName: string) {
    this.#call = createClient(pb.HookPlugin, target).attach();
    this.#mux = new Mux(this.#call.responses, (frame) => frame.callId);
    void this.#call.send({ frame: { case: "open", value: { daemonVersion: "bench-relay", pluginName, window: 1024 } } }).catch(() => {});
  }

  close(): void {
    this.#call.cancel();
  }

  /** Set once the stream is over (its calls failed with this). */
  get ended(): Error | undefined {
    return this.#mux.ended;
  }

  /** One pre-tool call; `cancel` sends the cancel frame and fails the call. */
  preTool(event: pb.EvaluatePreToolRequest["event"], deadlineMs: number): { answer: Promise<pb.PreToolResponse>; cancel(): void } {
    const { id, answer } = this.#mux.open();
    const request = create(pb.PreToolRequestSchema, { event });
    this.#call.send({ frame: { case: "call", value: { callId: id, deadlineMs, request: { case: "preTool", value: request } } } }).catch((error: unknown) => {
      this.#mux.fail(id, error instanceof Error ? error : new Error(String(error)));
    });
    return {
      answer: answer.then((frame) => {
        if (frame.reply.case === "preTool") return frame.reply.value;
        if (frame.reply.case === "error") throw new StatusError(frame.reply.value.code, `upstream: ${frame.reply.value.message}`);
        throw new StatusError(status.INTERNAL, `upstream answered a pre-tool call with ${frame.reply.case ?? "nothing"}`);
      }),
      cancel: () => {
        void this.#call.send({ frame: { case: "cancel", value: { callId: id } } }).catch(() => {});
        this.#mux.fail(id, new StatusError(status.CANCELLED, "the caller cancelled"));
      },
    };
  }
}
