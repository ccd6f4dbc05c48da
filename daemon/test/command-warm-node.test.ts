// Warm Node runs equal spawned ones: every script of the corpus (fixtures/warm-corpus-node: ESM
// and CommonJS, reads its environment, writes beside its cwd, exits 3, throws, leaves a rejection
// unhandled, prints a lot, reads stdin, starts children, dies from a signal) runs both ways with
// the same inputs through real processes, and the exit code, streams and side effects match.
// Also: the timeout kills the spare's group, a changed script runs its new content, a burst beyond
// the spares spawns, and what cannot run warm says why.
import { liveMembers } from "../../test/command/support.js";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunResult } from "../src/processes/hook-run.js";
import { childEnv } from "../src/child-env.js";
import { runHook } from "../src/processes/runner.js";
import type { RunSpec } from "../src/processes/runner.js";
import { WarmPool } from "../src/processes/warm/pool.js";
import type { FallbackCode } from "../src/processes/warm/pool.js";

const CORPUS = join(import.meta.dirname, "fixtures/warm-corpus-node");
const PAYLOAD = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf build" } });

let home: string;
let pool: WarmPool;
const fallbacks: string[] = [];
const env = (): NodeJS.ProcessEnv => childEnv({ PATH: `${join(process.execPath, "..")}:/usr/bin:/bin`, HOME: home, HOOK_MARK: "m1", NOTIFY_SOCKET: "/run/systemd/notify", WATCHDOG_USEC: "1000", LISTEN_FDS: "1" });

function spec(command: string, cwd: string, overrides: Partial<RunSpec> = {}): RunSpec {
  return { command, cwd, env: env(), stdin: PAYLOAD, timeoutMs: 20_000, signal: new AbortController().signal, ...overrides };
}

/** A warm run once a spare is ready (each run takes one; its replacement starts off the run's path). */
async function warmRun(run: RunSpec, on: WarmPool = pool): Promise<RunResult> {
  await on.prepare(run.command, run.cwd, run.env);
  const promise = on.run(run);
  if (promise === undefined) throw new Error(`${run.command} did not run warm: ${fallbacks.join("; ")}`);
  return promise;
}

/** What a caller can observe of a run (not its duration or process group id). */
function observable(result: RunResult): Record<string, unknown> {
  return { end: result.end, code: result.end === "exited" ? result.code : undefined, stdout: result.stdout, stderr: result.stderr, truncated: result.truncated };
}

const scratch = (): string => mkdtempSync(join(home, "cwd-"));

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), "hookd-warm-node-test-"));
  pool = new WarmPool({ onFallback: (command, reason) => fallbacks.push(`${command}: ${reason}`) });
});

afterAll(() => {
  pool.close();
  rmSync(home, { recursive: true, force: true });
});

describe("the Node corpus, spawned and warm", () => {
  const scripts = ["esm_answer.mjs", "cjs_main.js", "reads_env.mjs", "exit3.mjs", "throws.js", "throws.mjs", "rejects.mjs", "large_output.js", "reads_stdin.js", "children.mjs", "killed.mjs"];
  it.each(scripts)("%s: same exit code, stdout and stderr", async (script) => {
    const command = `node ${join(CORPUS, script)} first-arg`;
    const spawned = await runHook(spec(command, CORPUS));
    const warm = await warmRun(spec(command, CORPUS));
    expect(observable(warm)).toEqual(observable(spawned));
  });

  it("runs a script named relative to the cwd, by a path to node, and by its shebang, with the argv the shell gives", async () => {
    for (const command of ["node cjs_main.js a b", `${process.execPath} esm_answer.mjs x`, "./shebang.mjs one two"]) {
      const spawned = await runHook(spec(command, CORPUS));
      const warm = await warmRun(spec(command, CORPUS));
      expect(observable(warm)).toEqual(observable(spawned));
    }
  });

  it("writes files relative to its own cwd, as a spawn does", async () => {
    const [spawnedDir, warmDir] = [scratch(), scratch()];
    const command = `node ${join(CORPUS, "write_relative.mjs")} out.txt`;
    const spawned = await runHook(spec(command, spawnedDir));
    const warm = await warmRun(spec(command, warmDir));
    expect(observable(warm)).toEqual(observable(spawned));
    expect(readFileSync(join(warmDir, "out.txt"), "utf8")).toBe(readFileSync(join(spawnedDir, "out.txt"), "utf8"));
  });

  it("the environment is the hook's: none of the daemon's variables, PWD as the shell exports it", async () => {
    const facts = JSON.parse((await warmRun(spec(`node ${join(CORPUS, "reads_env.mjs")}`, home))).stdout) as Record<string, unknown>;
    expect(facts).toMatchObject({ mark: "m1", pwd: home, cwd: home, notify: null });
    expect(facts.names).not.toContain("WATCHDOG_USEC");
    expect(facts.names).not.toContain("LISTEN_FDS");
  });

  it("the umask is the daemon's at the run, as a spawn inherits it, even when it changed after the spare started", async () => {
    const command = `node ${join(CORPUS, "reads_env.mjs")}`;
    await pool.prepare(command, CORPUS, env());
    const before = process.umask(0o077);
    try {
      const umaskOf = (result: RunResult): unknown => (JSON.parse(result.stdout) as { umask: unknown }).umask;
      expect(umaskOf(await warmRun(spec(command, CORPUS)))).toBe("77");
      expect(umaskOf(await runHook(spec(command, CORPUS)))).toBe("77");
    } finally {
      process.umask(before);
    }
  });

  it("a hanging script is killed at its timeout with its whole process group, children included", async () => {
    let pgid: number | undefined;
    const warm = await warmRun(spec(`node ${join(CORPUS, "hangs.mjs")}`, CORPUS, { timeoutMs: 1_500, onSpawn: (id) => (pgid = id) }));
    expect(warm).toMatchObject({ end: "timeout", stdout: "started\n" });
    expect(pgid).toBeDefined();
    // SIGKILL is delivered, not awaited: a member not yet scheduled to die reads as live for a moment.
    await vi.waitFor(() => expect(liveMembers(pgid ?? 0)).toEqual([]), { timeout: 5_000, interval: 10 });
  });

  it("cancellation ends a warm run as cancelled", async () => {
    const controller = new AbortController();
    const run = warmRun(spec(`node ${join(CORPUS, "hangs.mjs")}`, CORPUS, { signal: controller.signal, onSpawn: () => controller.abort() }));
    expect((await run).end).toBe("cancelled");
  });
});

describe("Node spares", () => {
  it("a script changed between runs runs its new content", async () => {
    const dir = scratch();
    const script = join(dir, "hook.mjs");
    writeFileSync(script, 'console.log("version one")\n');
    expect((await warmRun(spec(`node ${script}`, dir))).stdout).toBe("version one\n");
    writeFileSync(script, 'console.log("version two")\n');
    expect((await warmRun(spec(`node ${script}`, dir))).stdout).toBe("version two\n");
  });

  it("a burst beyond the spares spawns the rest, each with its own input and answer", async () => {
    const own = new WarmPool({ nodeSpares: 2 });
    const command = `node ${join(CORPUS, "reads_stdin.js")}`;
    try {
      await own.prepare(command, CORPUS, env());
      // At most two spares: of three runs started at once, the first takes a ready one and the third finds none.
      const runs = ["a", "bb", "ccc"].map((tool) => ({ tool, run: own.run(spec(command, CORPUS, { stdin: JSON.stringify({ tool_name: tool }) })) }));
      const results = await Promise.all(runs.map(({ tool, run }) => run ?? runHook(spec(command, CORPUS, { stdin: JSON.stringify({ tool_name: tool }) }))));
      expect(results.map((r) => r.stdout)).toEqual(["a", "bb", "ccc"].map((tool) => `${JSON.stringify({ size: JSON.stringify({ tool_name: tool }).length, tool })}\n`));
      expect(runs[0]?.run).toBeDefined();
      expect(runs[2]?.run).toBeUndefined();
      expect(own.stats().fallbacks.no_spare).toBeGreaterThanOrEqual(1);
    } finally {
      own.close();
    }
  });

  it("a spare starts with only what node reads at its start, never the daemon's variables", async () => {
    const own = new WarmPool();
    try {
      await own.prepare(`node ${join(CORPUS, "esm_answer.mjs")}`, CORPUS, { ...env(), LANG: "C.UTF-8" });
      const [pid] = own.sparePids();
      const names = readFileSync(`/proc/${pid ?? 0}/environ`, "utf8").split("\0").filter((entry) => entry !== "").map((entry) => entry.split("=")[0]);
      expect(names.sort()).toEqual(["HOME", "LANG"]);
    } finally {
      own.close();
    }
  });

  it("an idle spare killed from outside is replaced and counted", async () => {
    const exited: string[] = [];
    const own = new WarmPool({ onServerExit: (_, why) => exited.push(why) });
    const command = `node ${join(CORPUS, "esm_answer.mjs")}`;
    try {
      await own.prepare(command, CORPUS, env());
      const [pid] = own.sparePids();
      process.kill(pid ?? 0, "SIGKILL");
      await vi.waitFor(() => expect(exited).toEqual(["was killed by SIGKILL"]), { timeout: 5_000, interval: 10 });
      expect(own.stats().restarts).toBe(1);
      expect(observable(await warmRun(spec(command, CORPUS), own))).toEqual(observable(await runHook(spec(command, CORPUS))));
    } finally {
      own.close();
    }
  });

  it("says why a node command runs as a spawn, and counts it", () => {
    const script = join(CORPUS, "esm_answer.mjs");
    const cases: Record<string, [FallbackCode, string]> = {
      [`node --import ./loader.mjs ${script}`]: ["interpreter_options", "node runs no script file, or takes options (-e, --import, --require, flags)"],
      "node -e 1": ["interpreter_options", "node runs no script file, or takes options (-e, --import, --require, flags)"],
      "node missing.mjs": ["script_not_found", "the script missing.mjs is not a file"],
    };
    for (const [command, [code, reason]] of Object.entries(cases)) {
      expect(WarmPool.spawnReason(command, CORPUS, env())).toBe(reason);
      const before = pool.stats().fallbacks[code] ?? 0;
      expect(pool.run(spec(command, CORPUS))).toBeUndefined();
      expect(pool.stats().fallbacks[code]).toBe(before + 1);
      expect(fallbacks).toContain(`${command}: ${reason}`);
    }
    expect(WarmPool.spawnReason(`node ${script}`, CORPUS, { ...env(), NODE_OPTIONS: "--require ./x.cjs" })).toBe("NODE_OPTIONS is set (its flags and loaders apply at node's start)");
  });
});
