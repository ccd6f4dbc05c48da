// servePlugin seen from both ends, over real Unix sockets: Describe derived from a definition,
// handler failures (a throw, an invalid decision, next()) answered as error statuses that the
// daemon turns into faults, points the definition does not handle answering UNIMPLEMENTED, the
// health service through shutdown, and where it listens.
import { mkdtemp, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { status } from "@grpc/grpc-js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PLUGIN_SOCKET_ENV, abstain, allow, definePlugin, deny, pass, servePlugin } from "@hookd/sdk";
import type { PluginDefinition, PreToolDecision } from "@hookd/sdk";
import { StatusError, closeClient, createClient, pb, toProtoEvent } from "@hookd/sdk/internal";
import { callListener } from "../src/engine/invoke.js";
import type { ContextFactory } from "../src/engine/invoke.js";
import type { Listener } from "../src/engine/listener.js";
import { RemotePlugin } from "../src/plugins/index.js";
import { deferred, preToolEvent } from "./fixtures/listeners.js";

let dir: string;
let cleanups: (() => Promise<void> | void)[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-serve-"));
  cleanups = [];
});

afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

const ctxFor: ContextFactory<"pre-tool"> = (abort) => ({ signal: abort.signal, plugin: "p", next: () => Promise.reject(new Error("no inner plugins")) });
const open = () => ({ signal: new AbortController().signal });

async function serve(definition: PluginDefinition, errors: string[] = []) {
  const server = await servePlugin(definition, { socketPath: join(dir, "p.sock"), onError: (error, point) => errors.push(`${point}: ${error.message}`) });
  cleanups.push(() => server.close());
  return server;
}

async function remotePreTool(address: string): Promise<Listener<"pre-tool">> {
  const remote = new RemotePlugin({ name: "p", target: address });
  cleanups.push(() => remote.close());
  await remote.start();
  const found = remote.listeners().find((listener) => listener.point === "pre-tool");
  if (found === undefined) throw new Error("no pre-tool listener");
  return found as Listener<"pre-tool">;
}

function clients(address: string) {
  const plugin = createClient(pb.HookPlugin, address);
  const health = createClient(pb.health.Health, address);
  cleanups.push(() => {
    closeClient(plugin);
    closeClient(health);
  });
  return { plugin, health };
}

async function statusOf(promise: Promise<unknown>): Promise<StatusError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof StatusError) return error;
    throw error;
  }
  throw new Error("expected a StatusError");
}

describe("servePlugin", () => {
  it("describes the definition's subscriptions and leaves the other points UNIMPLEMENTED", async () => {
    const server = await serve(
      definePlugin({
        name: "described",
        version: "1.2.3",
        sideEffectFree: true,
        points: {
          "pre-tool": { tools: ["Bash", "exec*"], priority: 3, deadlineMs: 900, failurePolicy: "fail-open", handler: () => allow() },
          "tool-result": () => {},
        },
      }),
    );
    expect(server.address).toBe(`unix://${join(dir, "p.sock")}`);
    const { plugin } = clients(server.address);
    const { manifest } = await plugin.describe({});
    expect(manifest).toMatchObject({
      name: "described",
      version: "1.2.3",
      sideEffectFree: true,
      subscriptions: [
        { point: pb.Point.PRE_TOOL, tools: ["Bash", "exec*"], priority: 3, deadlineMs: 900, failurePolicy: pb.FailurePolicy.FAIL_OPEN },
        { point: pb.Point.TOOL_RESULT, tools: [], priority: 0, deadlineMs: 0, failurePolicy: pb.FailurePolicy.UNSPECIFIED },
      ],
    });
    expect(await statusOf(plugin.guard({}))).toMatchObject({ code: status.UNIMPLEMENTED });
    expect(await statusOf(plugin.preTool({}))).toMatchObject({ code: status.INVALID_ARGUMENT, details: "event: missing" });
  });

  it("answers a throwing handler, an invalid decision and a call to next() with error statuses the daemon reports as error_status", async () => {
    const errors: string[] = [];
    const server = await serve(
      definePlugin({
        name: "buggy",
        points: {
          "pre-tool": async (event, ctx): Promise<PreToolDecision> => {
            const command = (event.call.arguments as { command?: string }).command;
            if (command === "throw") throw new Error("bug in the policy");
            if (command === "empty") return deny("");
            if (command === "next") return ctx.next();
            return allow();
          },
        },
      }),
      errors,
    );
    const listener = await remotePreTool(server.address);
    const detailOf = async (command: string) => (await callListener(listener, preToolEvent("Bash", { command }), ctxFor, open())).invocation;
    expect(await detailOf("throw")).toMatchObject({ fault: "error_status", detail: expect.stringMatching(/UNKNOWN: plugin buggy at pre-tool threw: bug in the policy/) as unknown });
    expect(await detailOf("empty")).toMatchObject({
      fault: "error_status",
      detail: expect.stringMatching(/UNKNOWN: plugin buggy at pre-tool answered an invalid decision: decision\.reason: a deny needs a non-empty reason/) as unknown,
    });
    expect(await detailOf("next")).toMatchObject({ fault: "error_status", detail: expect.stringMatching(/next\(\) is only available in-process; return pass\(\) instead/) as unknown });
    // The server survived all of it.
    expect(await detailOf("ls")).toMatchObject({ outcome: "answered", decision: "allow" });
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^pre-tool: UNKNOWN: plugin buggy at pre-tool threw/);
  });

  it("answers the singleton decisions (pass, allow, abstain) with the same bytes as any other answer, call after call", async () => {
    const server = await serve(
      definePlugin({
        name: "singletons",
        points: {
          "pre-tool": (event) => ({ allow: allow(), pass: pass(), deny: deny("no") })[String((event.call.arguments as { command?: string }).command)] ?? pass(),
          guard: () => abstain(),
        },
      }),
    );
    const { plugin } = clients(server.address);
    const event = (command: string) => toProtoEvent("pre-tool", preToolEvent("Bash", { command }));
    for (let round = 0; round < 2; round++) {
      for (const [command, decision] of [["allow", { case: "allow", value: {} }], ["pass", { case: "pass", value: {} }], ["deny", { case: "deny", value: { reason: "no" } }]] as const) {
        const response = await plugin.preTool({ event: event(command) });
        expect(response.decision?.decision).toMatchObject(decision);
        // What was sent decodes to exactly the message built afresh.
        expect(toBinary(pb.PreToolResponseSchema, response)).toEqual(toBinary(pb.PreToolResponseSchema, create(pb.PreToolResponseSchema, { decision: { decision } })));
      }
      const guarded = await plugin.guard({ event: toProtoEvent("guard", preToolEvent("Bash", { command: "ls" })) });
      expect(guarded.decision?.decision).toMatchObject({ case: "abstain" });
    }
  });

  it("serves grpc.health.v1: SERVING until close, NOT_SERVING to watchers, whose streams then end", async () => {
    const server = await serve(definePlugin({ name: "h", points: { guard: () => ({ kind: "abstain" }) } }));
    const { health } = clients(server.address);
    const SERVING = pb.health.HealthCheckResponse_ServingStatus.SERVING;
    expect(await health.check({ service: "" })).toMatchObject({ status: SERVING });
    expect(await health.check({ service: "hookd.v1.HookPlugin" })).toMatchObject({ status: SERVING });
    expect(await statusOf(health.check({ service: "other" }))).toMatchObject({ code: status.NOT_FOUND });
    expect((await health.list({})).statuses[""]).toMatchObject({ status: SERVING });

    const seen: number[] = [];
    const first = deferred();
    const watching = (async () => {
      for await (const update of health.watch({ service: "" })) {
        seen.push(update.status);
        first.resolve();
      }
    })();
    await first.promise;
    await server.close();
    await watching;
    expect(seen).toEqual([SERVING, pb.health.HealthCheckResponse_ServingStatus.NOT_SERVING]);
    await expect(stat(join(dir, "p.sock"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("listens on $HOOKD_PLUGIN_SOCKET by default, on a TCP port when asked, and stops when its signal aborts", async () => {
    const definition = definePlugin({ name: "where", points: { "pre-tool": () => allow() } });
    const previous = process.env[PLUGIN_SOCKET_ENV];
    process.env[PLUGIN_SOCKET_ENV] = join(dir, "env.sock");
    const stop = new AbortController();
    try {
      const server = await servePlugin(definition, { signal: stop.signal });
      expect(server.address).toBe(`unix://${join(dir, "env.sock")}`);
      stop.abort();
      await server.closed;
    } finally {
      if (previous === undefined) delete process.env[PLUGIN_SOCKET_ENV];
      else process.env[PLUGIN_SOCKET_ENV] = previous;
    }
    const tcp = await servePlugin(definition, { address: "127.0.0.1:0" });
    cleanups.push(() => tcp.close());
    expect(tcp.address).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
    expect(await callListener(await remotePreTool(tcp.address), preToolEvent(), ctxFor, open())).toMatchObject({ answer: { kind: "allow" } });
  });

  it("refuses what is not a definition and a missing address", async () => {
    await expect(servePlugin({} as PluginDefinition, { address: "127.0.0.1:0" })).rejects.toMatchObject({ code: "invalid_plugin" });
    const previous = process.env[PLUGIN_SOCKET_ENV];
    delete process.env[PLUGIN_SOCKET_ENV];
    try {
      await expect(servePlugin(definePlugin({ name: "x", points: { guard: () => ({ kind: "abstain" }) } }))).rejects.toThrow(/no address.*HOOKD_PLUGIN_SOCKET/);
    } finally {
      if (previous !== undefined) process.env[PLUGIN_SOCKET_ENV] = previous;
    }
  });
});
