// The vitest suite on every supported Node, lane by lane (scripts/test-lanes.mjs): every lane on the
// Node running npm, then the lanes whose behaviour depends on the Node version on each version
// scripts/setup-node-versions.sh fetched (its bin directories as arguments). Each run writes its own
// JSON report; one closing line per Node with the lanes it ran, and the total. Every version runs
// even when an earlier one failed; the exit code is non-zero when any did.
//   node scripts/test-node-versions.mjs [--lane NAME]... [--dry-run] $(bash scripts/setup-node-versions.sh)
// --lane runs only the named lanes (each where it belongs); --dry-run prints what would run.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { LANES, lanesForNode, resolveLanes } from "./test-lanes.mjs";

const root = resolve(import.meta.dirname, "..");
const { bins, only, dryRun } = parseArguments(process.argv.slice(2));

let lanes;
try {
  lanes = resolveLanes(root).filter(({ lane }) => only.length === 0 || only.includes(lane.name));
} catch (error) {
  console.error(`test-node-versions: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

const runs = [{ node: process.execPath, bin: undefined }, ...bins.map((bin) => ({ node: join(bin, "node"), bin }))].map((run, index) => {
  const version = spawnSync(run.node, ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
  if (!/^v\d+\./.test(version)) usage(`${run.node} is not a Node.js binary (is ${run.bin} a bin directory from scripts/setup-node-versions.sh?)`);
  return { ...run, version, lanes: lanesForNode(lanes, index === 0) };
});

const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
mkdirSync(join(root, "test", ".tmp"), { recursive: true });
const results = [];
for (const run of runs) {
  if (run.lanes.length === 0) {
    console.log(`\n== Node ${run.version} (${run.node}): none of these lanes runs on it\n`);
    continue;
  }
  const files = run.lanes.reduce((count, { files: laneFiles }) => count + laneFiles.length, 0);
  console.log(`\n== the suite on Node ${run.version} (${run.node}): ${count(run.lanes.length, "lane")}, ${count(files, "file")}: ${run.lanes.map(({ lane }) => lane.name).join(", ")}\n`);
  if (dryRun) continue;
  const report = join(root, "test", ".tmp", `vitest-report-${run.version}.json`);
  rmSync(report, { force: true });
  // The tests start daemons and plugins with process.execPath, so they run on this Node too.
  const env = run.bin === undefined ? process.env : { ...process.env, PATH: `${run.bin}${delimiter}${process.env.PATH ?? ""}` };
  const projects = run.lanes.flatMap(({ lane }) => ["--project", lane.name]);
  const child = spawnSync(run.node, [vitest, "run", ...projects, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], { cwd: root, stdio: "inherit", env });
  results.push({ run, status: child.status, totals: totals(report) });
}
if (dryRun) process.exit(0);

console.log("");
let failed = false;
for (const { run, status, totals: t } of results) {
  if (t === undefined) {
    console.log(`node ${run.version}: no report (vitest exited ${status}) ${lanesRan(run.lanes)}`);
    failed = true;
    continue;
  }
  console.log(`node ${run.version}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped ${lanesRan(run.lanes)}`);
  if (t.failed > 0 || t.passed === 0 || status !== 0) failed = true;
}
const sum = (key) => results.reduce((total, { totals: t }) => total + (t?.[key] ?? 0), 0);
console.log(`tests: ${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped (on ${results.length} Node versions)`);
process.exitCode = failed ? 1 : 0;

/** The lanes a run ran, or, of every lane, the ones it left out: short enough for one closing line. */
function lanesRan(ran) {
  if (only.length > 0) return `in ${ran.map(({ lane }) => lane.name).join(", ")}`;
  const names = new Set(ran.map(({ lane }) => lane.name));
  const left = lanes.filter(({ lane }) => !names.has(lane.name)).map(({ lane }) => lane.name);
  return left.length === 0 ? `in every lane (${names.size})` : `in ${count(names.size, "lane")} (not ${left.join(", ")})`;
}

function count(n, noun) {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

function parseArguments(args) {
  const parsed = { bins: [], only: [], dryRun: false };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index];
    if (arg === "") continue;
    if (arg === "--dry-run") parsed.dryRun = true;
    else if (arg === "--lane") {
      const name = args[++index];
      if (name === undefined || !LANES.some((lane) => lane.name === name)) usage(`--lane needs one of: ${LANES.map((lane) => lane.name).join(", ")}`);
      parsed.only.push(name);
    } else if (arg.startsWith("-")) usage(`unknown option ${arg}`);
    else parsed.bins.push(arg);
  }
  return parsed;
}

function usage(message) {
  console.error(`test-node-versions: ${message}\nusage: node scripts/test-node-versions.mjs [--lane NAME]... [--dry-run] [NODE_BIN_DIR]...`);
  process.exit(2);
}

function totals(path) {
  try {
    const report = JSON.parse(readFileSync(path, "utf8"));
    return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
  } catch {
    return undefined;
  }
}
