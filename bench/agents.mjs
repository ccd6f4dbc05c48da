#!/usr/bin/env node
// `npm run bench:agents`: the real agents' per-event hook latency through each path to hookd
// (bench/agents/latency.run.ts, run by vitest so it shares the real-agent lane's TypeScript
// support). HOOKD_BENCH_RUNS sets the runs per agent and path (default 5).
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const vitest = join(root, "node_modules/vitest/vitest.mjs");
const run = spawnSync(process.execPath, [vitest, "run", "--project", "agents-bench"], { cwd: root, stdio: "inherit", env: { ...process.env, HOOKD_BENCH_AGENTS: "1" } });
process.exit(run.status ?? 1);
