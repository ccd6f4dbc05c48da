// The Evaluate stream's backpressure (host/evaluate-stream.ts) over a real EvaluateService: while
// 64 answers are not yet handed to the stream (a client that sends without reading), the daemon
// stops taking frames, and takes them again once the answers are on their way; every request is
// answered once, in the order its evaluation finished. The stream end to end is
// test/host/evaluate-stream.test.ts.
import { Metadata } from "@grpc/grpc-js";
import { allow, definePlugin } from "@hookd/sdk";
import { LazyAbort, pb } from "@hookd/sdk/internal";
import type { Requests, ServerStreamCall } from "@hookd/sdk/internal";
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { PluginRegistry } from "../src/engine/registry.js";
import type { EvaluateService } from "../src/host/evaluate.js";
import { serveEvaluate } from "../src/host/evaluate-stream.js";
import { StreamTracker } from "../src/host/stream-tracker.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import { evaluateServiceOver } from "./support/evaluate-service.js";
import { deferred, settle } from "./support/pipeline-harness.js";

function evaluateService(): EvaluateService {
  const registry = new PluginRegistry(inProcessListeners(definePlugin({ name: "gate", points: { "pre-tool": () => allow() } }), {}));
  return evaluateServiceOver(registry, { maxInflightPerAgent: 1_000, maxInflight: 1_000 }).evaluate;
}

function frame(id: number): pb.EvaluateRequest {
  const callId = `c${id}`;
  return create(pb.EvaluateRequestSchema, {
    requestId: BigInt(id),
    request: {
      case: "preTool",
      value: { event: { session: { sessionId: "s1", agentId: "rita", cwd: "/" }, call: { callId, rootCallId: callId, toolName: "Bash", argumentsJson: '{"command":"ls"}', sessionId: "s1", turn: 1, step: 1 } } },
    },
  });
}

/** Requests handed over by the test, honouring pause and resume as the adapter's do. */
class ScriptedRequests implements Requests<pb.EvaluateRequest> {
  /** When reading paused and resumed, by how many frames had been taken then. */
  readonly log: string[] = [];
  /** Frames handed to the listener. */
  taken = 0;
  #listener: ((request: pb.EvaluateRequest) => void) | undefined;
  #end: (() => void) | undefined;
  #paused = false;
  readonly #held: pb.EvaluateRequest[] = [];

  [Symbol.asyncIterator](): AsyncIterator<pb.EvaluateRequest> {
    throw new Error("the Evaluate stream listens to its requests");
  }

  listen(onRequest: (request: pb.EvaluateRequest) => void): Promise<void> {
    this.#listener = onRequest;
    return new Promise((resolve) => (this.#end = resolve));
  }

  /** A frame arrives: taken at once, or held while paused. */
  arrive(request: pb.EvaluateRequest): void {
    if (this.#paused) this.#held.push(request);
    else this.#take(request);
  }

  pause(): void {
    if (!this.#paused) this.log.push(`pause after ${this.taken}`);
    this.#paused = true;
  }

  resume(): void {
    if (this.#paused) this.log.push(`resume after ${this.taken}`);
    this.#paused = false;
    while (!this.#paused && this.#held.length > 0) this.#take(this.#held.shift() as pb.EvaluateRequest);
  }

  /** Also the client's half-close: listen resolves. */
  stop(): void {
    this.#end?.();
  }

  #take(request: pb.EvaluateRequest): void {
    this.taken++;
    this.#listener?.(request);
  }
}

describe("an Evaluate stream whose client does not read", () => {
  it("stops taking frames at 64 answers not handed over, takes them again once those are sent, and answers each request once", async () => {
    const requests = new ScriptedRequests();
    const sent: bigint[] = [];
    const stuck = deferred();
    const cancellation = new LazyAbort();
    const call: ServerStreamCall<typeof pb.HookHost.method.evaluate> = {
      metadata: new Metadata(),
      cancellation,
      signal: cancellation.signal,
      peer: "test",
      deadline: undefined,
      // The stream's buffer is full until the test lets it drain: each send resolves only then.
      send: async (message) => {
        await stuck.promise;
        sent.push(message.requestId ?? -1n);
      },
    };
    const served = serveEvaluate({ evaluate: evaluateService(), streams: new StreamTracker() }, requests, call);
    for (let id = 1; id <= 100; id++) {
      requests.arrive(frame(id));
      await settle(); // each evaluation answers before the next frame arrives
    }
    // Frame 65 found 64 answers waiting for the stream: reading paused there, the 35 after it wait.
    expect(requests.log).toEqual(["pause after 65"]);
    expect(requests.taken).toBe(65);
    expect(sent).toEqual([]);
    stuck.resolve();
    await settle();
    expect(requests.log).toEqual(["pause after 65", "resume after 65"]);
    expect(requests.taken).toBe(100);
    requests.stop();
    await served;
    expect(sent).toHaveLength(100);
    expect([...sent].sort((a, b) => Number(a - b))).toEqual(Array.from({ length: 100 }, (_, i) => BigInt(i + 1)));
  });
});
