// Runs several steps of `npm test` at once: steps that only read the working tree and each use at
// most one core or mostly wait (typecheck, lint, the Python and Go tests). Each says it started on
// stderr; its own output is held and printed whole when it ends, with the line scripts/step.mjs
// prints, so two steps' logs never interleave. Every step runs to its end; the exit code is the
// first failed step's, in the order given.
//
//   node scripts/steps-at-once.mjs "LABEL" "SHELL COMMAND" ["LABEL" "SHELL COMMAND"]...
import { spawn } from "node:child_process";

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0) {
  process.stderr.write('usage: node scripts/steps-at-once.mjs "LABEL" "SHELL COMMAND" ["LABEL" "SHELL COMMAND"]...\n');
  process.exit(2);
}
const steps = [];
for (let index = 0; index < args.length; index += 2) steps.push({ label: args[index], command: args[index + 1] });

const colour = process.stderr.isTTY === true && (process.env.NO_COLOR ?? "") === "" && process.env.TERM !== "dumb";
const dim = (text) => (colour ? `\x1b[2m${text}\x1b[0m` : text);
// npm forwards SIGINT/SIGTERM to the process group; the steps get them themselves.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {});

const codes = await Promise.all(steps.map(runStep));
process.exitCode = codes.find((code) => code !== 0) ?? 0;

function runStep({ label, command }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
    process.stderr.write(`${dim("▸")} ${label} …\n`);
    const held = [];
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk) => held.push({ stream: process.stdout, chunk }));
    child.stderr.on("data", (chunk) => held.push({ stream: process.stderr, chunk }));
    child.once("error", (error) => {
      process.stderr.write(`${label}: failed to start: ${error.message}\n`);
      resolve(1);
    });
    child.once("close", (code, signal) => {
      for (const { stream, chunk } of held) stream.write(chunk);
      if (code === 0) process.stderr.write(`${dim(`  ${label}: done in ${seconds()}`)}\n`);
      else process.stderr.write(`  ${label}: failed (${signal === null ? `exit ${code}` : signal}) after ${seconds()}\n`);
      resolve(code ?? 1);
    });
  });
}
