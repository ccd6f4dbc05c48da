// scripts/steps-at-once.mjs, which `npm test` runs typecheck, lint and the Python and Go tests
// through: the steps really run at the same time (one waits on a FIFO only the other writes), each
// step's output comes out whole when it ends, and a failed step fails the run after every step ended.
import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { ROOT } from "./support.js";

const SCRIPT = join(ROOT, "scripts/steps-at-once.mjs");
const scratch = mkdtempSync(join(tmpdir(), "hookd-steps-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let running: ChildProcess | undefined;
// A run that waits forever (its steps one after the other) must not outlive its test: the script
// and its steps' shells are one process group, killed whole.
afterEach(() => {
  if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) process.kill(-running.pid, "SIGKILL");
  running = undefined;
});

function stepsAtOnce(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { stdio: ["ignore", "pipe", "pipe"], detached: true });
    running = child;
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** A FIFO: opening it to read blocks until another process opens it to write. */
function fifo(name: string): string {
  const path = join(scratch, name);
  execFileSync("mkfifo", [path]);
  return path;
}

describe("scripts/steps-at-once.mjs", () => {
  it("runs the steps at once and prints each one's output whole when it ends", async () => {
    const handoff = fifo("handoff");
    const result = await stepsAtOnce(
      "reader",
      `echo reader-1; cat '${handoff}'; echo reader-2`,
      "writer",
      `echo writer-1; echo passed > '${handoff}'; echo writer-2; echo writer-err >&2`,
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("reader-1\npassed\nreader-2\n");
    expect(result.stdout).toContain("writer-1\nwriter-2\n");
    expect(result.stderr).toMatch(/^▸ reader …\n▸ writer …\n/);
    expect(result.stderr).toMatch(/writer-err\n {2}writer: done in \d+\.\d s\n/);
    expect(result.stderr).toMatch(/ {2}reader: done in \d+\.\d s\n/);
    expect(result.stderr).not.toContain("\u001b[");
  });

  it("runs every step to its end and exits with the first failed step's code", async () => {
    const result = await stepsAtOnce("typecheck", "echo fine", "lint", "echo bad >&2; exit 3", "tests", "exit 4");
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("fine\n");
    expect(result.stderr).toMatch(/ {2}typecheck: done in \d+\.\d s\n/);
    expect(result.stderr).toMatch(/bad\n {2}lint: failed \(exit 3\) after \d+\.\d s\n/);
    expect(result.stderr).toMatch(/ {2}tests: failed \(exit 4\) after \d+\.\d s\n/);
  });

  it("wants labels and commands in pairs (exit 2)", async () => {
    expect((await stepsAtOnce()).code).toBe(2);
    const odd = await stepsAtOnce("lint", "true", "typecheck");
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain("usage:");
  });
});
