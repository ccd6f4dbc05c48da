// The bench harness (`npm run bench`, or `node bench/run.mjs`): starts real processes on Unix
// sockets in a temp dir, runs each scenario (warm-up, then bounded by a count and a time), prints
// a table and the design's targets beside the measured ratios, and with `--json FILE` writes
// {"scenarios", "ratios", "targets", "env"}. Options: USAGE below (`--help`).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, release, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Lab, Skip } from "./lab.js";
import { messageSizes } from "./messages.js";
import { REPO, cpuMs, stopAll } from "./procs.js";
import { summarizeProfile } from "./profile.js";
import { TARGETS, met, verdictOf } from "./ratios.js";
import { SCENARIOS } from "./scenarios.js";
import type { LatencySetup, ScenarioResult } from "./scenarios.js";
import { interleaved } from "./stats.js";
import type { Measured } from "./stats.js";

/** How long each latency scenario runs before the next one gets its turn, in milliseconds. */
const SLICE_MS = 50;

const USAGE = `usage: node bench/run.mjs [options]   (npm run bench -- [options])
  --quick              short bounds: the whole run takes well under a minute on 2 cores
  --json FILE          also write the results as JSON
  --only a,b           run only these scenarios (the floors the ratios need are not added)
  --profile DIR        run the daemons of --profile-scenarios with --cpu-prof into DIR, then
                       summarize the profiles (busy time per call when the calls are known)
  --profile-scenarios a,b
                       default inprocess,remote_uds; "floor" adds the floor server and relay
  --cli PATH           run another daemon build's cli.js (default daemon/dist/cli.js)
  -h, --help           this text
scenarios: ${SCENARIOS.map((scenario) => scenario.name).join(", ")}
`;

function parseOptions(): ReturnType<typeof parse> {
  try {
    return parse();
  } catch (error) {
    // parseArgs names the option it refused; the stack trace would only hide that.
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}

function parse() {
  return parseArgs({
    args: process.argv.slice(2),
    options: {
      quick: { type: "boolean", default: false },
      json: { type: "string" },
      only: { type: "string" },
      profile: { type: "string" },
      "profile-scenarios": { type: "string", default: "inprocess,remote_uds" },
      cli: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
}

const { values } = parseOptions();
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

const only = values.only === undefined ? undefined : new Set(values.only.split(",").map((name) => name.trim()));
const unknown = [...(only ?? [])].filter((name) => !SCENARIOS.some((scenario) => scenario.name === name));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown scenario(s) ${unknown.join(", ")}; known: ${SCENARIOS.map((s) => s.name).join(", ")}\n`);
  process.exit(2);
}

function packageVersion(name: string): string {
  try {
    return (JSON.parse(readFileSync(join(REPO, "node_modules", name, "package.json"), "utf8")) as { version?: string }).version ?? "unknown";
  } catch {
    return "unknown";
  }
}

function gitCommit(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: REPO, encoding: "utf8" }).trim();
  } catch {
    return "unknown";
  }
}

const pad = (text: string, width: number): string => (text.length >= width ? text : text + " ".repeat(width - text.length));
const padLeft = (text: string, width: number): string => (text.length >= width ? text : " ".repeat(width - text.length) + text);
const fmt = (value: number | undefined, digits = 0): string => (value === undefined || Number.isNaN(value) ? "-" : value.toFixed(digits));

async function main(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), "hookd-bench-"));
  const profileDir = values.profile === undefined ? undefined : resolve(values.profile);
  if (profileDir !== undefined) await mkdir(profileDir, { recursive: true });
  const lab = new Lab({
    quick: values.quick,
    dir,
    ...(profileDir === undefined ? {} : { profileDir }),
    profileScenarios: new Set(profileDir === undefined ? [] : values["profile-scenarios"].split(",")),
    ...(values.cli === undefined ? {} : { cli: resolve(values.cli) }),
  });
  const onSignal = (): void => {
    void stopAll().finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const env = {
    node: process.version,
    platform: `${process.platform} ${release()}`,
    cpus: `${cpus().length} x ${cpus()[0]?.model ?? "?"}`,
    loadavg_at_start: loadavg().map((v) => Math.round(v * 100) / 100),
    grpc_js: packageVersion("@grpc/grpc-js"),
    protobuf_es: packageVersion("@bufbuild/protobuf"),
    commit: gitCommit(),
    quick: values.quick,
    started: new Date().toISOString(),
    message_bytes: messageSizes(),
    note: "client, daemon and plugins share the machine's cores; latencies are sequential (one call in flight) unless the scenario says otherwise",
  };
  process.stdout.write(`hookd bench${values.quick ? " (quick)" : ""}: node ${env.node}, ${env.cpus}, grpc-js ${env.grpc_js}, load ${env.loadavg_at_start.join(" ")}\n\n`);

  const results: Record<string, ScenarioResult> = {};
  const started = performance.now();
  const selected = SCENARIOS.filter((scenario) => only === undefined || only.has(scenario.name));
  const failed = (name: string, error: unknown): void => {
    const reason = error instanceof Error ? error.message : String(error);
    results[name] = { skipped: reason };
    process.stdout.write(`${error instanceof Skip ? "SKIPPED" : "FAILED"}: ${reason.split("\n")[0]}\n`);
  };
  try {
    // Latency scenarios: set every one up, then measure them interleaved.
    const measured: (Measured & { setup: LatencySetup; pids: number[] })[] = [];
    for (const scenario of selected) {
      if (scenario.type !== "latency") continue;
      process.stdout.write(`setup   ${pad(scenario.name, 22)} ${scenario.what} ... `);
      const t0 = performance.now();
      const mark = lab.mark();
      try {
        const setup = await scenario.setup(lab);
        const pids = [...lab.pidsSince(mark), ...(setup.sharedPids ?? [])];
        const cpu = (): number => pids.reduce((total, pid) => total + cpuMs(pid), setup.extraCpuMs?.() ?? 0);
        measured.push({ name: scenario.name, call: setup.call, bounds: scenario.bounds(values.quick), cpuMs: cpu, setup, pids });
        process.stdout.write(`ready (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
      } catch (error) {
        failed(scenario.name, error);
      }
    }
    if (measured.length > 0) {
      process.stdout.write(`measure ${measured.map((m) => m.name).join(", ")} (interleaved) ... `);
      const t0 = performance.now();
      const summaries = await interleaved(measured, SLICE_MS);
      process.stdout.write(`done (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
      for (const m of measured) {
        const summary = summaries.get(m.name);
        if (summary === undefined) continue;
        const mismatches = m.setup.mismatches?.() ?? 0;
        results[m.name] = {
          ...summary,
          warmup: m.bounds.warmup,
          ...(m.setup.perCall === undefined ? {} : { per_call_us: Math.round((summary.p50_us / m.setup.perCall) * 10) / 10 }),
          ...(mismatches > 0 ? { mismatches } : {}),
          ...(m.setup.note === undefined ? {} : { note: m.setup.note }),
        };
      }
    }
    await lab.release(0);
    // Group scenarios measure themselves, one after the other.
    for (const scenario of selected) {
      if (scenario.type !== "group") continue;
      process.stdout.write(`run     ${pad(scenario.name, 22)} ${scenario.what} ... `);
      const mark = lab.mark();
      const t0 = performance.now();
      try {
        Object.assign(results, await scenario.run(lab));
        process.stdout.write(`done (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);
      } catch (error) {
        for (const name of scenario.produces) failed(name, error);
      } finally {
        await lab.release(mark);
      }
    }
  } finally {
    await lab.close();
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  }

  // ---- the table ----
  process.stdout.write(`\n${pad("scenario", 22)}${padLeft("p50 µs", 10)}${padLeft("p99 µs", 10)}${padLeft("ops/s", 9)}${padLeft("cpu µs", 9)}${padLeft("n", 7)}  notes\n`);
  const order = SCENARIOS.flatMap((scenario) => (scenario.type === "group" ? scenario.produces : [scenario.name]));
  const ordered = order.filter((name) => results[name] !== undefined).map((name) => [name, results[name] as ScenarioResult] as const);
  for (const [name, r] of ordered) {
    if (r.skipped !== undefined) {
      process.stdout.write(`${pad(name, 22)}${padLeft("-", 10)}${padLeft("-", 10)}${padLeft("-", 9)}${padLeft("-", 9)}${padLeft("-", 7)}  skipped: ${r.skipped.split("\n")[0]}\n`);
      continue;
    }
    const notes = [
      r.rss_kb_per_session === undefined ? "" : `${r.rss_kb_per_session} KiB/session`,
      r.per_call_us === undefined ? "" : `${r.per_call_us} µs per tool call`,
      r.mismatches === undefined ? "" : `${r.mismatches} answers NOT by the plugin under test`,
      r.note ?? "",
    ].filter((note) => note !== "");
    process.stdout.write(
      `${pad(name, 22)}${padLeft(fmt(r.p50_us), 10)}${padLeft(fmt(r.p99_us), 10)}${padLeft(fmt(r.ops_per_s), 9)}${padLeft(fmt(r.cpu_us_per_call), 9)}${padLeft(fmt(r.count), 7)}  ${notes.join("; ")}\n`,
    );
  }

  // ---- ratios and targets ----
  const ratios: Record<string, number | null> = {};
  const targets: { name: string; how: string; value: number | null; target: string | null; met: boolean | null; bare?: { name: string; value: number | null; met: boolean | null } }[] = [];
  process.stdout.write(`\n${pad("ratio", 42)}${padLeft("measured", 10)}  ${pad("target", 9)} ${pad("", 16)} how\n`);
  for (const target of TARGETS) {
    const value = target.value(results);
    const bare = target.bare?.value(results);
    const ok = met(target, value);
    const wanted = target.target === undefined ? null : `${target.target.op} ${target.target.bound}`;
    ratios[target.name] = value ?? null;
    targets.push({
      name: target.name,
      how: target.how,
      value: value ?? null,
      target: wanted,
      met: ok ?? null,
      ...(target.bare === undefined ? {} : { bare: { name: target.bare.name, value: bare ?? null, met: met(target, bare) ?? null } }),
    });
    const how = target.bare === undefined ? target.how : `${target.how}; bare transport (${target.bare.name}): ${fmt(bare, 2)}`;
    process.stdout.write(`${pad(target.name, 42)}${padLeft(fmt(value, 2), 10)}  ${pad(wanted ?? "", 9)} ${pad(verdictOf(target, value, bare), 16)} ${how}\n`);
  }
  process.stdout.write(`\ntotal ${((performance.now() - started) / 1000).toFixed(1)} s; load average now ${loadavg().map((v) => v.toFixed(2)).join(" ")}\n`);

  if (values.json !== undefined) {
    const path = resolve(values.json);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, `${JSON.stringify({ scenarios: Object.fromEntries(ordered), ratios, targets, env: { ...env, loadavg_at_end: loadavg().map((v) => Math.round(v * 100) / 100) } }, null, 2)}\n`);
    process.stdout.write(`wrote ${path}\n`);
  }

  if (profileDir !== undefined) {
    // One directory per profiled process; its main thread's profile is the one with thread id 0.
    for (const name of (await readdir(profileDir)).sort()) {
      const main = (await readdir(join(profileDir, name)).catch(() => [])).find((file) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(file));
      if (main === undefined) continue;
      const made = results[name];
      const calls = made?.count === undefined ? undefined : made.count + (made.warmup ?? 0);
      process.stdout.write(`\n== profile ${name} (main thread)\n${summarizeProfile(JSON.parse(await readFile(join(profileDir, name, main), "utf8")) as unknown, calls)}`);
    }
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  async (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    await stopAll();
    process.exit(1);
  },
);
