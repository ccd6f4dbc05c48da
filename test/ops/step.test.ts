// scripts/step.mjs, what `npm start` and `npm test` run each long step through: one line on
// stderr when the step starts and one when it ends, the command's stdout and exit code untouched
// (scripts/test-node-versions.mjs and .ci/run read them), and no colour off a terminal.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support.js";

const STEP = join(ROOT, "scripts/step.mjs");

function step(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [STEP, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("scripts/step.mjs", () => {
  it("announces a step, passes its output through and says when it is done", async () => {
    const result = await step("build: the thing", process.execPath, "-e", "process.stdout.write('made\\n'); process.stderr.write('note\\n')");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("made\n");
    expect(result.stderr).toMatch(/^▸ build: the thing …\nnote\n {2}build: the thing: done in \d+\.\d s\n$/);
    expect(result.stderr).not.toContain("\u001b[");
  });

  it("passes a failing step's exit code through and says it failed", async () => {
    const result = await step("lint", process.execPath, "-e", "process.exit(3)");
    expect(result.code).toBe(3);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^▸ lint …\n {2}lint: failed \(exit 3\) after \d+\.\d s\n$/);
  });

  it("fails with exit 1 when the command cannot start, and 2 without a command", async () => {
    const missing = await step("setup", join(ROOT, "no-such-command"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/setup: failed to start .*no-such-command: spawn .*ENOENT/);
    expect((await step("alone")).code).toBe(2);
  });
});
