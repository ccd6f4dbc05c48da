// The bench's stream path and http hook path: the multiplexer both stream clients use, the
// floor's Evaluate and Attach streams (the floor server answers by id and survives a request it
// does not serve; the relay really relays over Attach, and a missing upstream fails the request,
// not the stream), and the new scenarios coming out of a quick run with their ratios. Figures are
// never asserted (bench/README.md).
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Server, status } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addService, bindServer, closeClient, createClient, pb } from "@hookd/sdk/internal";
import { EvaluateStream } from "../../bench/src/evaluate-stream.js";
import { postToolRequest, preToolRequest } from "../../bench/src/messages.js";
import { Mux } from "../../bench/src/mux.js";
import { REPO, startNodeHelper, stopAll } from "../../bench/src/procs.js";

const run = promisify(execFile);

/** An async iterable fed by hand. */
function feed<T>(): { push(item: T): void; end(): void; iterable: AsyncIterable<T> } {
  const queue: T[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  return {
    push: (item) => {
      queue.push(item);
      wake?.();
    },
    end: () => {
      ended = true;
      wake?.();
    },
    iterable: {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          const item = queue.shift();
          if (item !== undefined) yield item;
          else if (ended) return;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      },
    },
  };
}

describe("the bench's stream multiplexer", () => {
  it("hands each id its own frame in any order, counts strays and repeats, fails the rest when the stream ends", async () => {
    const frames = feed<{ id: bigint; text: string }>();
    const mux = new Mux(frames.iterable, (frame) => frame.id);
    const [a, b, c] = [mux.open(), mux.open(), mux.open()];
    expect(new Set([a.id, b.id, c.id]).size).toBe(3);
    frames.push({ id: b.id, text: "b" });
    frames.push({ id: 999n, text: "never sent" });
    frames.push({ id: a.id, text: "a" });
    frames.push({ id: a.id, text: "a again" });
    expect((await a.answer).text).toBe("a");
    expect((await b.answer).text).toBe("b");
    frames.end();
    await expect(c.answer).rejects.toThrow(/the stream ended/);
    expect(mux.strays).toBe(2);
    await expect(mux.open().answer).rejects.toThrow(/the stream ended/);
  });
});

describe("the floor's streams", () => {
  let dir: string;
  const socket = (name: string): string => `unix://${join(dir, `${name}.sock`)}`;
  const clients: object[] = [];
  const servers: Server[] = [];
  beforeAll(async () => {
    await run(process.execPath, [join(REPO, "node_modules/typescript/bin/tsc"), "-b", join(REPO, "bench/tsconfig.json")], { cwd: REPO });
    dir = await mkdtemp(join(tmpdir(), "hookd-stream-floor-test-"));
  }, 120_000);
  afterAll(async () => {
    for (const client of clients) closeClient(client);
    for (const server of servers) server.forceShutdown();
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  });
  const host = (target: string) => {
    const client = createClient(pb.HookHost, target);
    clients.push(client);
    return client;
  };

  it("the floor server answers every pre-tool request of an Evaluate stream by its id, and one it does not serve with an error naming it", { timeout: 60_000 }, async () => {
    await startNodeHelper("floor", "floor-server.js", ["--listen", socket("floor")]);
    const stream = new EvaluateStream(host(socket("floor")));
    const answers = await Promise.all(Array.from({ length: 20 }, () => stream.preTool(preToolRequest())));
    for (const answer of answers) expect(answer.trace?.decidedBy).toBe("bench-policy");
    stream.close();
    const raw = host(socket("floor")).evaluate();
    await raw.send({ requestId: 7n, request: { case: "postTool", value: postToolRequest() } });
    await raw.send({ requestId: 8n, request: { case: "preTool", value: preToolRequest() } });
    const frames = raw.responses[Symbol.asyncIterator]();
    const first = (await frames.next()).value as pb.EvaluateResponse;
    expect(first.requestId).toBe(7n);
    expect(first.reply.case).toBe("error");
    const error = first.reply.case === "error" ? first.reply.value : undefined;
    expect(error?.code).toBe(status.UNIMPLEMENTED);
    expect(error?.message).toMatch(/pre_tool only, not postTool/);
    const second = (await frames.next()).value as pb.EvaluateResponse;
    expect(second.requestId).toBe(8n);
    expect(second.reply.case).toBe("preTool");
    raw.cancel();
  });

  it("the relay relays each Evaluate request over an Attach stream (open first, the time left on each call), and a missing upstream fails the request, not the stream", { timeout: 60_000 }, async () => {
    // An Attach-only plugin that denies: only the stream path can produce its answer.
    const opens: pb.AttachOpen[] = [];
    const deadlines: number[] = [];
    const plugin = new Server();
    addService(plugin, pb.HookPlugin, {
      attach: async (requests, call) => {
        for await (const request of requests) {
          if (request.frame.case === "open") opens.push(request.frame.value);
          if (request.frame.case === "call") {
            deadlines.push(request.frame.value.deadlineMs);
            await call.send({ callId: request.frame.value.callId, reply: { case: "preTool", value: { decision: { decision: { case: "deny", value: { reason: "attach-only" } } } } } });
          }
        }
      },
    });
    await bindServer(plugin, socket("attach-only"));
    servers.push(plugin);
    await startNodeHelper("relay attach-only", "relay.js", ["--listen", socket("relay-attach"), "--upstream", socket("attach-only")]);
    const stream = new EvaluateStream(host(socket("relay-attach")));
    const answers = await Promise.all([stream.preTool(preToolRequest(), 3_000), stream.preTool(preToolRequest(), 3_000)]);
    for (const answer of answers) expect(answer.decision?.decision).toMatchObject({ case: "deny", value: { reason: "attach-only" } });
    expect(opens).toHaveLength(1);
    expect(opens[0]?.pluginName).toBe("floor-1");
    expect(opens[0]?.window).toBeGreaterThan(0);
    expect(deadlines).toHaveLength(2);
    for (const deadline of deadlines) expect(deadline).toBe(3_000);
    stream.close();

    await startNodeHelper("relay missing", "relay.js", ["--listen", socket("relay-missing"), "--upstream", socket("nobody")]);
    const broken = new EvaluateStream(host(socket("relay-missing")));
    await expect(broken.preTool(preToolRequest())).rejects.toMatchObject({ code: status.UNAVAILABLE });
    await expect(broken.preTool(preToolRequest())).rejects.toMatchObject({ code: status.UNAVAILABLE });
    broken.close();
  });
});

interface BenchJson {
  readonly scenarios: Record<string, { p50_us?: number; mismatches?: number; skipped?: string; cpu_us_per_call?: number; count?: number }>;
  readonly ratios: Record<string, number | null | undefined>;
  readonly targets: { name: string; target: string | null; bare?: { name: string; value: number | null; met: boolean | null } }[];
}

describe("npm run bench: the stream and http scenarios", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it("measures the stream floors, the stream path and the http path, none skipped, and writes #16's ratios", { timeout: 180_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), "hookd-bench-streams-test-"));
    dirs.push(dir);
    const json = join(dir, "bench.json");
    // The daemon serves both streams now: a stream scenario that skips is a failure, like any other.
    const measured = ["floor_single", "floor_relay", "floor_stream_single", "floor_stream_relay", "floor_http", "http_hook", "floor_process", "forwarder_c", "floor_forwarder", "stream_inprocess", "stream_remote"];
    await run(process.execPath, [join(REPO, "bench/run.mjs"), "--quick", "--only", measured.join(","), "--json", json], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
    const results = JSON.parse(await readFile(json, "utf8")) as BenchJson;
    expect(existsSync(join(REPO, "daemon/dist/forward/hookd-hook")), "the C forwarder is built (npm run build, with cc)").toBe(true);
    for (const name of measured) {
      const scenario = results.scenarios[name];
      expect(scenario?.skipped, name).toBeUndefined();
      expect(scenario?.mismatches ?? 0, name).toBe(0);
      expect(scenario?.p50_us, name).toBeGreaterThan(0);
      expect(scenario?.cpu_us_per_call, name).toBeGreaterThan(0);
    }
    const p50 = (name: string): number => results.scenarios[name]?.p50_us ?? Number.NaN;
    expect(results.ratios["http_hook/floor_http"]).toBeCloseTo(p50("http_hook") / p50("floor_http"), 1);
    expect(results.ratios["floor_stream_single/floor_single"]).toBeCloseTo(p50("floor_stream_single") / p50("floor_single"), 1);
    expect(results.ratios["forwarder_c_ms"]).toBeCloseTo(p50("forwarder_c") / 1000, 1);
    expect(results.ratios["forwarder_c/floor_forwarder"]).toBeCloseTo(p50("forwarder_c") / p50("floor_forwarder"), 1);
    const targets = new Map(results.targets.map((target) => [target.name, target.target]));
    expect(targets.get("stream_remote/floor_relay")).toBe("<= 0.35");
    expect(targets.get("stream_agents32/floor_relay32")).toBe(">= 3");
    expect(targets.get("command_node_spawn/stream_remote")).toBe(">= 200");
    expect(targets.get("http_hook/floor_http")).toBe("<= 1.3");
    // Beside the target, the same ratio over the bare floors of the run, judged by the same bound.
    const bare = results.targets.find((target) => target.name === "stream_remote/floor_relay")?.bare;
    expect(bare?.name).toBe("floor_stream_relay/floor_relay");
    expect(bare?.value).toBeCloseTo(p50("floor_stream_relay") / p50("floor_relay"), 1);
    expect(bare?.met).toBe((bare?.value ?? Number.NaN) <= 0.35);
    for (const name of ["stream_remote/floor_stream_relay", "stream_inprocess/floor_stream_single", "stream_fanout4/stream_remote"]) expect(results.ratios, name).toHaveProperty([name]);
  });
});
