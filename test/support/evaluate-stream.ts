// A raw HookHost.Evaluate stream for tests: sends frames as given (ids, deadlines, cancels, even
// mistakes) and hands each answer to whoever waits for its request id. Nothing of the SDK's agent
// client is involved, so what it sees is what the daemon sent.
import { StatusError, toStatusError } from "@hookd/sdk/internal";
import type { TypedClient, pb } from "@hookd/sdk/internal";

type Host = TypedClient<typeof pb.HookHost>;
type Request = pb.EvaluateRequest["request"];

export class RawEvaluateStream {
  readonly #call: ReturnType<Host["evaluate"]>;
  readonly #answers = new Map<bigint, pb.EvaluateResponse[]>();
  readonly #waiters = new Map<bigint, ((response: pb.EvaluateResponse) => void)[]>();
  /** Every answer in arrival order. */
  readonly received: pb.EvaluateResponse[] = [];
  /** Resolves when the stream ends: undefined for OK, else its status. */
  readonly ended: Promise<StatusError | undefined>;

  constructor(host: Host, metadata: Readonly<Record<string, string>>) {
    const call = host.evaluate({ metadata });
    this.#call = call;
    this.ended = (async () => {
      try {
        for await (const response of call.responses) {
          this.received.push(response);
          const waiter = this.#waiters.get(response.requestId)?.shift();
          if (waiter === undefined) this.#answers.set(response.requestId, [...(this.#answers.get(response.requestId) ?? []), response]);
          else waiter(response);
        }
        return undefined;
      } catch (error) {
        return error instanceof StatusError ? error : toStatusError(error);
      }
    })();
  }

  send(requestId: bigint, request: Request, deadlineMs = 0): Promise<void> {
    return this.#call.send({ requestId, deadlineMs, request });
  }

  /** The next answer to `requestId` not taken yet. */
  answer(requestId: bigint): Promise<pb.EvaluateResponse> {
    const queued = this.#answers.get(requestId);
    const first = queued?.shift();
    if (first !== undefined) return Promise.resolve(first);
    return new Promise((resolve) => this.#waiters.set(requestId, [...(this.#waiters.get(requestId) ?? []), resolve]));
  }

  /** Sends and waits for the answer. */
  async ask(requestId: bigint, request: Request, deadlineMs = 0): Promise<pb.EvaluateResponse> {
    const answer = this.answer(requestId);
    await this.send(requestId, request, deadlineMs);
    return answer;
  }

  /** Sends a frame as given, unknown fields and all. */
  sendFrame(frame: Parameters<ReturnType<Host["evaluate"]>["send"]>[0]): Promise<void> {
    return this.#call.send(frame);
  }

  /** Sends a cancel frame for `requestId`. */
  sendCancel(requestId: bigint): Promise<void> {
    return this.#call.send({ requestId, request: { case: "cancel", value: {} } });
  }

  end(): void {
    this.#call.end();
  }

  cancel(): void {
    this.#call.cancel();
  }
}

/** The answer's CallError as { code name, message }, or undefined when it is no error. */
export function callError(response: pb.EvaluateResponse): { code: string; message: string } | undefined {
  if (response.reply.case !== "error") return undefined;
  return { code: new StatusError(response.reply.value.code, "").codeName, message: response.reply.value.message };
}
