// The `hookd` command line as an operator meets it, through the built CLI in real processes:
// --version, --help on every subcommand and `hookd help <cmd>`, exit code 2 for every usage
// error, "did you mean", the plain message when no daemon answers, --json on status, plugins and
// check (parsed), the check report's shape, plain (uncoloured) output off a terminal, and the
// hook forwarders pointed at the gRPC socket.
import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ROOT, Workdir, pluginEntry, runCli, startDaemon } from "./support.js";
import type { RunningDaemon } from "./support.js";

const VERSION = (JSON.parse(readFileSync(join(ROOT, "daemon/package.json"), "utf8")) as { version: string }).version;
const COMMANDS = ["serve", "check", "eval", "init", "status", "plugins", "reload", "tail", "hook", "help"] as const;
/** An escape sequence: colour must never reach a pipe. */
const ESCAPE = "\u001b[";
const C_FORWARDER = join(ROOT, "daemon/dist/forward/hookd-hook");

let work: Workdir | undefined;
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
  work?.cleanup();
  work = undefined;
});

/** Serves the policy fixture (plus `extra` config) until the daemon is ready. */
async function serveReady(extra: Record<string, unknown> = {}): Promise<{ socket: string; config: string }> {
  work ??= new Workdir();
  const socket = work.file("hookd.sock");
  const config = work.writeConfig({ listeners: [{ unix: socket }], plugins: [pluginEntry("policy")], ...extra });
  daemon = await startDaemon({ configFile: config, awaitServing: false });
  await daemon.waitLog("hookd ready");
  return { socket, config };
}

/** Runs a forwarder binary with `stdin` as its input. */
function forward(command: string, args: readonly string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(command, [...args], { timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : null, stdout, stderr });
    });
    // A forwarder that exits before reading (--help) closes its stdin: that EPIPE is no failure.
    child.stdin?.on("error", () => {});
    child.stdin?.end(stdin);
  });
}

describe("hookd --version and --help", () => {
  it("--version and -V print the daemon package's version", async () => {
    for (const flag of ["--version", "-V"]) {
      const result = await runCli([flag]);
      expect(result).toEqual({ code: 0, stdout: `hookd ${VERSION}\n`, stderr: "" });
    }
  });

  it("--help lists every command; no command at all is a usage error (exit 2) that shows it", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^usage: hookd <command> \[options\]\n/);
    for (const command of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${command} +\\S`, "m"));
    const bare = await runCli([]);
    expect(bare.code).toBe(2);
    expect(bare.stdout).toBe("");
    expect(bare.stderr).toBe(help.stdout);
  });

  it.each(COMMANDS)("hookd %s --help and hookd help <it> print the same help, exit 0", async (command) => {
    const viaFlag = await runCli([command, "--help"]);
    expect(viaFlag.code, viaFlag.stderr).toBe(0);
    expect(viaFlag.stderr).toBe("");
    const viaHelp = await runCli(["help", command]);
    expect(viaHelp).toEqual(viaFlag);
    const short = await runCli([command, "-h"]);
    expect(short.stdout).toBe(viaFlag.stdout);
    if (command === "help") expect(viaFlag.stdout).toMatch(/^usage: hookd <command>/);
    else expect(viaFlag.stdout).toMatch(new RegExp(`^usage: hookd ${command} `));
  });

  it("each command's help names every option it accepts", async () => {
    const expected: Record<string, readonly string[]> = {
      serve: ["--config", "--grace-ms"],
      check: ["--config", "--timeout-ms", "--json"],
      status: ["--socket", "--json"],
      plugins: ["--socket", "--json"],
      reload: ["--socket"],
      tail: ["--socket", "--session", "--plugin", "--point", "--kind", "--json"],
      hook: ["--dialect", "--event", "--url", "--socket", "--agent", "--timeout", "--fail-closed"],
    };
    for (const [command, options] of Object.entries(expected)) {
      const { stdout } = await runCli(["help", command]);
      for (const option of options) expect(stdout, `${command} ${option}`).toMatch(new RegExp(`^ +(-\\w, )?${option}\\b`, "m"));
    }
  });
});

describe("usage errors exit 2", () => {
  it("an unknown command suggests the closest one", async () => {
    const typo = await runCli(["stauts"]);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^hookd: unknown command "stauts"; did you mean "status"\?\n/);
    const far = await runCli(["frobnicate"]);
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/^hookd: unknown command "frobnicate"\n/);
    const help = await runCli(["help", "pluggins"]);
    expect(help.code).toBe(2);
    expect(help.stderr).toContain('did you mean "plugins"?');
  });

  it.each([
    [["serve", "--bogus"], /^hookd serve: unknown option --bogus\n/],
    [["serve", "--grace-ms", "soon"], /^hookd serve: --grace-ms: expected an integer of at least 0, got "soon"\n/],
    [["check", "--jsn"], /^hookd check: unknown option --jsn; did you mean --json\?\n/],
    [["check", "--timeout-ms=-3"], /^hookd check: --timeout-ms: expected an integer of at least 0, got "-3"\n/],
    [["check", "--timeout-ms", "-3"], /^hookd check: --timeout-ms needs a value \(one starting with "-" as --timeout-ms=VALUE\)\n/],
    [["check", "--config"], /^hookd check: --config needs a value\n/],
    [["status", "--sockt", "x"], /^hookd status: unknown option --sockt; did you mean --socket\?\n/],
    [["status", "extra"], /^hookd status: unexpected argument "extra"/],
    [["plugins", "--json=yes"], /^hookd plugins: /],
    [["reload", "--json"], /^hookd reload: unknown option --json\n/],
    [["tail", "--kind", "everything"], /^hookd tail: --kind: expected one of invocation, decision, shadow, got "everything"\n/],
    [["tail", "--point", "pre-toll"], /^hookd tail: --point: expected one of .*pre-tool.*, got "pre-toll"\n/],
    [["help", "status", "plugins"], /^hookd help: help takes one command, got 2\n/],
  ])("hookd %j", async (args, message) => {
    const result = await runCli(args);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/\(see hookd \w+ --help\)\n$/);
    expect(result.stdout).toBe("");
    expect(result.code).toBe(2);
  });
});

describe("the operator commands against a daemon", () => {
  it("says plainly that no daemon answers, and where it looked", async () => {
    work = new Workdir();
    const missing = work.file("nobody.sock");
    for (const command of ["status", "plugins", "reload", "tail"]) {
      const viaFlag = await runCli([command, "--socket", missing]);
      expect(viaFlag.code, command).toBe(1);
      expect(viaFlag.stderr).toBe(`hookd: no hookd at ${missing} — is it running? (tried: unix://${missing}, from --socket)\n`);
    }
    const viaEnv = await runCli(["status"], { HOOKD_SOCKET: missing });
    expect(viaEnv.stderr).toBe(`hookd: no hookd at ${missing} — is it running? (tried: unix://${missing}, from $HOOKD_SOCKET)\n`);
    const byDefault = await runCli(["status"], { XDG_RUNTIME_DIR: work.file("runtime") });
    const socket = join(work.file("runtime"), "hookd/hookd.sock");
    expect(byDefault.stderr).toBe(
      `hookd: no hookd at ${socket} — is it running? (tried: unix://${socket}, from the default socket; unix:///run/hookd/admin/admin.sock, from the systemd install's admin socket; give --socket or set HOOKD_SOCKET)\n`,
    );
    expect(byDefault.stderr).not.toContain("Resolution note");
  });

  it("status --json and plugins --json print one parsable object each", async () => {
    const { socket, config } = await serveReady();
    const status = await runCli(["status", "--socket", socket, "--json"]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout.trim().split("\n")).toHaveLength(1);
    expect(JSON.parse(status.stdout)).toMatchObject({
      daemon: `unix://${socket}`,
      version: VERSION,
      pid: daemon?.child.pid,
      agentsConnected: 0,
      sessionsOpen: 0,
      listeners: [`unix://${socket}`],
      configPath: config,
      configGeneration: 0,
    });
    const plugins = await runCli(["plugins", "--socket", socket, "--json"]);
    expect(plugins.code, plugins.stderr).toBe(0);
    const parsed = JSON.parse(plugins.stdout) as { plugins: Record<string, unknown>[] };
    expect(parsed.plugins).toEqual([
      expect.objectContaining({ name: "policy", kind: "in-process", health: "serving", calls: 0, failures: 0, restarts: 0, points: ["pre-tool"], lastError: "" }),
    ]);
    // The tables are for people: never escape codes off a terminal.
    expect((await runCli(["status", "--socket", socket])).stdout).not.toContain(ESCAPE);
  });

  it("status counts the agents whose hooks arrive over the HTTP endpoint", async () => {
    work = new Workdir();
    const hooks = work.file("hooks.sock");
    const { socket } = await serveReady({ http: { listen: `unix:${hooks}` } });
    const agents = async (): Promise<unknown> => (JSON.parse((await runCli(["status", "--socket", socket, "--json"])).stdout) as { agentsConnected: number }).agentsConnected;
    expect(await agents()).toBe(0);
    const body = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Read", tool_input: {} });
    for (const agent of ["claude-a", "claude-b", "claude-a"]) {
      const answered = await forward(process.execPath, [join(ROOT, "daemon/dist/cli.js"), "hook", "--socket", hooks, "--agent", agent], body);
      expect(answered.code, answered.stderr).toBe(0);
    }
    expect(await agents()).toBe(2);
    // A malformed request is no agent.
    expect((await forward(process.execPath, [join(ROOT, "daemon/dist/cli.js"), "hook", "--socket", hooks, "--agent", "broken"], "{nope")).code).toBe(1);
    expect(await agents()).toBe(2);
  });

  it("the node and C forwarders pointed at the gRPC socket say so", async () => {
    const { socket } = await serveReady();
    const body = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s", tool_name: "Bash", tool_input: {} });
    if (!existsSync(C_FORWARDER)) throw new Error(`${C_FORWARDER} is missing: npm run build compiles it (it needs a C compiler)`);
    const forwarders: [string, string[]][] = [[process.execPath, [join(ROOT, "daemon/dist/cli.js"), "hook"]], [C_FORWARDER, []]];
    const cHelp = await forward(C_FORWARDER, ["--help"], "");
    expect(cHelp).toMatchObject({ code: 0, stdout: expect.stringMatching(/^usage: hookd hook --dialect /) as unknown, stderr: "" });
    for (const [command, prefix] of forwarders) {
      const result = await forward(command, [...prefix, "--dialect", "claude-code", "--socket", socket], body);
      expect(result.stderr, command).toBe(`hookd hook: hookd did not answer: ${socket} answered in HTTP/2: that is hookd's gRPC socket, not its HTTP hook endpoint; give --socket the address of http.listen\n`);
      expect(result.code).toBe(1);
      const closed = await forward(command, [...prefix, "--socket", socket, "--fail-closed"], body);
      expect(closed.code).toBe(2);
    }
  });
});

describe("hookd check's report", () => {
  it("a failing check prints no verdict before its problems, no log lines, and lists the problems last", async () => {
    work = new Workdir();
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [pluginEntry("policy"), { name: "far", kind: "remote", target: `unix://${work.file("none.sock")}` }],
    });
    const { code, stdout, stderr } = await runCli(["check", "--config", config, "--timeout-ms", "200"]);
    expect(code).toBe(1);
    expect(stdout).toMatch(new RegExp(`^config ${config}\n`));
    expect(stdout).not.toMatch(/\bvalid\b|^ok$/m);
    // What loading logged is a warning of the report, never a raw JSON line.
    for (const line of [...stdout.split("\n"), ...stderr.split("\n")]) expect(line).not.toMatch(/^\s*\{/);
    expect(stdout).toMatch(/\d+ warnings?:\n {2}- plugin health changed \(plugin=far /);
    expect(stderr.startsWith(`${config}: 1 problem:\n`), stderr).toBe(true);
    expect(stderr.slice(`${config}: 1 problem:\n`.length)).toMatch(/^ {2}- plugins\[1\] \(far\): not reachable within 200 ms: .*ENOENT.*\n$/);
    expect(stdout + stderr).not.toContain("Resolution note");
    expect(stdout + stderr).not.toContain(ESCAPE);
  });

  it("a passing check ends with ok; --json gives the same findings as one object", async () => {
    work = new Workdir();
    const config = work.writeConfig({
      listeners: [{ unix: work.file("hookd.sock") }],
      plugins: [pluginEntry("policy", { points: { "pre-tool": { priority: 3 } }, bypassAgentPermissions: true })],
    });
    const human = await runCli(["check", "--config", config], { NO_COLOR: "" });
    expect(human.code).toBe(0);
    expect(human.stderr).toBe("");
    expect(human.stdout).toMatch(/\nok\n$/);
    const json = await runCli(["check", "--config", config, "--json"]);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({
      config,
      ok: true,
      problems: [],
      warnings: [],
      notes: [
        "point budget: 10000ms (default; where command hooks run it grows by their own timeouts)",
        "bypassAgentPermissions (an allow skips the agent's own permission rules over its hooks): policy",
      ],
      tables: {
        order: [{ point: "pre-tool", position: 1, plugin: "policy", kind: "in-process", priority: 3, deadline: "2000ms", onFailure: "fail-closed" }],
        subscriptions: [],
        hookDeadlines: [],
        warmHooks: [],
        rules: [],
      },
    });
  });

  it("--json reports a schema failure as an object too, exit 1", async () => {
    work = new Workdir();
    const config = work.writeConfig("listeners: []\nplugins: []\nbogus: 1\n");
    const { code, stdout, stderr } = await runCli(["check", "--config", config, "--json"]);
    expect(code).toBe(1);
    expect(stderr).toBe("");
    const report = JSON.parse(stdout) as { config: string; ok: boolean; problems: string[] };
    expect(report).toMatchObject({ config, ok: false });
    expect(report.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^listeners: /), expect.stringMatching(/bogus/)]));
  });
});

describe("hookd serve's log format", () => {
  it("is JSON lines when stdout is not a terminal", async () => {
    await serveReady();
    const lines = daemon?.stdout.lines ?? [];
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(lines.join("\n")).not.toContain(ESCAPE);
  });
});
