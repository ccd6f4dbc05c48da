// The daemon's side of one Session stream: frames go out one after another, and a Heartbeat goes
// out whenever nothing else has for the heartbeat interval, so that a proxy between agent and
// daemon (nginx's grpc_read_timeout) never sees the response direction idle. HTTP/2 pings would
// not do: they stop at the proxy.
import { create } from "@bufbuild/protobuf";
import { pb } from "@hookd/sdk/internal";
import type { ServerStreamCall } from "@hookd/sdk/internal";
import type { AgentStream } from "./hosted-session.js";

type SessionCall = ServerStreamCall<typeof pb.HookHost.method.session>;

/** Sends frames one after another; once the stream is over, frames are dropped. */
export class FrameSender implements AgentStream {
  readonly #call: SessionCall;
  #chain: Promise<void> = Promise.resolve();
  #lastSent = performance.now();
  #heartbeat: NodeJS.Timeout | undefined;
  #sequence = 0n;

  constructor(call: SessionCall) {
    this.#call = call;
  }

  send(frame: Parameters<AgentStream["send"]>[0]): void {
    this.#lastSent = performance.now();
    const message = create(pb.SessionResponseSchema, { frame });
    this.#chain = this.#chain.then(() => this.#call.send(message)).catch(() => {});
  }

  /** Sends a Heartbeat after every `intervalMs` without another frame; 0 sends none. */
  startHeartbeats(intervalMs: number): void {
    if (intervalMs <= 0 || this.#heartbeat !== undefined) return;
    const beat = (): void => {
      const idle = performance.now() - this.#lastSent;
      if (idle >= intervalMs) {
        this.#sequence += 1n;
        this.send({ case: "heartbeat", value: { sequence: this.#sequence } });
      }
      // The next check falls one interval after the last frame, whatever it was.
      this.#heartbeat = setTimeout(beat, idle >= intervalMs ? intervalMs : intervalMs - idle);
    };
    this.#heartbeat = setTimeout(beat, intervalMs);
  }

  /** Stops the heartbeats and resolves once every frame handed over is written (or dropped). */
  flush(): Promise<void> {
    clearTimeout(this.#heartbeat);
    this.#heartbeat = undefined;
    return this.#chain;
  }
}
