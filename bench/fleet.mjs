#!/usr/bin/env node
// `npm run bench:fleet`: hookd behind a real nginx (Debian's, scripts/setup-fleet.sh), measured in
// one bounded run: throughput and p50/p99 of unary pre-tool evaluates straight to one daemon and
// through nginx (round-robin, grpc_pass) to 1, 2 and 3 daemons, with the CPU each process used
// (daemons, nginx, this client) and the load average; then failover: one of three instances
// SIGKILLed mid-run, the calls that failed and for how long. Nothing is asserted (a bench, not a
// test); every process is real, on Unix sockets in a temp dir, and stopped at the end.
// The scenarios run in rounds (direct on the Unix socket and on TCP, nginx 1, 2, 3, again): drift of a loaded machine shows as
// the spread between rounds. Every daemon is warmed up (JIT) before the first round.
//   node bench/fleet.mjs [--calls N] [--concurrency C] [--rounds R] [--json FILE]
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { connectHost, snapshotJson } from "@hookd/sdk";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CLI = join(ROOT, "daemon/dist/cli.js");
const POLICY = join(ROOT, "test/ops/fixtures/policy.mjs");
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((path) => existsSync(path));
const { values } = parseArgs({ options: { calls: { type: "string", default: "2000" }, concurrency: { type: "string", default: "8" }, rounds: { type: "string", default: "2" }, json: { type: "string" } } });
const CALLS = Number(values.calls);
const ROUNDS = Number(values.rounds);
const CONCURRENCY = Number(values.concurrency);
/** No scenario runs longer than this, whatever its count. */
const MAX_SCENARIO_MS = 90_000;
const TICK = 100; // clock ticks per second in /proc/<pid>/stat (USER_HZ)

if (!existsSync(CLI)) throw new Error(`${CLI} is missing: npm run build`);
if (NGINX === undefined) throw new Error("nginx is missing: npm run setup:fleet");

const work = await mkdtemp(join(tmpdir(), "hookd-bench-fleet-"));
const processes = [];

function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICK;
  } catch {
    return 0;
  }
}

function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

async function startDaemon(name) {
  const dir = join(work, name);
  await mkdir(dir);
  const socket = join(dir, "hookd.sock");
  const tcp = `127.0.0.1:${await freePort()}`;
  const config = { listeners: [{ unix: socket }, { tcp }], instance: { id: name }, plugins: [{ name: "policy", kind: "in-process", module: POLICY }], audit: { path: join(dir, "audit.jsonl"), fsync: "interval" }, log: { level: "warn" } };
  await writeFile(join(dir, "hookd.json"), JSON.stringify(config));
  const child = spawn(process.execPath, [CLI, "serve", "--config", join(dir, "hookd.json")], { stdio: ["ignore", "pipe", "inherit"] });
  processes.push(child);
  // log.level warn: readiness is the socket accepting, not a log line.
  await waitFor(() => existsSync(socket) && canConnect(socket), `${name} listening`);
  createInterface({ input: child.stdout }).on("line", () => {});
  return { name, socket, tcp, child };
}

async function startNginx(name, sockets) {
  const dir = join(work, name);
  await mkdir(join(dir, "tmp"), { recursive: true });
  const port = await freePort();
  const user = process.getuid?.() === 0 ? "user root;\n" : "";
  const servers = sockets.map((s) => `    server unix:${s} max_fails=1 fail_timeout=2s;`).join("\n");
  await writeFile(
    join(dir, "nginx.conf"),
    `${user}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  upstream hookd {
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${port} http2;
    location / { grpc_pass grpc://hookd; }
  }
}
`,
  );
  const child = spawn(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")], { stdio: ["ignore", "ignore", "inherit"] });
  processes.push(child);
  await waitFor(() => canConnectTcp(port), `${name} listening`);
  return { name, address: `127.0.0.1:${port}`, child, pids: () => [child.pid, ...childrenOf(child.pid)] };
}

const session = { sessionId: "bench", agentId: "", cwd: "/w", parentSessionId: "", agentType: "" };
const ARGS = snapshotJson({ path: "/w/README.md" });
let sequence = 0;
function preTool() {
  const callId = `b${sequence++}`;
  return { session, call: { callId, rootCallId: callId, toolName: "Read", arguments: ARGS.value, argumentsJson: ARGS.text, sessionId: "bench", turn: 1, step: 1 } };
}

/** C loops over their own connections until `calls` settled; latencies of the answered ones. */
async function load(target, calls, onAnswer = () => {}) {
  // Each client is an agent of its own; grpc-js shares one connection per target among them
  // (its global subchannel pool), so nginx balances requests, not connections.
  const clients = Array.from({ length: CONCURRENCY }, (_, i) => connectHost(target, { agentId: `bench-${i}`, evaluateTransport: "unary" }));
  // Warm every connection (and nginx's upstream keepalives) before the clock starts.
  await Promise.all(clients.map((client) => client.evaluatePreTool(preTool(), { timeoutMs: 20_000 })));
  const latencies = [];
  /** When each answered call ended, and how long it took: failover reads the calls after the kill. */
  const answers = [];
  const errors = [];
  let started = 0;
  const begin = performance.now();
  const loop = async (client) => {
    while (started < calls && performance.now() - begin < MAX_SCENARIO_MS) {
      started++;
      const t0 = performance.now();
      try {
        await client.evaluatePreTool(preTool(), { timeoutMs: 20_000 });
        const t1 = performance.now();
        latencies.push(t1 - t0);
        answers.push({ at: t1, ms: t1 - t0 });
        onAnswer(latencies.length);
      } catch (error) {
        errors.push({ at: performance.now(), code: error?.code, message: String(error?.message ?? error).slice(0, 80) });
      }
    }
  };
  await Promise.all(clients.map(loop));
  const wallMs = performance.now() - begin;
  for (const client of clients) client.close();
  return { latencies, answers, errors, wallMs, begin };
}

function quantile(sorted, q) {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

async function measure(name, target, pidGroups) {
  const before = Object.fromEntries(Object.entries(pidGroups).map(([group, pids]) => [group, pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0)]));
  const client0 = process.cpuUsage();
  const { latencies, errors, wallMs } = await load(target, CALLS);
  const client = process.cpuUsage(client0);
  const wall = wallMs / 1000;
  const cpu = Object.fromEntries(Object.entries(pidGroups).map(([group, pids]) => [group, Math.round((100 * (pids().reduce((sum, pid) => sum + cpuSeconds(pid), 0) - before[group])) / wall)]));
  cpu.client = Math.round((client.user + client.system) / 1e4 / wall);
  const sorted = [...latencies].sort((a, b) => a - b);
  const result = { calls: latencies.length, errors: errors.length, ops_per_s: Math.round(latencies.length / wall), p50_ms: +quantile(sorted, 0.5).toFixed(2), p99_ms: +quantile(sorted, 0.99).toFixed(2), cpu_percent: cpu, loadavg_1m: +loadavg()[0].toFixed(2) };
  console.log(`${name.padEnd(10)} ${String(result.ops_per_s).padStart(6)} ops/s  p50 ${result.p50_ms.toFixed(2).padStart(6)} ms  p99 ${result.p99_ms.toFixed(2).padStart(7)} ms  errors ${result.errors}  cpu% ${Object.entries(cpu).map(([k, v]) => `${k}=${v}`).join(" ")}  load ${result.loadavg_1m}`);
  return result;
}

async function failover(daemons) {
  const nginx = await startNginx("nginx-failover", daemons.map((d) => d.socket));
  const victim = daemons[2];
  let killedAt;
  const total = CALLS;
  const { latencies, answers, errors, wallMs, begin } = await load(nginx.address, total, (answered) => {
    if (killedAt === undefined && answered >= Math.floor(total / 3)) {
      killedAt = performance.now();
      victim.child.kill("SIGKILL");
    }
  });
  // The calls answered in the second after the kill: what the survivors' taking over cost them.
  const after = answers.filter((a) => a.at > killedAt && a.at <= killedAt + 1000).map((a) => a.ms).sort((x, y) => x - y);
  const before = answers.filter((a) => a.at > killedAt - 1000 && a.at <= killedAt).map((a) => a.ms).sort((x, y) => x - y);
  const first = errors[0]?.at;
  const last = errors.at(-1)?.at;
  const result = {
    calls: latencies.length + errors.length,
    answered: latencies.length,
    failed: errors.length,
    error_kinds: [...new Set(errors.map((e) => e.message))],
    first_error_after_kill_ms: first === undefined ? null : Math.round(first - killedAt),
    errors_span_ms: first === undefined ? 0 : Math.round(last - first),
    wall_ms: Math.round(wallMs),
    killed_at_ms: Math.round(killedAt - begin),
    second_before_kill: { answered: before.length, p50_ms: +quantile(before, 0.5).toFixed(2), max_ms: +(before.at(-1) ?? 0).toFixed(2) },
    second_after_kill: { answered: after.length, p50_ms: +quantile(after, 0.5).toFixed(2), max_ms: +(after.at(-1) ?? 0).toFixed(2) },
  };
  console.log(`failover   ${result.failed} of ${result.calls} calls failed (${result.error_kinds.join("; ") || "none"}); errors from ${result.first_error_after_kill_ms ?? "-"} ms after the kill, over ${result.errors_span_ms} ms; the second before the kill ${result.second_before_kill.answered} answered (p50 ${result.second_before_kill.p50_ms} ms, max ${result.second_before_kill.max_ms} ms), the second after ${result.second_after_kill.answered} (p50 ${result.second_after_kill.p50_ms} ms, max ${result.second_after_kill.max_ms} ms)`);
  return result;
}

const results = { env: { cpus: cpus().length, loadavg_start: loadavg().map((l) => +l.toFixed(2)), calls: CALLS, concurrency: CONCURRENCY, node: process.version }, scenarios: {} };
try {
  console.log(`hookd fleet bench: ${CALLS} unary pre-tool evaluates per scenario, ${CONCURRENCY} concurrent clients, ${cpus().length} cores, load ${loadavg()[0].toFixed(2)} at start`);
  const daemons = [await startDaemon("hookd-a"), await startDaemon("hookd-b"), await startDaemon("hookd-c")];
  const daemonPids = (list) => () => list.map((d) => d.child.pid);
  for (const daemon of daemons) await load(`unix://${daemon.socket}`, Math.ceil(CALLS / 4));
  const balancers = [];
  for (const n of [1, 2, 3]) balancers.push(await startNginx(`nginx-${n}`, daemons.slice(0, n).map((d) => d.socket)));
  for (let round = 1; round <= ROUNDS; round++) {
    const record = (name, result) => (results.scenarios[name] ??= []).push(result);
    // Straight to one daemon, on its Unix socket and on TCP (nginx's clients use TCP to nginx).
    record("direct_unix", await measure(`direct uds`, `unix://${daemons[0].socket}`, { hookd: daemonPids(daemons.slice(0, 1)) }));
    record("direct_tcp", await measure(`direct tcp`, daemons[0].tcp, { hookd: daemonPids(daemons.slice(0, 1)) }));
    for (const [i, nginx] of balancers.entries()) record(`nginx_${i + 1}`, await measure(`nginx ${i + 1}`, nginx.address, { hookd: daemonPids(daemons.slice(0, i + 1)), nginx: nginx.pids }));
  }
  for (const nginx of balancers) nginx.child.kill("SIGQUIT");
  results.failover = await failover(daemons);
  results.env.loadavg_end = loadavg().map((l) => +l.toFixed(2));
  if (values.json !== undefined) await writeFile(values.json, `${JSON.stringify(results, null, 2)}\n`);
} finally {
  for (const child of processes) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await rm(work, { recursive: true, force: true });
}

async function waitFor(check, what) {
  for (let attempt = 0; attempt < 400; attempt++) {
    if (await check()) return;
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function canConnect(path) {
  return new Promise((done) => {
    const socket = connect(path);
    socket.once("connect", () => (socket.destroy(), done(true)));
    socket.once("error", () => done(false));
  });
}

function canConnectTcp(port) {
  return new Promise((done) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => (socket.destroy(), done(true)));
    socket.once("error", () => done(false));
  });
}

async function freePort() {
  const server = createServer();
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address();
  await new Promise((done) => server.close(done));
  return port;
}
