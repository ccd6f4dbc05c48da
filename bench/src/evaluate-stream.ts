// The agent side of the stream path as a raw client on the generated HookHost.Evaluate: one
// stream, pre-tool evaluations multiplexed by request id (mux.ts), each with its own deadline.
// `expectPreToolStream` is expectPreTool's twin: it waits until the daemon decides through the
// plugin under test, and turns a daemon without the stream (UNIMPLEMENTED) into a Skip.
import { status } from "@grpc/grpc-js";
import { StatusError } from "@hookd/sdk/internal";
import type { BidiCall , pb } from "@hookd/sdk/internal";
import { Skip } from "./lab.js";
import type { Checked, HostClient } from "./lab.js";
import { preToolRequest } from "./messages.js";
import { Mux } from "./mux.js";

type EvaluateCall = BidiCall<(typeof pb.HookHost.method)["evaluate"]>;

export class EvaluateStream {
  readonly #call: EvaluateCall;
  readonly #mux: Mux<pb.EvaluateResponse>;

  constructor(client: HostClient) {
    this.#call = client.evaluate({ waitForReady: true });
    this.#mux = new Mux(this.#call.responses, (frame) => frame.requestId);
  }

  /** One pre-tool evaluation on the stream; rejects with the answer's CallError as a StatusError. */
  async preTool(request: pb.EvaluatePreToolRequest, deadlineMs = 10_000): Promise<pb.EvaluatePreToolResponse> {
    const { id, answer } = this.#mux.open();
    this.#call.send({ requestId: id, deadlineMs, request: { case: "preTool", value: request } }).catch((error: unknown) => {
      this.#mux.fail(id, error instanceof Error ? error : new Error(String(error)));
    });
    const frame = await answer;
    switch (frame.reply.case) {
      case "preTool":
        return frame.reply.value;
      case "error":
        throw new StatusError(frame.reply.value.code, frame.reply.value.message);
      case undefined:
        throw new Error(`request ${id}: an answer with no reply`);
      default:
        throw new Error(`request ${id}: a pre-tool request answered with ${frame.reply.case}`);
    }
  }

  /** Frames for ids this client never sent or already had answered. */
  get strays(): number {
    return this.#mux.strays;
  }

  close(): void {
    this.#call.cancel();
  }
}

/**
 * Waits (up to `timeoutMs`) until pre-tool evaluations on a fresh Evaluate stream are allowed by
 * `decidedBy`, then returns the call to measure (on that stream). A daemon that answers the
 * stream UNIMPLEMENTED does not have it yet: a Skip, not a failure.
 */
export async function expectPreToolStream(client: HostClient, decidedBy: string, timeoutMs = 15_000, agentId?: string): Promise<Checked & { close(): void }> {
  const request = preToolRequest(agentId);
  const deadline = performance.now() + timeoutMs;
  let stream = new EvaluateStream(client);
  let last = "";
  for (;;) {
    try {
      const answer = await stream.preTool(request);
      if (answer.decision?.decision.case === "allow" && answer.trace?.decidedBy === decidedBy) break;
      last = `${answer.decision?.decision.case ?? "none"} by ${answer.trace?.decidedBy ?? "?"} (${answer.trace?.failureCause ?? ""})`;
    } catch (error) {
      if (error instanceof StatusError && error.code === status.UNIMPLEMENTED) {
        stream.close();
        throw new Skip(`the daemon does not serve the HookHost.Evaluate stream yet (${error.message})`);
      }
      last = error instanceof Error ? error.message : String(error);
      stream.close();
      stream = new EvaluateStream(client);
    }
    if (performance.now() > deadline) {
      stream.close();
      throw new Error(`expected allow by ${decidedBy} on the Evaluate stream, got ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  let mismatches = 0;
  return {
    close: () => stream.close(),
    call: async () => {
      const answer = await stream.preTool(request);
      if (answer.trace?.decidedBy !== decidedBy) mismatches++;
    },
    mismatches: () => mismatches + stream.strays,
  };
}
