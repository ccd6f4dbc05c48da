// The grpc-js adapter end to end over real Unix sockets: typed clients against addService'd
// handlers (unary, server-streaming, bidi), cancellation and deadlines reaching the handler's
// signal, statuses, malformed request bytes, and listen addresses with stale socket files.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { lstat, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { Channel, Client, Metadata, Server, connectivityState, credentials, status } from "@grpc/grpc-js";
import type { ServiceError } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { HookdError } from "../src/index.js";
import {
  StatusError,
  addService,
  bindServer,
  closeClient,
  createClient,
  invalidArgument,
  parseAddress,
  pb,
} from "../src/internal.js";
import type { ServerCallInfo, ServiceImpl } from "../src/internal.js";

const { HookAdmin, HookHost } = pb;

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function rejectionOf(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected the promise to reject");
}

/** The wall-clock time tests that fake Date hold it at. */
const NOW = Date.UTC(2026, 0, 1);

let dir: string;
let servers: Server[];
let cleanups: (() => void)[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-grpc-"));
  servers = [];
  cleanups = [];
});

afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups) cleanup();
  for (const server of servers) server.forceShutdown();
  await rm(dir, { recursive: true, force: true });
});

/** Serves on a fresh Unix socket in the test's directory and returns its address. */
async function serve(register: (server: Server) => void, address = `unix://${join(dir, "hookd.sock")}`): Promise<string> {
  const server = new Server();
  register(server);
  servers.push(server);
  await bindServer(server, address);
  return address;
}

function adminClient(target: string) {
  const client = createClient(HookAdmin, target);
  cleanups.push(() => closeClient(client));
  return client;
}

/** Resolves once the channel reaches `wanted`, following its state changes (no timer of ours). */
async function untilState(channel: Channel, wanted: connectivityState): Promise<void> {
  for (let state = channel.getConnectivityState(false); state !== wanted; state = channel.getConnectivityState(false)) {
    await new Promise<void>((resolve, reject) =>
      channel.watchConnectivityState(state, Infinity, (error) => (error === undefined ? resolve() : reject(error))),
    );
  }
}

function rawClient(target: string): Client {
  const client = new Client(target, credentials.createInsecure());
  cleanups.push(() => client.close());
  return client;
}

describe("unary", () => {
  test("round-trips a typed request and response, with the caller's metadata visible to the handler", async () => {
    const seen: ServerCallInfo[] = [];
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async getStatus(request, call) {
          seen.push(call);
          return { version: `agent=${String(call.metadata.get("x-agent-id")[0])}`, pid: 42, uptimeMs: 7n, listeners: [request.$typeName] };
        },
      }),
    );
    const response = await adminClient(address).getStatus({}, { metadata: { "x-agent-id": "agent-7" } });
    expect(response.$typeName).toBe("hookd.v1.GetStatusResponse");
    expect(response.version).toBe("agent=agent-7");
    expect(response.pid).toBe(42);
    expect(response.uptimeMs).toBe(7n);
    expect(response.listeners).toEqual(["hookd.v1.GetStatusRequest"]);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.deadline).toBeUndefined();
    expect(seen[0]?.signal.aborted).toBe(false);
    expect(seen[0]?.peer).toBe("unknown"); // what grpc-js reports for a Unix-socket client
  });

  test("passes the deadline to the handler", async () => {
    const deadlines: (Date | undefined)[] = [];
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async getStatus(_request, call) {
          deadlines.push(call.deadline);
          return {};
        },
      }),
    );
    // The wire carries a timeout, not a time; with the clock held still, the server's deadline is
    // exactly ours (the real one is ours less the call's transit).
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const deadline = new Date(NOW + 60_000);
    await adminClient(address).getStatus({}, { deadline });
    expect(deadlines).toEqual([deadline]);
  });

  test("an expired deadline gives the caller DEADLINE_EXCEEDED and aborts the handler's signal", async () => {
    const entered = deferred<Date | undefined>();
    const aborted = deferred<{ reason: unknown; deadline: Date | undefined }>();
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async getStatus(_request, call) {
          if (call.metadata.get("x-warm-up").length > 0) return {};
          entered.resolve(call.deadline);
          // Answers only when the signal aborts, like a handler waiting on a slow plugin.
          return new Promise((_resolve, reject) => {
            call.signal.addEventListener("abort", () => {
              aborted.resolve({ reason: call.signal.reason, deadline: call.deadline });
              reject(call.signal.reason as Error);
            });
          });
        },
      }),
    );
    const client = adminClient(address);
    // Connect first, so the deadline measures the call and not the channel's first connect.
    await client.getStatus({}, { metadata: { "x-warm-up": "1" } });
    // The clock (Date only: grpc-js's timers stay real) is held still, then moved to the deadline
    // once the handler runs, so the cancellation grpc-js's timers deliver is seen as the deadline.
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const call = rejectionOf(client.getStatus({}, { timeoutMs: 500 }));
    expect(await entered.promise).toEqual(new Date(NOW + 500));
    vi.setSystemTime(NOW + 500);
    const error = await call;
    expect(error.code).toBe(status.DEADLINE_EXCEEDED);
    expect(error.codeName).toBe("DEADLINE_EXCEEDED");
    expect(await aborted.promise).toMatchObject({ reason: { name: "TimeoutError" }, deadline: new Date(NOW + 500) });
  });

  test("aborting the caller's signal cancels the call and the handler sees an AbortError", async () => {
    const entered = deferred<void>();
    const aborted = deferred<unknown>();
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async getStatus(_request, call) {
          call.signal.addEventListener("abort", () => aborted.resolve(call.signal.reason));
          entered.resolve();
          return new Promise(() => {});
        },
      }),
    );
    const controller = new AbortController();
    const pending = adminClient(address).getStatus({}, { signal: controller.signal });
    await entered.promise;
    const reason = new Error("the turn was cancelled");
    controller.abort(reason);
    const error = await rejectionOf(pending);
    expect(error.code).toBe(status.CANCELLED);
    expect(error.cause).toBe(reason);
    expect(await aborted.promise).toMatchObject({ name: "AbortError" });
  });

  test("a signal aborted before the call rejects CANCELLED without reaching the server", async () => {
    let calls = 0;
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async getStatus() {
          calls += 1;
          return {};
        },
      }),
    );
    const error = await rejectionOf(adminClient(address).getStatus({}, { signal: AbortSignal.abort() }));
    expect(error.code).toBe(status.CANCELLED);
    expect(calls).toBe(0);
  });

  test.each([
    {
      thrown: new HookdError("invalid_argument", "event.call.arguments_json: not valid JSON"),
      code: status.INVALID_ARGUMENT,
      details: "event.call.arguments_json: not valid JSON",
    },
    {
      thrown: invalidArgument("event.call.arguments_json", "not valid JSON"),
      code: status.INVALID_ARGUMENT,
      details: "event.call.arguments_json: not valid JSON",
    },
    { thrown: new HookdError("unavailable", "plugin audit is not running"), code: status.UNAVAILABLE, details: "plugin audit is not running" },
    { thrown: new HookdError("deadline_exceeded", "plugin slow took too long"), code: status.DEADLINE_EXCEEDED, details: "plugin slow took too long" },
    { thrown: new HookdError("internal", "merge: no decision"), code: status.INTERNAL, details: "merge: no decision" },
    { thrown: new StatusError(status.PERMISSION_DENIED, "session s-2 belongs to another agent"), code: status.PERMISSION_DENIED, details: "session s-2 belongs to another agent" },
    { thrown: new StatusError(status.FAILED_PRECONDITION, "the first frame must be open"), code: status.FAILED_PRECONDITION, details: "the first frame must be open" },
    { thrown: new StatusError(status.NOT_FOUND, "no plugin named lint"), code: status.NOT_FOUND, details: "no plugin named lint" },
    { thrown: new StatusError(status.RESOURCE_EXHAUSTED, "too many sessions"), code: status.RESOURCE_EXHAUSTED, details: "too many sessions" },
    { thrown: new TypeError("cannot read properties of undefined"), code: status.INTERNAL, details: "cannot read properties of undefined" },
  ])("a handler throwing $thrown.name($details) answers $code", async ({ thrown, code, details }) => {
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async reload() {
          throw thrown;
        },
      }),
    );
    const error = await rejectionOf(adminClient(address).reload({}));
    expect(error.code).toBe(code);
    expect(error.details).toBe(details);
  });

  test("malformed request bytes get INVALID_ARGUMENT naming the message type, and the server keeps serving", async () => {
    let calls = 0;
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async getStatus() {
          calls += 1;
          return { version: "still here" };
        },
      }),
    );
    const identity = (bytes: Buffer): Buffer => bytes;
    // Field 1, length-delimited, whose length varint never ends.
    const garbage = Buffer.from([0x0a, 0xff]);
    const error = await new Promise<ServiceError>((resolve, reject) => {
      rawClient(address).makeUnaryRequest("/hookd.v1.HookAdmin/GetStatus", identity, identity, garbage, (failure, value) => {
        if (failure) resolve(failure);
        else reject(new Error(`expected a failure, got ${value?.toString("hex")}`));
      });
    });
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.details).toBe("hookd.v1.GetStatusRequest: premature EOF");
    expect(calls).toBe(0);
    expect((await adminClient(address).getStatus({})).version).toBe("still here");
    expect(calls).toBe(1);
  });

  test("a response the handler cannot encode fails INTERNAL with protobuf-es's reason", async () => {
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async getStatus() {
          return { pid: -1 }; // uint32
        },
      }),
    );
    const error = await rejectionOf(adminClient(address).getStatus({}));
    expect(error.code).toBe(status.INTERNAL);
    expect(error.details).toBe("cannot encode field hookd.v1.GetStatusResponse.pid to binary: invalid uint32: -1");
  });

  /** A server whose GetStatus is a raw server-streaming handler: it may send any bytes, any number of times. */
  async function rawGetStatus(messages: readonly Buffer[]): Promise<string> {
    return serve((server) => {
      const identity = (bytes: Buffer): Buffer => bytes;
      server.register(
        "/hookd.v1.HookAdmin/GetStatus",
        (call: { write(message: Buffer): boolean; end(): void }) => {
          for (const message of messages) call.write(message);
          call.end();
        },
        identity,
        identity,
        "serverStream",
      );
    });
  }

  test.each([
    { name: "two responses", messages: [Buffer.alloc(0), Buffer.alloc(0)], code: status.UNIMPLEMENTED, details: /more than one response to a unary call/ },
    { name: "no response", messages: [], code: status.UNIMPLEMENTED, details: /No message received/ },
    // Field 1, length-delimited, whose length varint never ends.
    { name: "an undecodable response", messages: [Buffer.from([0x0a, 0xff])], code: status.INTERNAL, details: /Response message parsing error: .*premature EOF/ },
  ])("$name to a unary call is an error with grpc-js's status", async ({ messages, code, details }) => {
    const error = await rejectionOf(adminClient(await rawGetStatus(messages)).getStatus({}, { timeoutMs: 5_000 }));
    expect(error.code).toBe(code);
    expect(error.details).toMatch(details);
  });

  test("waitForReady waits for a server that is not listening yet; without it the call fails fast", async () => {
    const address = `unix://${join(dir, "later.sock")}`;
    const failedFast = await rejectionOf(adminClient(address).getStatus({}, { timeoutMs: 5_000 }));
    expect(failedFast.code).toBe(status.UNAVAILABLE);
    const channel = new Channel(address, credentials.createInsecure(), {});
    cleanups.push(() => channel.close());
    const waiting = createClient(HookAdmin, channel).getStatus({}, { timeoutMs: 10_000, waitForReady: true });
    // Start the server only once the channel has tried to connect and failed, so the call is
    // one that waited, not one that raced the bind.
    await untilState(channel, connectivityState.TRANSIENT_FAILURE);
    await serve(
      (server) =>
        addService(server, HookAdmin, {
          async getStatus() {
            return { version: "up now" };
          },
        }),
      address,
    );
    expect((await waiting).version).toBe("up now");
  });

  test("methods left out answer UNIMPLEMENTED; unknown method names are refused at registration", async () => {
    const address = await serve((server) => addService(server, HookAdmin, {}));
    expect((await rejectionOf(adminClient(address).listPlugins({}))).code).toBe(status.UNIMPLEMENTED);
    const impl = { getstatus: async () => ({}) } as Partial<ServiceImpl<typeof HookAdmin>>;
    expect(() => addService(new Server(), HookAdmin, impl)).toThrow(/hookd\.v1\.HookAdmin has no method "getstatus"/);
  });
});

describe("server streaming", () => {
  test("delivers the messages in order, then ends", async () => {
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async tailAudit(request, call) {
          for (let turn = 1; turn <= 5; turn += 1) await call.send({ record: { sessionId: request.sessionId, turn } });
        },
      }),
    );
    const records = [];
    for await (const response of adminClient(address).tailAudit({ sessionId: "s-1" })) records.push(response.record);
    expect(records.map((record) => record?.turn)).toEqual([1, 2, 3, 4, 5]);
    expect(records.every((record) => record?.sessionId === "s-1")).toBe(true);
  });

  /** A handler that streams until its signal aborts, reporting the reason and how send() failed. */
  function endlessTail() {
    const aborted = deferred<unknown>();
    const sendFailed = deferred<unknown>();
    const impl: Partial<ServiceImpl<typeof HookAdmin>> = {
      async tailAudit(_request, call) {
        call.signal.addEventListener("abort", () => aborted.resolve(call.signal.reason));
        try {
          for (let turn = 1; ; turn += 1) await call.send({ record: { turn } });
        } catch (error) {
          sendFailed.resolve(error);
          throw error;
        }
      },
    };
    return { impl, aborted: aborted.promise, sendFailed: sendFailed.promise };
  }

  test("breaking out of the loop cancels the call, and the handler's signal aborts", async () => {
    const tail = endlessTail();
    const address = await serve((server) => addService(server, HookAdmin, tail.impl));
    const turns: (number | undefined)[] = [];
    for await (const response of adminClient(address).tailAudit({})) {
      turns.push(response.record?.turn);
      if (turns.length === 3) break;
    }
    expect(turns).toEqual([1, 2, 3]);
    const reason = await tail.aborted;
    expect(reason).toMatchObject({ name: "AbortError" });
    expect(await tail.sendFailed).toBe(reason);
  });

  test("aborting the signal cancels the call: the loop throws CANCELLED with the reason as cause", async () => {
    const tail = endlessTail();
    const address = await serve((server) => addService(server, HookAdmin, tail.impl));
    const controller = new AbortController();
    const reason = new Error("operator pressed ctrl-c");
    const turns: (number | undefined)[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const response of adminClient(address).tailAudit({}, { signal: controller.signal })) {
          turns.push(response.record?.turn);
          if (turns.length === 2) controller.abort(reason);
        }
      })(),
    );
    expect(error.code).toBe(status.CANCELLED);
    expect(error.cause).toBe(reason);
    expect(turns.slice(0, 2)).toEqual([1, 2]);
    expect(await tail.aborted).toMatchObject({ name: "AbortError" });
  });

  test("a handler that fails after sending delivers what it sent, then its status", async () => {
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async tailAudit(_request, call) {
          await call.send({ record: { turn: 1 } });
          await call.send({ record: { turn: 2 } });
          throw new StatusError(status.RESOURCE_EXHAUSTED, "audit subscriber fell behind");
        },
      }),
    );
    const turns: (number | undefined)[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const response of adminClient(address).tailAudit({})) turns.push(response.record?.turn);
      })(),
    );
    expect(turns).toEqual([1, 2]);
    expect(error.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(error.details).toBe("audit subscriber fell behind");
  });
});

describe("bidi streaming", () => {
  const echo: Partial<ServiceImpl<typeof HookHost>> = {
    async session(requests, call) {
      let turn = 0;
      for await (const request of requests) {
        switch (request.frame.case) {
          case "open":
            await call.send({ frame: { case: "opened", value: { sessionId: request.frame.value.sessionId } } });
            break;
          case "prompt":
            turn += 1;
            await call.send({ frame: { case: "turnStarted", value: { turn } } });
            break;
          default:
            throw new StatusError(status.FAILED_PRECONDITION, `unexpected frame ${String(request.frame.case)}`);
        }
      }
    },
  };

  function hostClient(address: string) {
    const client = createClient(HookHost, address);
    cleanups.push(() => closeClient(client));
    return client;
  }

  test("exchanges frames in order, one answer per request, and ends when the client half-closes", async () => {
    const address = await serve((server) => addService(server, HookHost, echo));
    const session = hostClient(address).session();
    const responses = session.responses[Symbol.asyncIterator]();
    await session.send({ frame: { case: "open", value: { sessionId: "s-1" } } });
    expect((await responses.next()).value).toMatchObject({ frame: { case: "opened", value: { sessionId: "s-1" } } });
    for (const turn of [1, 2, 3]) {
      await session.send({ frame: { case: "prompt", value: { content: [{ block: { case: "text", value: `prompt ${turn}` } }] } } });
      expect((await responses.next()).value).toMatchObject({ frame: { case: "turnStarted", value: { turn } } });
    }
    session.end();
    expect((await responses.next()).done).toBe(true);
    await expect(session.send({ frame: { case: "cancel", value: {} } })).rejects.toMatchObject({ code: status.FAILED_PRECONDITION });
  });

  test("the server ending the stream with a status reaches responses, and later sends reject with it", async () => {
    const address = await serve((server) => addService(server, HookHost, echo));
    const session = hostClient(address).session();
    await session.send({ frame: { case: "close", value: {} } });
    const error = await rejectionOf(
      (async () => {
        for await (const _response of session.responses) throw new Error("expected no response");
      })(),
    );
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.details).toBe("unexpected frame close");
    await expect(session.send({ frame: { case: "open", value: {} } })).rejects.toMatchObject({ code: status.FAILED_PRECONDITION });
  });

  test("a malformed frame mid-stream ends the call with INVALID_ARGUMENT naming the message type", async () => {
    const address = await serve((server) => addService(server, HookHost, echo));
    const identity = (bytes: Buffer): Buffer => bytes;
    const stream = rawClient(address).makeBidiStreamRequest<Buffer, Buffer>("/hookd.v1.HookHost/Session", identity, identity);
    const failed = new Promise<ServiceError>((resolve) => stream.on("error", resolve));
    stream.on("data", () => {});
    stream.write(Buffer.from([0x0a, 0x05, 0x0a])); // `open`, 5 bytes long, with only 1 byte present
    const error = await failed;
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.details).toBe("hookd.v1.SessionRequest: premature EOF");
  });

  test("cancel() on the client aborts the handler's signal", async () => {
    const aborted = deferred<unknown>();
    const opened = deferred<void>();
    const address = await serve((server) =>
      addService(server, HookHost, {
        async session(requests, call) {
          call.signal.addEventListener("abort", () => aborted.resolve(call.signal.reason));
          for await (const _request of requests) opened.resolve();
          // The client's cancel may first read as the end of input (see BidiStreamingHandler);
          // like the daemon's session loop, this handler outlives its input until told otherwise.
          await aborted.promise;
        },
      }),
    );
    const session = hostClient(address).session();
    await session.send({ frame: { case: "open", value: { sessionId: "s-1" } } });
    await opened.promise;
    session.cancel();
    expect(await aborted.promise).toMatchObject({ name: "AbortError" });
    expect((await rejectionOf((async () => { for await (const _r of session.responses); })())).code).toBe(status.CANCELLED);
  });
});

describe("bidi streaming, requests listened to", () => {
  function hostClient(address: string) {
    const client = createClient(HookHost, address);
    cleanups.push(() => closeClient(client));
    return client;
  }
  const prompt = (text: string) => ({ frame: { case: "prompt" as const, value: { content: [{ block: { case: "text" as const, value: text } }] } } });
  const textOf = (request: pb.SessionRequest): string => (request.frame.case === "prompt" && request.frame.value.content[0]?.block.case === "text" ? request.frame.value.content[0].block.value : "");

  test("each request reaches the listener in order; listen resolves when the client half-closes; the requests read once", async () => {
    const seen: string[] = [];
    let secondRead: unknown;
    const address = await serve((server) =>
      addService(server, HookHost, {
        async session(requests, call) {
          await requests.listen((request) => {
            seen.push(textOf(request));
            void call.send({ frame: { case: "turnStarted", value: { turn: seen.length } } });
          });
          try {
            requests[Symbol.asyncIterator]();
          } catch (error) {
            secondRead = error;
          }
          await call.send({ frame: { case: "heartbeat", value: {} } });
        },
      }),
    );
    const session = hostClient(address).session();
    for (const text of ["a", "b", "c"]) await session.send(prompt(text));
    session.end();
    const answers: string[] = [];
    for await (const response of session.responses) answers.push(response.frame.case === "turnStarted" ? `turn ${response.frame.value.turn}` : String(response.frame.case));
    expect(seen).toEqual(["a", "b", "c"]);
    expect(answers).toEqual(["turn 1", "turn 2", "turn 3", "heartbeat"]);
    expect(secondRead).toBeInstanceOf(HookdError);
    expect((secondRead as Error).message).toBe("a call's requests are read once: they were listened already");
  });

  test("a listener that throws ends the call with its status, and nothing more is handed to it", async () => {
    const seen: string[] = [];
    const address = await serve((server) =>
      addService(server, HookHost, {
        async session(requests) {
          await requests.listen((request) => {
            seen.push(textOf(request));
            if (textOf(request) === "bad") throw new StatusError(status.FAILED_PRECONDITION, "no bad prompts");
          });
        },
      }),
    );
    const session = hostClient(address).session();
    for (const text of ["ok", "bad", "after"]) await session.send(prompt(text)).catch(() => {});
    const error = await rejectionOf((async () => { for await (const _r of session.responses); })());
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.details).toBe("no bad prompts");
    expect(seen).toEqual(["ok", "bad"]);
  });

  test("a malformed frame: handed to onInvalidRequest and skipped when it is set, else the call ends with INVALID_ARGUMENT", async () => {
    const invalid: string[] = [];
    const seen: string[] = [];
    const address = await serve((server) =>
      addService(server, HookHost, {
        async session(requests, call) {
          if (call.metadata.get("x-skip-invalid")[0] === "1") call.onInvalidRequest = (error) => invalid.push(error.details);
          await requests.listen((request) => {
            seen.push(textOf(request));
            void call.send({ frame: { case: "turnStarted", value: { turn: seen.length } } });
          });
        },
      }),
    );
    const identity = (bytes: Buffer): Buffer => bytes;
    const good = Buffer.from(toBinary(pb.SessionRequestSchema, create(pb.SessionRequestSchema, prompt("fine"))));
    const open = (skip: boolean) => {
      const metadata = new Metadata();
      if (skip) metadata.set("x-skip-invalid", "1");
      return rawClient(address).makeBidiStreamRequest<Buffer, Buffer>("/hookd.v1.HookHost/Session", identity, identity, metadata);
    };
    const skipping = open(true);
    skipping.on("error", () => {}); // its cancel below
    const answered = new Promise<void>((resolve) => skipping.on("data", () => resolve()));
    skipping.write(Buffer.from([0x0a, 0x05, 0x0a]));
    skipping.write(good);
    await answered;
    expect(invalid).toEqual(["hookd.v1.SessionRequest: premature EOF"]);
    expect(seen).toEqual(["fine"]);
    skipping.cancel();

    const strict = open(false);
    const failed = new Promise<ServiceError>((resolve) => strict.on("error", resolve));
    strict.on("data", () => {});
    strict.write(Buffer.from([0x0a, 0x05, 0x0a]));
    const error = await failed;
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.details).toBe("hookd.v1.SessionRequest: premature EOF");
  });

  test("pause holds the requests back until resume", async () => {
    const seen: string[] = [];
    const paused = deferred<() => void>();
    let listening: Promise<void> | undefined;
    const address = await serve((server) =>
      addService(server, HookHost, {
        async session(requests, call) {
          listening = requests.listen((request) => {
            seen.push(textOf(request));
            void call.send({ frame: { case: "turnStarted", value: { turn: seen.length } } });
            if (seen.length === 1) {
              requests.pause();
              paused.resolve(() => requests.resume());
            }
          });
          await listening;
        },
        evaluatePreTool: async () => ({ trace: { decidedBy: seen.join(",") } }),
      }),
    );
    const client = hostClient(address);
    const session = client.session();
    const responses = session.responses[Symbol.asyncIterator]();
    for (const text of ["one", "two", "three"]) await session.send(prompt(text));
    const resume = await paused.promise;
    await responses.next();
    // A unary call on the same connection arrives after the stream's later frames (HTTP/2 keeps
    // a connection's frames in order): by its answer they have reached the paused stream.
    expect((await client.evaluatePreTool({})).trace?.decidedBy).toBe("one");
    resume();
    await responses.next();
    await responses.next();
    expect(seen).toEqual(["one", "two", "three"]);
    session.end();
    expect((await responses.next()).done).toBe(true);
    await expect(listening).resolves.toBeUndefined();
  });
});

describe("channels", () => {
  test("closing a client on a borrowed channel leaves the channel to its owner", async () => {
    const address = await serve((server) =>
      addService(server, HookAdmin, {
        async getStatus() {
          return { pid: 1 };
        },
      }),
    );
    const channel = new Channel(address, credentials.createInsecure(), {});
    cleanups.push(() => channel.close());
    const first = createClient(HookAdmin, channel);
    const second = createClient(HookAdmin, channel);
    expect((await first.getStatus({})).pid).toBe(1);
    closeClient(first);
    expect((await second.getStatus({})).pid).toBe(1);
  });
});

describe("listen addresses", () => {
  test.each([
    ["unix:///run/hookd/hookd.sock", { kind: "unix", path: "/run/hookd/hookd.sock" }],
    ["unix:/run/hookd/hookd.sock", { kind: "unix", path: "/run/hookd/hookd.sock" }],
    ["127.0.0.1:50051", { kind: "tcp", host: "127.0.0.1", port: 50051 }],
    ["localhost:0", { kind: "tcp", host: "localhost", port: 0 }],
    ["[::1]:7000", { kind: "tcp", host: "[::1]", port: 7000 }],
  ])("parses %s", (address, expected) => {
    expect(parseAddress(address)).toEqual(expected);
  });

  test.each(["unix:relative.sock", "unix://host/path", "unix-abstract:hookd", "localhost", ":50051", "host:99999", "::1:50051"])(
    "refuses %s",
    (address) => {
      expect(() => parseAddress(address)).toThrow(HookdError);
    },
  );

  test("binds over a stale socket file that a killed process left behind", async () => {
    const path = join(dir, "stale.sock");
    const child = spawn(process.execPath, [
      "-e",
      `require("node:net").createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, "SIGKILL"))`,
    ]);
    const [, signal] = (await once(child, "exit")) as [number | null, NodeJS.Signals | null];
    expect(signal).toBe("SIGKILL");
    expect((await lstat(path)).isSocket()).toBe(true);
    const address = await serve(
      (server) =>
        addService(server, HookAdmin, {
          async getStatus() {
            return { version: "fresh" };
          },
        }),
      `unix:${path}`,
    );
    expect((await adminClient(address).getStatus({})).version).toBe("fresh");
  });

  test("refuses a socket something answers on, and a path that is not a socket", async () => {
    const address = await serve(() => {});
    await expect(bindServer(new Server(), address)).rejects.toThrow(/another process is listening/);
    const file = join(dir, "not-a-socket");
    await writeFile(file, "keep me");
    await expect(bindServer(new Server(), `unix://${file}`)).rejects.toThrow(/not a socket/);
    expect((await lstat(file)).isFile()).toBe(true);
  });

  test("a TCP address resolves with the bound port", async () => {
    const server = new Server();
    servers.push(server);
    const port = await bindServer(server, "127.0.0.1:0");
    expect(port).toBeGreaterThan(0);
  });
});
