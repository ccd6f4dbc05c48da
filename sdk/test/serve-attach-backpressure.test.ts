// servePlugin's HookPlugin service on a real grpc-js server over a Unix socket, when the daemon
// stops reading Attach: answers finishing together wait behind one "drain" listener (no
// MaxListenersExceededWarning), then each arrives once, in the order written.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Duplex } from "node:stream";
import { create } from "@bufbuild/protobuf";
import { Server, ServerCredentials } from "@grpc/grpc-js";
import type { ServiceDefinition, UntypedServiceImplementation } from "@grpc/grpc-js";
import { afterEach, beforeEach, expect, test } from "vitest";
import { definePlugin, deny } from "../src/index.js";
import { addService, bindServer, closeClient, createClient, pb } from "../src/internal.js";
import type { TypedClient } from "../src/internal.js";
import { pluginService } from "../src/serve/handlers.js";

/** More answers than a stream buffers, each large enough that a few fill the HTTP/2 window. */
const CALLS = 64;
const REASON = "r".repeat(32 * 1024);

/** A grpc-js server that keeps every call object it serves, so the test can watch its listeners. */
class RecordingServer extends Server {
  readonly calls: Duplex[] = [];

  override addService(service: ServiceDefinition, implementation: UntypedServiceImplementation): void {
    const recorded: UntypedServiceImplementation = {};
    for (const [name, handler] of Object.entries(implementation)) {
      const serve = handler as unknown as (call: unknown, ...rest: unknown[]) => void;
      recorded[name] = (call: unknown, ...rest: unknown[]) => {
        if (call instanceof Duplex) this.calls.push(call); // a bidi call: Attach
        serve(call, ...rest);
      };
    }
    super.addService(service, recorded);
  }
}

const gates = new Map<number, () => void>();
const plugin = definePlugin({
  name: "flooded",
  points: {
    "pre-tool": async (event) => {
      const id = Number((event.call.arguments as { id: number }).id);
      await new Promise<void>((resolve) => gates.set(id, resolve));
      return deny(`${id} ${REASON}`);
    },
  },
});

let dir: string;
let server: RecordingServer;
let client: TypedClient<typeof pb.HookPlugin>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-sdk-attach-flood-"));
  server = new RecordingServer();
  addService(server, pb.HookPlugin, pluginService(plugin, () => {}));
  const address = `unix://${join(dir, "p.sock")}`;
  await bindServer(server, address, ServerCredentials.createInsecure());
  client = createClient(pb.HookPlugin, address);
  gates.clear();
});

afterEach(async () => {
  closeClient(client);
  server.forceShutdown();
  await rm(dir, { recursive: true, force: true });
});

function callFrame(id: number) {
  const call = { callId: "c", rootCallId: "c", toolName: "Bash", argumentsJson: JSON.stringify({ id }), sessionId: "s", turn: 1, step: 1 };
  const request = create(pb.PreToolRequestSchema, { event: { session: { sessionId: "s", agentId: "a", cwd: "/" }, call } });
  return { frame: { case: "call" as const, value: { callId: BigInt(id), deadlineMs: 0, request: { case: "preTool" as const, value: request }, traceparent: "" } } };
}

test("answers finishing together on a stream the daemon stopped reading wait on one drain listener and all arrive once, in order", async () => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => void warnings.push(warning);
  process.on("warning", onWarning);
  try {
    const stream = client.attach();
    await stream.send({ frame: { case: "open", value: { daemonVersion: "test", pluginName: "flooded", window: CALLS } } });
    for (let id = 1; id <= CALLS; id++) await stream.send(callFrame(id));
    await expect.poll(() => gates.size).toBe(CALLS);

    const [call] = server.calls;
    if (call === undefined) throw new Error("the Attach call was not served");
    let mostDrainListeners = 0;
    call.on("newListener", (event: string | symbol) => {
      if (event === "drain") mostDrainListeners = Math.max(mostDrainListeners, call.listenerCount("drain") + 1);
    });

    // The answers are written in this order, last call first. The daemon reads the first, then
    // stops reading (grpc-js's client holds back the HTTP/2 stream only once it has been read from).
    const written = [...gates.keys()].reverse();
    const [first, ...rest] = written;
    gates.get(first ?? 0)?.();
    const answers = stream.responses[Symbol.asyncIterator]();
    const arrived: pb.AttachResponse[] = [];
    const firstAnswer = await answers.next();
    if (firstAnswer.done === true) throw new Error("the stream ended");
    arrived.push(firstAnswer.value);
    for (const id of rest) gates.get(id)?.();
    // The stream's own buffer fills: the later answers wait for it to drain.
    await expect.poll(() => call.writableNeedDrain).toBe(true);
    await new Promise((resolve) => setImmediate(resolve)); // a warning is delivered on the next tick

    while (arrived.length < CALLS) {
      const answer = await answers.next();
      if (answer.done === true) throw new Error("the stream ended");
      arrived.push(answer.value);
    }
    for (const answer of arrived) {
      const reason = answer.reply.case === "preTool" && answer.reply.value.decision?.decision.case === "deny" ? answer.reply.value.decision.decision.value.reason : "";
      expect(reason).toBe(`${answer.callId} ${REASON}`);
    }
    expect(arrived.map((answer) => Number(answer.callId))).toEqual(written);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning").map((warning) => warning.message)).toEqual([]);
    // One wait at a time, and there was one: the later answers did wait for the stream.
    expect(mostDrainListeners).toBe(1);
    expect(call.listenerCount("drain")).toBe(0);
    // Half-closed, the plugin ends the stream: no answer came twice.
    stream.end();
    expect((await answers.next()).done).toBe(true);
  } finally {
    process.off("warning", onWarning);
  }
});
