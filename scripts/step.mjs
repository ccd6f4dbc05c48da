// Runs one long step of `npm start` / `npm test` and says so on stderr: one line when it starts,
// one when it ends (with how long it took, or how it failed), so a first run is never minutes of
// silence and a warm run stays short. The command's own output and exit code pass through
// untouched (stdout is left alone: callers redirect or parse it).
//
//   node scripts/step.mjs "LABEL" COMMAND [ARGS...]
import { spawn } from "node:child_process";

const [label, command, ...args] = process.argv.slice(2);
if (label === undefined || command === undefined) {
  process.stderr.write('usage: node scripts/step.mjs "LABEL" COMMAND [ARGS...]\n');
  process.exit(2);
}

const colour = process.stderr.isTTY === true && (process.env.NO_COLOR ?? "") === "" && process.env.TERM !== "dumb";
const dim = (text) => (colour ? `\x1b[2m${text}\x1b[0m` : text);
const started = Date.now();
const seconds = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;

process.stderr.write(`${dim("▸")} ${label} …\n`);
const child = spawn(command, args, { stdio: "inherit" });
// npm forwards SIGINT/SIGTERM to the process group; the child gets them itself.
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => {});
child.once("error", (error) => {
  process.stderr.write(`${label}: failed to start ${command}: ${error.message}\n`);
  process.exit(1);
});
child.once("exit", (code, signal) => {
  if (code === 0) {
    process.stderr.write(`${dim(`  ${label}: done in ${seconds()}`)}\n`);
    process.exit(0);
  }
  process.stderr.write(`  ${label}: failed (${signal === null ? `exit ${code}` : signal}) after ${seconds()}\n`);
  process.exit(code ?? 1);
});
