// A hosted-loop stream driven frame by frame with the raw typed client, so that any frame can be
// sent, even one the SDK's agent would never build: for tests of bad input from an agent.
import { assistantMessage } from "@hookd/sdk";
import { toProtoMessage, toProtoToolResult } from "@hookd/sdk/internal";
import { StatusError, pb } from "@hookd/sdk/internal";
import type { BidiCall, InputInitOf, TypedClient } from "@hookd/sdk/internal";
import { expect } from "vitest";

export type HostClient = TypedClient<typeof pb.HookHost>;
type SessionMethod = typeof pb.HookHost.method.session;
export type RequestFrame = NonNullable<InputInitOf<SessionMethod>["frame"]>;
type ResponseFrame = pb.SessionResponse["frame"];
type FrameCase = NonNullable<ResponseFrame["case"]>;
export type FrameOf<C extends FrameCase> = Extract<ResponseFrame, { case: C }>["value"];

/** One hosted-loop stream driven frame by frame. Every frame received is kept in `seen`. */
export class RawSession {
  readonly call: BidiCall<SessionMethod>;
  readonly seen: ResponseFrame[] = [];
  readonly #responses: AsyncIterator<pb.SessionResponse>;

  /** `metadata` is sent besides the agent header (e.g. x-hookd-session). */
  constructor(host: HostClient, agent: string, metadata: Readonly<Record<string, string>> = {}) {
    this.call = host.session({ metadata: { "x-hookd-agent": agent, ...metadata } });
    this.#responses = this.call.responses[Symbol.asyncIterator]();
  }

  send(frame: RequestFrame): Promise<void> {
    return this.call.send({ frame });
  }

  open(sessionId: string, options: { source?: pb.SessionSource; tools?: string[] } = {}): Promise<void> {
    const tools = (options.tools ?? ["Bash"]).map((name) => ({ name, concurrencySafe: true }));
    return this.send({ case: "open", value: { sessionId, source: options.source ?? pb.SessionSource.STARTUP, cwd: "/", tools } });
  }

  /** The next frame, whatever it is. */
  async frame(): Promise<ResponseFrame> {
    const next = await this.#responses.next();
    if (next.done === true) throw new Error(`the stream ended; frames so far: ${this.#describe()}`);
    this.seen.push(next.value.frame);
    return next.value.frame;
  }

  /** The next frame, which must be of `kind`. */
  async expect<C extends FrameCase>(kind: C): Promise<FrameOf<C>> {
    const frame = await this.frame();
    if (frame.case !== kind) throw new Error(`expected ${kind}, got ${frame.case ?? "none"}; frames so far: ${this.#describe()}`);
    return frame.value as FrameOf<C>;
  }

  /** Reads to the end of the stream: the status it ended with, or "OK". */
  async ended(): Promise<StatusError | "OK"> {
    try {
      for (;;) {
        const next = await this.#responses.next();
        if (next.done === true) return "OK";
        this.seen.push(next.value.frame);
      }
    } catch (error) {
      if (error instanceof StatusError) return error;
      throw error;
    }
  }

  /** Sends a follow-up and plays a model that stops at once and tools that succeed; the turn's end. */
  async completeTurn(text: string): Promise<FrameOf<"turnEnded">> {
    await this.send({ case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: text } }] } });
    for (;;) {
      const frame = await this.frame();
      if (frame.case === "stepRequest") await this.replyStep(frame.value.requestId);
      else if (frame.case === "dispatchRequest") await this.replyDispatch(frame.value.requestId);
      else if (frame.case === "turnEnded") return frame.value;
    }
  }

  replyStep(requestId: string, toolCalls: { callId: string; toolName: string; argumentsJson: string }[] = []): Promise<void> {
    return this.send({ case: "stepReply", value: { requestId, assistantMessage: toProtoMessage(assistantMessage("done")), toolCalls } });
  }

  replyDispatch(requestId: string): Promise<void> {
    return this.send({ case: "dispatchReply", value: { requestId, result: toProtoToolResult({ isError: false, value: "ok", content: [], contexts: [] }) } });
  }

  /** Closes the session for good and waits for the stream to end. */
  async close(): Promise<void> {
    await this.send({ case: "close", value: {} });
    expect(await this.ended()).toBe("OK");
  }

  #describe(): string {
    return JSON.stringify(this.seen.map((frame) => frame.case));
  }
}

/** Opens a fresh session and waits for SessionOpened. */
export async function opened(host: HostClient, agent: string, sessionId: string): Promise<RawSession> {
  const session = new RawSession(host, agent);
  await session.open(sessionId);
  await expect(session.expect("opened")).resolves.toMatchObject({ sessionId, resumed: false });
  return session;
}

