// Where Claude Code's http hook round trip goes (`npm run bench:agents`, beside latency.run.ts):
// Claude Code runs the real-agent scenario with its http hooks pointed, in alternating runs, at
// hookd's endpoint with the real-agent lane's policy (which appends every event to a log file),
// at hookd with the bench's bench-policy (in-process, a few regex tests, no I/O), and at a bare
// recording HTTP server that answers `{}` at once. From Claude
// Code's own debug log (--debug-file: "HTTP hook POST to …" and "HTTP hook response status …",
// 1 ms resolution) each round trip; for the bare server also when the request arrived and was
// answered (same clock), which splits the round trip into the agent's side and the server's, and
// whether Claude Code reused its connection. HOOKD_TRACE_MODEL_DELAY_MS delays every model
// answer (a real model's think time), so hooks come further apart than a server's keep-alive
// timeout. Writes bench/results/http-trace.json.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO, startDaemon } from "../../test/support/daemon-process.js";
import { startFakeModel } from "../../test/agents/fake-model/server.js";
import { freePort, tempDir } from "../../test/agents/support/agents.js";
import { claudeHooks, runClaude } from "../../test/agents/support/claude.js";
import { startPolicyDaemon } from "../../test/agents/support/policy.js";
import { SCENARIO_PROMPT, prepareCwd, scenarioScript } from "../../test/agents/support/scenario.js";

const RUNS = Number(process.env.HOOKD_BENCH_RUNS ?? "5");
const EVENTS = ["UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop"] as const;
const MODEL_DELAY_MS = Number(process.env.HOOKD_TRACE_MODEL_DELAY_MS ?? "0");
const now = (): number => performance.timeOrigin + performance.now();

/** A proxy in front of the fake model that holds each request `delayMs` before passing it on. */
async function delayed(target: string, delayMs: number): Promise<{ url: string; close(): void }> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      setTimeout(() => {
        const forward = request({ host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on("error", () => res.destroy());
        forward.end(Buffer.concat(chunks));
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

interface Posted {
  readonly event: string;
  /** Claude Code's log: the POST, and the response (epoch ms, 1 ms resolution). */
  readonly postAt: number;
  readonly responseAt: number;
}

interface Seen {
  readonly event: string;
  readonly socket: number;
  readonly arrived: number;
  readonly answered: number;
}

function posts(log: string): Posted[] {
  const out: Posted[] = [];
  let post: { event: string; at: number } | undefined;
  for (const line of log.split("\n")) {
    const at = Date.parse(line.slice(0, 24));
    const sent = /Hooks: HTTP hook POST to \S+\/hooks\/([A-Za-z]+)/.exec(line);
    if (sent !== null) post = { event: sent[1] ?? "", at };
    if (/Hooks: HTTP hook response status/.test(line) && post !== undefined) {
      out.push({ event: post.event, postAt: post.at, responseAt: at });
      post = undefined;
    }
  }
  return out;
}

/** A bare HTTP server answering `{}`, recording each request's socket and times. */
async function recordingServer(): Promise<{ url: string; seen: Seen[]; close(): void }> {
  const seen: Seen[] = [];
  const sockets = new Map<Socket, number>();
  const server = createServer((req, res) => {
    const arrived = now();
    let socket = sockets.get(req.socket);
    if (socket === undefined) sockets.set(req.socket, (socket = sockets.size + 1));
    const id = socket;
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": 2 });
      res.end("{}");
      seen.push({ event: /\/hooks\/([A-Za-z]+)/.exec(req.url ?? "")?.[1] ?? "", socket: id, arrived, answered: now() });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

async function claudeRun(url: string): Promise<Posted[]> {
  const model = await startFakeModel(scenarioScript);
  const proxy = MODEL_DELAY_MS > 0 ? await delayed(model.url, MODEL_DELAY_MS) : undefined;
  try {
    const home = await tempDir("trace-claude");
    const cwd = await tempDir("trace-cwd");
    prepareCwd(cwd);
    const debug = join(home, "debug.log");
    const run = await runClaude({ home, cwd, modelUrl: proxy?.url ?? model.url, hooks: claudeHooks("http", url, EVENTS), prompt: SCENARIO_PROMPT, args: ["--allowedTools", "Bash", "--debug-file", debug] });
    expect(run.code, run.stderr).toBe(0);
    return posts(readFileSync(debug, "utf8"));
  } finally {
    proxy?.close();
    await model.close();
  }
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

it("splits Claude Code's http hook round trip between the agent and the server", async () => {
  const policy = await startPolicyDaemon();
  const port = await freePort();
  const plain = await startDaemon({
    config: { http: { listen: `127.0.0.1:${port}` }, plugins: [{ name: "bench-policy", kind: "in-process", module: join(REPO, "bench/dist/plugins/policy.js") }] },
  });
  const floor = await recordingServer();
  const rows: { target: string; event: string; roundTripMs: number; toServerMs?: number; serverMs?: number; fromServerMs?: number; socket?: number }[] = [];
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const sample of await claudeRun(policy.hookUrl)) rows.push({ target: "hookd", event: sample.event, roundTripMs: sample.responseAt - sample.postAt });
      for (const sample of await claudeRun(`http://127.0.0.1:${port}`)) rows.push({ target: "hookd-bench-policy", event: sample.event, roundTripMs: sample.responseAt - sample.postAt });
      const from = floor.seen.length;
      const samples = await claudeRun(floor.url);
      const seen = floor.seen.slice(from);
      expect(seen.length, "every POST Claude Code logged reached the bare server").toBe(samples.length);
      samples.forEach((sample, k) => {
        const server = seen[k] as Seen;
        rows.push({
          target: "bare",
          event: sample.event,
          roundTripMs: sample.responseAt - sample.postAt,
          toServerMs: server.arrived - sample.postAt,
          serverMs: server.answered - server.arrived,
          fromServerMs: sample.responseAt - server.answered,
          socket: server.socket,
        });
      });
    }
  } finally {
    floor.close();
    await plain.stop();
    await policy.stop();
  }
  expect(rows.length).toBeGreaterThan(0);
  const groups = new Map<string, typeof rows>();
  for (const row of rows) for (const key of [`${row.target} ${row.event}`, `${row.target} (all)`]) groups.set(key, [...(groups.get(key) ?? []), row]);
  const summary = [...groups].map(([key, group]) => ({
    key,
    samples: group.length,
    roundTripMs: median(group.map((r) => r.roundTripMs)),
    toServerMs: median(group.flatMap((r) => (r.toServerMs === undefined ? [] : [r.toServerMs]))),
    serverMs: median(group.flatMap((r) => (r.serverMs === undefined ? [] : [r.serverMs]))),
    fromServerMs: median(group.flatMap((r) => (r.fromServerMs === undefined ? [] : [r.fromServerMs]))),
    connections: new Set(group.flatMap((r) => (r.socket === undefined ? [] : [r.socket]))).size,
  }));
  mkdirSync(join(REPO, "bench/results"), { recursive: true });
  writeFileSync(join(REPO, "bench/results/http-trace.json"), `${JSON.stringify({ runs: RUNS, summary, rows }, null, 2)}\n`);
  const fmt = (v: number): string => (Number.isNaN(v) ? "-" : v.toFixed(1)).padStart(9);
  const lines = [
    "target event                      samples  round ms  to server  server ms  from server  connections (bare)",
    ...summary.sort((a, b) => a.key.localeCompare(b.key)).map((s) => `${s.key.padEnd(36)} ${String(s.samples).padStart(7)} ${fmt(s.roundTripMs)} ${fmt(s.toServerMs)} ${fmt(s.serverMs)} ${fmt(s.fromServerMs)}    ${s.connections || "-"}`),
  ];
  process.stdout.write(`\n${lines.join("\n")}\n`);
}, 900_000);
