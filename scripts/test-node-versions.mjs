// The vitest suite on every supported Node: the Node running npm, then each version
// scripts/setup-node-versions.sh fetched (its bin directories as arguments). Each run
// writes its own JSON report; one closing line per Node ("node v22.23.5: N passed, ...") and the
// total. Every version runs even when an earlier one failed; the exit code is non-zero when any did.
//   node scripts/test-node-versions.mjs $(bash scripts/setup-node-versions.sh)
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { delimiter, join } from "node:path";

const bins = process.argv.slice(2).filter((arg) => arg !== "");
const vitest = join("node_modules", "vitest", "vitest.mjs");
mkdirSync(join("test", ".tmp"), { recursive: true });

const runs = [{ node: process.execPath, bin: undefined }, ...bins.map((bin) => ({ node: join(bin, "node"), bin }))];
const results = [];
for (const run of runs) {
  const version = spawnSync(run.node, ["--version"], { encoding: "utf8" }).stdout.trim();
  const report = join("test", ".tmp", `vitest-report-${version}.json`);
  rmSync(report, { force: true });
  console.log(`\n== the suite on Node ${version} (${run.node})\n`);
  // The tests start daemons and plugins with process.execPath, so they run on this Node too.
  const env = run.bin === undefined ? process.env : { ...process.env, PATH: `${run.bin}${delimiter}${process.env.PATH ?? ""}` };
  const child = spawnSync(run.node, [vitest, "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`], { stdio: "inherit", env });
  results.push({ version, status: child.status, totals: totals(report) });
}

console.log("");
let failed = false;
for (const { version, status, totals: t } of results) {
  if (t === undefined) {
    console.log(`node ${version}: no report (vitest exited ${status})`);
    failed = true;
    continue;
  }
  console.log(`node ${version}: ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped`);
  if (t.failed > 0 || t.passed === 0 || status !== 0) failed = true;
}
const sum = (key) => results.reduce((total, { totals: t }) => total + (t?.[key] ?? 0), 0);
console.log(`tests: ${sum("passed")} passed, ${sum("failed")} failed, ${sum("skipped")} skipped (on ${results.length} Node versions)`);
process.exitCode = failed ? 1 : 0;

function totals(path) {
  try {
    const report = JSON.parse(readFileSync(path, "utf8"));
    return { passed: report.numPassedTests, failed: report.numFailedTests, skipped: report.numPendingTests + report.numTodoTests };
  } catch {
    return undefined;
  }
}

