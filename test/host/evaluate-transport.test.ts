// The agent client's evaluate transport, against real grpc-js servers on Unix sockets that stand
// in for hookd and count what reaches them: by default every evaluate call goes over one
// HookHost.Evaluate stream (the identity in its metadata, timeoutMs as deadline_ms, an abort as a
// cancel frame); a stream that breaks fails its calls in flight with UNAVAILABLE and the next
// call opens a new one; a server without the stream (UNIMPLEMENTED, as an older daemon answers)
// is called unary from then on, calls in flight included; evaluateTransport "unary" skips the stream.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { Server, status } from "@grpc/grpc-js";
import { EVALUATE_TABLE, HookdError, connectHost, snapshotJson } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall } from "@hookd/sdk";
import { StatusError, addService, bindServer, pb } from "@hookd/sdk/internal";
import type { ServiceImpl } from "@hookd/sdk/internal";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Mode = "stream" | "no-stream-method" | "stream-unimplemented";

interface Seen {
  streams: number;
  unary: number;
  readonly requests: pb.EvaluateRequest[];
  readonly cancels: bigint[];
  readonly agents: string[];
}

interface FakeHost {
  readonly target: string;
  readonly seen: Seen;
  close(): Promise<void>;
}

let dir: string;
const hosts: FakeHost[] = [];
const clients: HostClient[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-transport-"));
});

afterAll(async () => {
  for (const client of clients) client.close();
  for (const host of hosts) await host.close();
  await rm(dir, { recursive: true, force: true });
});

/** A pre-tool answer naming the transport that carried it, as the daemon's toResponse builds it. */
function answer(via: string): Record<string, unknown> {
  return EVALUATE_TABLE["pre-tool"].toResponse({ decision: { kind: "allow" }, trace: { decidedBy: via, durationUs: 1 } });
}

function commandOf(request: pb.EvaluatePreToolRequest): string {
  return String((JSON.parse(request.event?.call?.argumentsJson ?? "{}") as { command?: unknown }).command);
}

/**
 * A HookHost serving EvaluatePreTool unary and, in "stream" mode, the Evaluate stream: "hang"
 * is never answered (until cancelled), "break" ends the stream with INTERNAL, anything else is allowed.
 */
async function fakeHost(mode: Mode): Promise<FakeHost> {
  const seen: Seen = { streams: 0, unary: 0, requests: [], cancels: [], agents: [] };
  const server = new Server();
  const evaluate: ServiceImpl<typeof pb.HookHost>["evaluate"] = async (requests, call) => {
    seen.streams++;
    seen.agents.push(String(call.metadata.get("x-hookd-agent")[0] ?? ""));
    if (mode === "stream-unimplemented") throw new StatusError(status.UNIMPLEMENTED, "The server does not implement the method /hookd.v1.HookHost/Evaluate");
    for await (const frame of requests) {
      seen.requests.push(frame);
      const { request } = frame;
      if (request.case === "cancel") {
        seen.cancels.push(frame.requestId);
        await call.send({ requestId: frame.requestId, reply: { case: "error", value: { code: status.CANCELLED, message: "cancelled" } } });
      } else if (request.case === "preTool") {
        const command = commandOf(request.value);
        if (command === "break") throw new StatusError(status.INTERNAL, "the fake broke on purpose");
        if (command !== "hang") await call.send({ requestId: frame.requestId, reply: { case: "preTool", value: create(pb.EvaluatePreToolResponseSchema, answer("stream")) } });
      }
    }
  };
  const impl: Partial<ServiceImpl<typeof pb.HookHost>> = {
    evaluatePreTool: (_request, call) => {
      seen.unary++;
      seen.agents.push(String(call.metadata.get("x-hookd-agent")[0] ?? ""));
      return Promise.resolve(answer("unary"));
    },
    ...(mode === "no-stream-method" ? {} : { evaluate }),
  };
  addService(server, pb.HookHost, impl);
  const socket = join(dir, `${mode}-${hosts.length}.sock`);
  await bindServer(server, `unix://${socket}`);
  const host: FakeHost = {
    target: `unix://${socket}`,
    seen,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())).then(() => server.forceShutdown()),
  };
  hosts.push(host);
  return host;
}

function client(target: string, options: Parameters<typeof connectHost>[1] = {}): HostClient {
  const made = connectHost(target, { agentId: "ann", ...options });
  clients.push(made);
  return made;
}

const session: SessionInfo = { sessionId: "t-1", agentId: "ann", cwd: "/" };
function preTool(callId: string, command: string): { session: SessionInfo; call: ToolCall } {
  const args = snapshotJson({ command });
  return { session, call: { callId, rootCallId: callId, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 } };
}

async function failure(promise: Promise<unknown>): Promise<StatusError> {
  const error = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(StatusError);
  return error as StatusError;
}

describe("the agent client's evaluate transport", () => {
  it("sends every evaluate call over one Evaluate stream by default, each under its own id, with the agent's identity", async () => {
    const host = await fakeHost("stream");
    const ann = client(host.target);
    const answers = await Promise.all([ann.evaluatePreTool(preTool("c1", "ls")), ann.evaluatePreTool(preTool("c2", "ls")), ann.evaluatePreTool(preTool("c3", "ls"))]);
    await expect(ann.evaluatePreTool(preTool("c4", "ls"))).resolves.toMatchObject({ decision: { kind: "allow" }, trace: { decidedBy: "stream" } });
    expect(answers.map((a) => a.trace.decidedBy)).toEqual(["stream", "stream", "stream"]);
    expect(host.seen).toMatchObject({ streams: 1, unary: 0, agents: ["ann"] });
    expect(new Set(host.seen.requests.map((r) => r.requestId)).size).toBe(4);
    expect(host.seen.requests.map((r) => r.deadlineMs)).toEqual([0, 0, 0, 0]);
  });

  it("maps timeoutMs to deadline_ms and an aborted signal to a cancel frame; the stream goes on", async () => {
    const host = await fakeHost("stream");
    const ann = client(host.target);
    const timedOut = await failure(ann.evaluatePreTool(preTool("d1", "hang"), { timeoutMs: 250 }));
    expect(timedOut.code).toBe(status.DEADLINE_EXCEEDED);
    const controller = new AbortController();
    const pending = ann.evaluatePreTool(preTool("d2", "hang"), { signal: controller.signal });
    controller.abort(new Error("the agent changed its mind"));
    const cancelled = await failure(pending);
    expect(cancelled.code).toBe(status.CANCELLED);
    expect(cancelled.cause).toMatchObject({ message: "the agent changed its mind" });
    await expect(ann.evaluatePreTool(preTool("d3", "ls"))).resolves.toMatchObject({ trace: { decidedBy: "stream" } });

    const [first, second] = host.seen.requests;
    expect(first?.deadlineMs).toBe(250);
    // The deadline is the daemon's to enforce as well: no cancel went for it; the abort sent one.
    expect(host.seen.cancels).toEqual([second?.requestId]);
    expect(host.seen.streams).toBe(1);
  });

  it("fails the calls in flight with UNAVAILABLE when the stream breaks, and the next call opens a new stream", async () => {
    const host = await fakeHost("stream");
    // Retries off: this is about the failure itself (a retried call would go out on the new stream).
    const ann = client(host.target, { evaluateRetry: false });
    const hanging = ann.evaluatePreTool(preTool("b1", "hang"));
    const breaking = ann.evaluatePreTool(preTool("b2", "break"));
    for (const error of [await failure(hanging), await failure(breaking)]) {
      expect(error.code).toBe(status.UNAVAILABLE);
      expect(error.details).toBe("the Evaluate stream broke: INTERNAL: the fake broke on purpose");
    }
    await expect(ann.evaluatePreTool(preTool("b3", "ls"))).resolves.toMatchObject({ trace: { decidedBy: "stream" } });
    expect(host.seen).toMatchObject({ streams: 2, unary: 0 });
  });

  it("falls back to unary against a server without the Evaluate method, calls in flight included", async () => {
    const host = await fakeHost("no-stream-method");
    const ann = client(host.target);
    const answers = await Promise.all([ann.evaluatePreTool(preTool("f1", "ls")), ann.evaluatePreTool(preTool("f2", "ls"))]);
    await expect(ann.evaluatePreTool(preTool("f3", "ls"))).resolves.toMatchObject({ trace: { decidedBy: "unary" } });
    expect(answers.map((a) => a.trace.decidedBy)).toEqual(["unary", "unary"]);
    expect(host.seen).toMatchObject({ streams: 0, unary: 3, agents: ["ann", "ann", "ann"] });
  });

  it("remembers the fallback: a stream answered UNIMPLEMENTED is tried once", async () => {
    const host = await fakeHost("stream-unimplemented");
    const ann = client(host.target);
    await Promise.all([ann.evaluatePreTool(preTool("r1", "ls")), ann.evaluatePreTool(preTool("r2", "ls"))]);
    await ann.evaluatePreTool(preTool("r3", "ls"));
    await ann.evaluatePreTool(preTool("r4", "ls"), { timeoutMs: 5000 });
    expect(host.seen).toMatchObject({ streams: 1, unary: 4 });
  });

  it('goes unary when told to (evaluateTransport "unary"), and refuses an unknown transport', async () => {
    const host = await fakeHost("stream");
    const ann = client(host.target, { evaluateTransport: "unary" });
    await expect(ann.evaluatePreTool(preTool("u1", "ls"))).resolves.toMatchObject({ trace: { decidedBy: "unary" } });
    await expect(ann.evaluatePreTool(preTool("u2", "ls"))).resolves.toMatchObject({ trace: { decidedBy: "unary" } });
    expect(host.seen).toMatchObject({ streams: 0, unary: 2 });
    expect(() => connectHost(host.target, { evaluateTransport: "udp" as "unary" })).toThrow(HookdError);
  });
});
