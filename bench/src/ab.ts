// A/B: the same latency scenarios on two daemon builds at once, measured interleaved, so a change's
// effect shows through the machine's noise. Build B is usually the working tree's daemon/dist and
// A a copy of it with the change reverted (see bench/README.md).
//   node bench/dist/ab.js --a PATH/cli.js --b PATH/cli.js [--scenarios inprocess,remote_uds] [--quick]
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Lab } from "./lab.js";
import { cpuMs, stopAll } from "./procs.js";
import { SCENARIOS } from "./scenarios.js";
import { interleaved } from "./stats.js";
import type { Measured } from "./stats.js";

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    a: { type: "string" },
    b: { type: "string" },
    scenarios: { type: "string", default: "inprocess" },
    quick: { type: "boolean", default: false },
    rounds: { type: "string", default: "1" },
  },
  strict: true,
});
if (values.a === undefined || values.b === undefined) throw new Error("--a CLI --b CLI");

const dir = await mkdtemp(join(tmpdir(), "hookd-ab-"));
const builds = { A: resolve(values.a), B: resolve(values.b) };
const labs = Object.fromEntries(Object.entries(builds).map(([side, cli]) => [side, new Lab({ quick: values.quick, dir, profileScenarios: new Set(), cli })]));
try {
  const entries: Measured[] = [];
  for (const name of values.scenarios.split(",")) {
    const scenario = SCENARIOS.find((s) => s.name === name);
    if (scenario?.type !== "latency") throw new Error(`not a latency scenario: ${name}`);
    for (const [side, lab] of Object.entries(labs)) {
      const mark = lab.mark();
      const setup = await scenario.setup(lab);
      const pids = lab.pidsSince(mark);
      entries.push({ name: `${name}:${side}`, call: setup.call, bounds: scenario.bounds(values.quick), cpuMs: () => pids.reduce((total, pid) => total + cpuMs(pid), 0) });
    }
  }
  for (let round = 1; round <= Number(values.rounds); round++) {
    const summaries = await interleaved(entries, 50);
    process.stdout.write(`round ${round}\n`);
    for (const entry of entries) {
      const summary = summaries.get(entry.name);
      if (summary === undefined) continue;
      process.stdout.write(
        `  ${entry.name.padEnd(22)} p50 ${summary.p50_us.toFixed(0).padStart(6)} µs  p90 ${summary.p90_us.toFixed(0).padStart(6)} µs  p99 ${summary.p99_us.toFixed(0).padStart(7)} µs  mean ${summary.mean_us.toFixed(0).padStart(6)} µs  cpu ${String(summary.cpu_us_per_call ?? "-").padStart(5)} µs/call  n ${summary.count}\n`,
      );
    }
  }
} finally {
  for (const lab of Object.values(labs)) await lab.close();
  await stopAll();
  await rm(dir, { recursive: true, force: true });
}
process.exit(0);
