// The program a Node spare preloads (`node --require PRELOAD SLOT`): once node has started it waits
// for its one run's request, takes the run's environment, cwd and argv, and points SLOT (a symlink
// node resolves as its main module only after the preload) at the script, so node then runs it as
// `node script` would. A string, so the build needs no data files.

/**
 * Protocol on fd 3 (a socket pair): out "r" once node has started; in, one JSON object up to EOF:
 * {script, args, env, cwd, umask}. EOF without a request (the daemon went away) ends the spare quietly.
 */
export const NODE_SPARE_PRELOAD = String.raw`"use strict";
const fs = require("node:fs");
const CONTROL = 3;
const slot = process.argv[1];
// Builtins hook scripts use (stdin and stdout as pipes, child processes), loaded while idle: each
// loads once per process, and nothing of them is configured by the run's environment.
for (const name of ["node:net", "node:tty", "node:stream", "node:url", "node:util", "node:child_process", "node:readline"]) require(name);
fs.writeSync(CONTROL, "r");
const chunks = [];
const buffer = Buffer.alloc(65536);
for (;;) {
  let read;
  try {
    read = fs.readSync(CONTROL, buffer, 0, buffer.length, null);
  } catch (error) {
    if (error.code !== "EAGAIN") throw error;
    // Not expected (the spare's end of the pair blocks); waits without spinning if it happens.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    continue;
  }
  if (read === 0) break;
  chunks.push(Buffer.from(buffer.subarray(0, read)));
}
fs.closeSync(CONTROL);
if (chunks.length === 0) process.exit(0);
const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));
// The run's environment exactly: what node read at its start came from the same start variables.
for (const name of Object.keys(process.env)) delete process.env[name];
Object.assign(process.env, request.env);
process.umask(request.umask);
try {
  process.chdir(request.cwd);
} catch (error) {
  process.stderr.write("/bin/sh: 1: cd: can't cd to " + request.cwd + " (" + error.message + ")\n");
  process.exit(2);
}
fs.symlinkSync(request.script, slot + ".next");
fs.renameSync(slot + ".next", slot);
process.argv.splice(1, process.argv.length - 1, request.script, ...request.args);
// A spawned script sees no flags, and a child it forks must not preload this.
process.execArgv.length = 0;
delete require.cache[__filename];
`;
