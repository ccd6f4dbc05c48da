// Warm Python runs equal spawned ones: every script of the corpus (fixtures/warm-corpus: the
// agents' documentation examples and scripts that read their environment, write beside their
// cwd, die from a signal, print a lot, read stdin twice, start children, hang) runs both ways with
// the same inputs, through real processes, and the exit code, streams and side effects match.
// Also: the timeout kills the warm run's process group, a changed script runs its new content,
// a crashed fork server is started again and counted, and what cannot run warm says why.
import { liveMembers } from "../../test/command/support.js";
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { RunResult } from "../src/processes/hook-run.js";
import { childEnv } from "../src/child-env.js";
import { runHook } from "../src/processes/runner.js";
import type { RunSpec } from "../src/processes/runner.js";
import { WarmPool } from "../src/processes/warm/pool.js";
import type { FallbackCode } from "../src/processes/warm/pool.js";

const CORPUS = resolve(import.meta.dirname, "fixtures/warm-corpus");
const PYTHON = "/usr/bin/python3";
const PAYLOAD = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "grep -r TODO ." } });

let home: string;
let pool: WarmPool;
const fallbacks: string[] = [];
const serverExits: Array<() => void> = [];
const env = (): NodeJS.ProcessEnv => childEnv({ PATH: "/usr/bin:/bin", HOME: home, HOOK_MARK: "m1", NOTIFY_SOCKET: "/run/systemd/notify" });

function spec(command: string, cwd: string, overrides: Partial<RunSpec> = {}): RunSpec {
  return { command, cwd, env: env(), stdin: PAYLOAD, timeoutMs: 20_000, signal: new AbortController().signal, ...overrides };
}

function warmRun(run: RunSpec): Promise<RunResult> {
  const promise = pool.run(run);
  if (promise === undefined) throw new Error(`${run.command} did not run warm: ${fallbacks.join("; ")}`);
  return promise;
}

/** What a caller can observe of a run (not its duration or process group id). */
function observable(result: RunResult): Record<string, unknown> {
  return { end: result.end, code: result.end === "exited" ? result.code : undefined, stdout: result.stdout, stderr: result.stderr, truncated: result.truncated };
}

const scratch = (): string => mkdtempSync(join(home, "cwd-"));

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), "hookd-warm-test-"));
  pool = new WarmPool({ onFallback: (command, reason) => fallbacks.push(`${command}: ${reason}`), onServerExit: () => serverExits.shift()?.() });
  await pool.prepare(`python3 ${join(CORPUS, "json_answer.py")}`, CORPUS, env());
});

afterAll(() => {
  pool.close();
  rmSync(home, { recursive: true, force: true });
});

describe("the corpus, spawned and warm", () => {
  const sameCwd = ["bash_validator.py", "json_answer.py", "process_facts.py", "large_output.py", "stdin_twice.py", "uncaught.py", "exit_message.py", "killed_by_signal.py", "children.py", "atexit_thread.py", "corrupts_interpreter.py"];
  it.each(sameCwd)("%s: same exit code, stdout and stderr", async (script) => {
    const command = `python3 ${join(CORPUS, script)} first-arg`;
    const spawned = await runHook(spec(command, CORPUS));
    const warm = await warmRun(spec(command, CORPUS));
    expect(observable(warm)).toEqual(observable(spawned));
  });

  it("runs a script named relative to the cwd, and one run by its shebang, with the argv the shell gives", async () => {
    for (const command of ["python3 process_facts.py a b", "./bash_validator.py", `${CORPUS}/process_facts.py x`]) {
      const spawned = await runHook(spec(command, CORPUS));
      const warm = await warmRun(spec(command, CORPUS));
      expect(observable(warm)).toEqual(observable(spawned));
    }
  });

  it("the process facts are those of a spawn: the session and group of the run, cwd, environment without the daemon's variables", async () => {
    const warm = await warmRun(spec(`python3 ${join(CORPUS, "process_facts.py")}`, home));
    const facts = JSON.parse(warm.stdout) as { env: Record<string, string>; cwd: string; name: string };
    // The group and session are led by the script's parent, as they are by `/bin/sh -c` in a spawn.
    expect(facts).toMatchObject({ group_led_by_parent: true, session_is_group: true, cwd: home, name: "__main__" });
    expect(facts.env).toMatchObject({ HOOK_MARK: "m1", PWD: home });
    expect(facts.env.NOTIFY_SOCKET).toBeUndefined();
  });

  it("writes files relative to its own cwd, as a spawn does", async () => {
    const [spawnedDir, warmDir] = [scratch(), scratch()];
    const command = `python3 ${join(CORPUS, "write_relative.py")} out.txt`;
    const spawned = await runHook(spec(command, spawnedDir));
    const warm = await warmRun(spec(command, warmDir));
    expect(observable(warm)).toEqual(observable(spawned));
    expect(readFileSync(join(warmDir, "out.txt"), "utf8")).toBe(readFileSync(join(spawnedDir, "out.txt"), "utf8"));
  });

  it("a script corrupting its interpreter affects only its own run", async () => {
    const command = `python3 ${join(CORPUS, "json_answer.py")}`;
    await warmRun(spec(`python3 ${join(CORPUS, "corrupts_interpreter.py")}`, CORPUS));
    expect(observable(await warmRun(spec(command, CORPUS)))).toEqual(observable(await runHook(spec(command, CORPUS))));
  });

  it("a hanging script is killed at its timeout with its whole process group, children included", async () => {
    let pgid: number | undefined;
    const warm = await warmRun(spec(`python3 ${join(CORPUS, "hangs.py")}`, CORPUS, { timeoutMs: 1_500, onSpawn: (id) => (pgid = id) }));
    expect(warm).toMatchObject({ end: "timeout", stdout: "started\n" });
    expect(pgid).toBeDefined();
    // SIGKILL is delivered, not awaited: a member not yet scheduled to die reads as live for a moment.
    await vi.waitFor(() => expect(liveMembers(pgid ?? 0)).toEqual([]), { timeout: 5_000, interval: 10 });
  });

  it("cancellation ends a warm run as cancelled and kills its group", async () => {
    const controller = new AbortController();
    const run = warmRun(spec(`python3 ${join(CORPUS, "hangs.py")}`, CORPUS, { signal: controller.signal, onSpawn: () => controller.abort() }));
    expect((await run).end).toBe("cancelled");
  });
});

describe("warm runs and their fork server", () => {
  it("a script changed between runs runs its new content", async () => {
    const dir = scratch();
    const script = join(dir, "hook.py");
    writeFileSync(script, 'print("version one")\n');
    expect((await warmRun(spec(`python3 ${script}`, dir))).stdout).toBe("version one\n");
    writeFileSync(script, 'print("version two")\n');
    expect((await warmRun(spec(`python3 ${script}`, dir))).stdout).toBe("version two\n");
  });

  it("a burst of runs beyond the spare all run warm, each with its own input and answer", async () => {
    const command = `python3 ${join(CORPUS, "stdin_twice.py")}`;
    const inputs = Array.from({ length: 8 }, (_, i) => "x".repeat(i + 1));
    const results = await Promise.all(inputs.map((stdin) => warmRun(spec(command, CORPUS, { stdin }))));
    expect(results.map((r) => [r.end, r.stdout])).toEqual(inputs.map((stdin) => ["exited", `${stdin.length} ''\n`]));
  });

  it("a run whose fork server does not answer still ends at its timeout", async () => {
    const own = new WarmPool();
    const command = `python3 ${join(CORPUS, "json_answer.py")}`;
    await own.prepare(command, CORPUS, env());
    const [pid] = own.serverPids();
    process.kill(pid ?? 0, "SIGSTOP");
    try {
      const run = own.run(spec(command, CORPUS, { timeoutMs: 200 }));
      expect((await run)?.end).toBe("timeout");
    } finally {
      process.kill(pid ?? 0, "SIGCONT");
      own.close();
    }
  });

  it("an interpreter replaced on disk gets a new fork server, and a run in flight on the old one still finishes", async () => {
    const dir = scratch();
    const bin = join(dir, "bin");
    mkdirSync(bin);
    copyFileSync(realpathSync(PYTHON), join(bin, "python3"));
    chmodSync(join(bin, "python3"), 0o755);
    execFileSync("mkfifo", [join(dir, "go")]);
    writeFileSync(join(dir, "wait.py"), 'print(open("go").read())\n');
    const own = new WarmPool();
    const withCopy = { ...env(), PATH: `${bin}:/usr/bin:/bin` };
    const command = "python3 wait.py";
    try {
      await own.prepare(command, dir, withCopy);
      const [oldServer] = own.serverPids();
      const inFlight = own.run(spec(command, dir, { env: withCopy }));
      expect(inFlight).toBeDefined();
      utimesSync(join(bin, "python3"), new Date(), new Date(Date.now() + 60_000));
      await own.prepare(command, dir, withCopy);
      expect(own.serverPids()).not.toContain(oldServer);
      await writeFile(join(dir, "go"), "done");
      expect(await inFlight).toMatchObject({ end: "exited", code: 0, stdout: "done\n" });
    } finally {
      own.close();
    }
  });

  it("a crashed fork server is started again on the next run and counted", async () => {
    const command = `python3 ${join(CORPUS, "json_answer.py")}`;
    const [pid] = pool.serverPids();
    expect(pid).toBeDefined();
    const exited = new Promise<void>((done) => serverExits.push(done));
    process.kill(pid ?? 0, "SIGKILL");
    await exited;
    expect(pool.run(spec(command, CORPUS))).toBeUndefined(); // this run spawns: its interpreter is starting again
    await pool.prepare(command, CORPUS, env());
    expect((await warmRun(spec(command, CORPUS))).end).toBe("exited");
    expect(pool.stats().restarts).toBe(1);
  });

  it("says why a command runs as a spawn, and counts it", () => {
    const cases: Record<string, [FallbackCode, string]> = {
      "python3 -u x.py": ["interpreter_options", "the interpreter runs no script file, or takes options"],
      'python3 "x.py"': ["shell_syntax", "the command uses shell syntax (quotes, variables, operators or redirections)"],
      "FOO=1 python3 x.py": ["shell_syntax", "the command sets variables or is empty"],
      "ruby x.rb": ["not_python", "ruby is not a recognised interpreter"],
      "python3 missing.py": ["script_not_found", "the script missing.py is not a file"],
    };
    for (const [command, [code, reason]] of Object.entries(cases)) {
      expect(WarmPool.spawnReason(command, CORPUS, env())).toBe(reason);
      const before = pool.stats().fallbacks[code] ?? 0;
      expect(pool.run(spec(command, CORPUS))).toBeUndefined();
      expect(pool.stats().fallbacks[code]).toBe(before + 1);
      expect(fallbacks).toContain(`${command}: ${reason}`);
    }
    // A launcher script in front of the interpreter (as pyenv's shims are) may pick another interpreter per directory.
    const dir = scratch();
    writeFileSync(join(dir, "python3"), "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n", { mode: 0o755 });
    expect(WarmPool.spawnReason(`python3 ${join(CORPUS, "json_answer.py")}`, CORPUS, { ...env(), PATH: dir })).toBe(`${join(dir, "python3")} is a launcher script (it may pick another interpreter per directory)`);
  });

  it("a site module that prints while the interpreter starts does not confuse its fork server", async () => {
    const site = scratch();
    writeFileSync(join(site, "sitecustomize.py"), 'print("hello from site", flush=True)\n');
    const own = new WarmPool();
    try {
      const command = `python3 ${join(CORPUS, "json_answer.py")}`;
      const withSite = { ...env(), PYTHONPATH: site };
      await own.prepare(command, CORPUS, withSite);
      const run = own.run(spec(command, CORPUS, { env: withSite }));
      expect((await run)?.end).toBe("exited");
    } finally {
      own.close();
    }
  });

  it("the interpreter path is the one the shell would run", async () => {
    expect(WarmPool.spawnReason(`${PYTHON} ${join(CORPUS, "json_answer.py")}`, CORPUS, env())).toBeUndefined();
  });
});
