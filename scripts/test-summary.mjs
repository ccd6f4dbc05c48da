// Prints vitest's totals as one plain closing line ("tests: N passed, N failed, N skipped"), read
// from the JSON report `npm test` asks vitest to write. Exits non-zero when any test failed.
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync(process.argv[2] ?? "test/.tmp/vitest-report.json", "utf8"));
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
process.exitCode = report.numFailedTests > 0 || report.numPassedTests === 0 ? 1 : 0;
