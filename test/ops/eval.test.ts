// `hookd eval` through the built CLI in real processes: one config with a remote plugin (a real
// gRPC server in its own process, guardian) ahead of an in-process one (asker), and three events
// (allow, deny by the remote plugin, ask) in hookd's proto JSON, human and --json output; an
// agent's own hook JSON with --dialect (the answer the HTTP endpoint would send); events that
// cannot be used (an error naming the field, exit 1); usage errors (exit 2); and --explain
// against the audit log a real daemon wrote for the same call (agrees, exit 0), and against a
// config that no longer denies it (differs, exit 3).
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, FIXTURES, ROOT, Workdir, closeClient, hostClient, preTool, runCli, startDaemon } from "./support.js";

const work = new Workdir();
let guardian: ChildProcess | undefined;
let config = "";
let onlyAsker = "";

/** hookd's proto JSON for a pre-tool event, wrapped in its point. */
function preToolEvent(callId: string, toolName: string, args: Record<string, unknown>): string {
  return JSON.stringify({
    preTool: {
      session: { sessionId: "eval-s", agentId: "ops-test" },
      call: { callId, rootCallId: callId, toolName, argumentsJson: JSON.stringify(args), sessionId: "eval-s", turn: 1, step: 1 },
    },
  });
}

function eventFile(name: string, text: string): string {
  const path = work.file(name);
  writeFileSync(path, text);
  return path;
}

interface EvalJson {
  config: string;
  input: string;
  event: string;
  points: { point: string; matchedOn?: string; matched: { position: number | string; plugin: string; kind: string; call?: { answer: string; outcome: string; reason: string; latencyMs: number } }[]; decision?: { decision: string; decidedBy: string } }[];
  final: { point: string; decision: string; decidedBy: string; reason: string; cause: string; why: string };
  answer: Record<string, unknown>;
  warnings: string[];
  explain?: { agrees: boolean; differences: string[] };
}

/**
 * How long eval may wait for each plugin to become reachable: it stops waiting as soon as they
 * are, so a generous bound only matters on a loaded machine, where a managed plugin's start or a
 * remote plugin's Describe can take seconds.
 */
const WAIT = ["--timeout-ms", "60000"];
/** Each test runs several CLI processes: room for them on a loaded machine. */
const SLOW_MS = 240_000;

/** Runs `hookd eval ...` (given in full) with the generous wait, and time to finish on a loaded machine. */
function cli(args: readonly string[]): ReturnType<typeof runCli> {
  const [command = "eval", ...rest] = args;
  return runCli([command, ...WAIT, ...rest], {}, 180_000);
}

/** Runs the CLI with `stdin` piped in. */
async function runWithStdin(args: readonly string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdin.end(stdin);
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr };
}

beforeAll(async () => {
  const socket = work.file("guardian.sock");
  guardian = spawn(process.execPath, [join(FIXTURES, "eval-guardian.mjs"), socket], { stdio: ["ignore", "pipe", "inherit"] });
  const child = guardian;
  await new Promise<void>((resolve, reject) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => chunk.includes("serving") && resolve());
    child.once("exit", (code) => reject(new Error(`the guardian plugin exited (${code}) before serving`)));
  });
  const asker = { name: "asker", kind: "in-process", module: join(FIXTURES, "eval-asker.mjs") };
  config = work.writeConfig({
    listeners: [{ unix: work.file("hookd.sock") }],
    audit: { path: work.file("audit.jsonl"), fsync: "always" },
    plugins: [{ name: "guardian", kind: "remote", target: `unix://${socket}` }, asker],
  });
  onlyAsker = work.writeConfig({ listeners: [{ unix: work.file("other.sock") }], plugins: [asker] }, "only-asker.yaml");
}, 60_000);

afterAll(() => {
  guardian?.kill("SIGKILL");
  work.cleanup();
});

describe("hookd eval: three events through a remote and an in-process plugin", { timeout: SLOW_MS }, () => {
  it("allow: the remote plugin passes, the in-process one allows; both shown in order with their latency", async () => {
    const event = eventFile("allow.json", preToolEvent("c-allow", "Bash", { command: "ls -l" }));
    const human = await cli(["eval", "--config", config, event]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`config ${config}`);
    expect(human.stdout).toMatch(/event {2}pre-tool \(hookd proto JSON\), session eval-s, call c-allow/);
    expect(human.stdout).toMatch(/pre-tool \(matched on Bash\)/);
    expect(human.stdout).toMatch(/^ {2}1 +guardian +remote +5 +pass +[\d.]+ms/m);
    expect(human.stdout).toMatch(/^ {2}2 +asker +in-process +20 +allow +[\d.]+ms/m);
    expect(human.stdout).toMatch(/^decision: allow\nwhy: asker answered allow at pre-tool$/m);
    // Off a terminal, never colour.
    expect(human.stdout).not.toContain("\u001b[");

    const json = await cli(["eval", "--config", config, "--json", event]);
    expect(json.code, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as EvalJson;
    expect(report.final).toMatchObject({ point: "pre-tool", decision: "allow", decidedBy: "asker" });
    const [point] = report.points;
    expect(point?.matched.map((m) => [m.position, m.plugin, m.kind, m.call?.answer])).toEqual([
      [1, "guardian", "remote", "pass"],
      [2, "asker", "in-process", "allow"],
    ]);
    for (const m of point?.matched ?? []) expect(m.call?.latencyMs).toBeGreaterThan(0);
    expect(report.answer).toMatchObject({ decision: { allow: {} }, trace: { decidedBy: "asker" } });
    expect(report.warnings).toEqual([]);
  });

  it("deny by the remote plugin: the in-process one after it is matched but not called", async () => {
    const event = eventFile("deny.json", preToolEvent("c-deny", "Bash", { command: "rm -rf /tmp/x" }));
    const human = await cli(["eval", "--config", config, event]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ {2}1 +guardian +remote +5 +deny +[\d.]+ms +guardian: no recursive delete$/m);
    expect(human.stdout).toMatch(/^ {2}2 +asker +in-process +20 +- +- +not called: an earlier plugin decided$/m);
    expect(human.stdout).toMatch(/^decision: deny\nwhy: guardian answered deny at pre-tool: guardian: no recursive delete$/m);

    const report = JSON.parse((await cli(["eval", "--config", config, "--json", event])).stdout) as EvalJson;
    expect(report.final).toMatchObject({ decision: "deny", decidedBy: "guardian", reason: "guardian: no recursive delete" });
    expect(report.points[0]?.matched[1]).toMatchObject({ plugin: "asker" });
    expect(report.points[0]?.matched[1]?.call).toBeUndefined();
    expect(report.answer).toMatchObject({ decision: { deny: { reason: "guardian: no recursive delete" } } });
  });

  it("ask: only the in-process plugin matches a Deploy; the ask is returned as an ask", async () => {
    const event = eventFile("ask.json", preToolEvent("c-ask", "Deploy", { env: "prod" }));
    const human = await cli(["eval", "--config", config, event]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/pre-tool \(matched on Deploy\)/);
    expect(human.stdout).not.toContain("guardian");
    expect(human.stdout).toMatch(/^decision: ask\nwhy: asker answered ask at pre-tool: deploying needs a human$/m);
    const report = JSON.parse((await cli(["eval", "--config", config, "--json", event])).stdout) as EvalJson;
    expect(report.points[0]?.matched.map((m) => m.plugin)).toEqual(["asker"]);
    expect(report.final).toMatchObject({ decision: "ask", decidedBy: "asker", reason: "deploying needs a human" });
    expect(report.answer).toMatchObject({ decision: { ask: { reason: "deploying needs a human" } } });
  });

  it("--point with a bare event, read from stdin", async () => {
    const bare = JSON.stringify((JSON.parse(preToolEvent("c-stdin", "Bash", { command: "rm -r x" })) as { preTool: unknown }).preTool);
    const result = await runWithStdin(["eval", ...WAIT, "--config", config, "--point", "pre-tool", "--json", "-"], bare);
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as EvalJson).final).toMatchObject({ decision: "deny", decidedBy: "guardian" });
    // The point's evaluate request, as an agent sends it, is taken too.
    const request = await runWithStdin(["eval", ...WAIT, "--config", config, "--point", "pre-tool", "--json", "-"], JSON.stringify({ event: JSON.parse(bare) as unknown }));
    expect((JSON.parse(request.stdout) as EvalJson).final).toMatchObject({ decision: "deny", decidedBy: "guardian" });
  });

  it("--dialect claude-code: the agent's own PreToolUse JSON, answered as the HTTP endpoint answers it", async () => {
    const hook = { session_id: "cc-1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "toolu_1", cwd: "/tmp" };
    const result = await runWithStdin(["eval", ...WAIT, "--config", config, "--dialect", "claude-code", "--json", "-"], JSON.stringify(hook));
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EvalJson;
    expect(report).toMatchObject({ input: "claude-code", event: "PreToolUse", final: { decision: "deny", decidedBy: "guardian" } });
    expect(report.answer).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "guardian: no recursive delete" } });
    const human = await runWithStdin(["eval", ...WAIT, "--config", config, "--dialect", "claude-code", "-"], JSON.stringify({ ...hook, tool_input: { command: "ls" } }));
    expect(human.stdout).toMatch(/^event {2}PreToolUse \(claude-code hook JSON\), session cc-1, call toolu_1$/m);
    expect(human.stdout).toMatch(/^decision: allow\nwhy: asker answered allow at pre-tool$/m);
    // An allow by a plugin without bypassAgentPermissions leaves the agent's own permission rules in force.
    expect(human.stdout).toMatch(/^answer \(claude-code\): \{\}$/m);
  });
});

describe("hookd eval: managed plugins", { timeout: SLOW_MS }, () => {
  it("starts a managed plugin for the run, uses its answer, and stops it before exiting", async () => {
    const managed = work.writeConfig(
      {
        listeners: [{ unix: work.file("unused.sock") }],
        plugins: [{ name: "fixture", kind: "managed", command: process.execPath, args: [join(ROOT, "test/fixtures/plugins/managed-plugin.mjs")] }],
      },
      "managed.yaml",
    );
    const result = await cli(["eval", "--config", managed, "--json", eventFile("managed.json", preToolEvent("c-managed", "Bash", { command: "deny" }))]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EvalJson;
    expect(report.points[0]?.matched[0]).toMatchObject({ plugin: "fixture", kind: "managed", call: { answer: "deny" } });
    const pid = Number(/^fixture (\d+) denies$/.exec(report.final.reason)?.[1]);
    expect(pid).toBeGreaterThan(0);
    // Gone once eval has exited: kill(pid, 0) finds no such process.
    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: "ESRCH" }) as unknown);
  });
});

describe("hookd eval: shadow plugins", { timeout: SLOW_MS }, () => {
  it("a shadow plugin's call is shown beside the chain with what it would have done; the decision is the chain's", async () => {
    const shadow = work.writeConfig(
      {
        listeners: [{ unix: work.file("unused.sock") }],
        plugins: [
          { name: "policy", kind: "in-process", mode: "shadow", module: join(FIXTURES, "policy.mjs") },
          { name: "asker", kind: "in-process", module: join(FIXTURES, "eval-asker.mjs") },
        ],
      },
      "shadow.yaml",
    );
    const event = eventFile("shadow.json", preToolEvent("c-shadow", "Bash", { command: "ls" }));
    const human = await cli(["eval", "--config", shadow, event]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ {2}1 +asker +in-process +20 +allow /m);
    expect(human.stdout).toMatch(/^ {2}shadow +policy +in-process +0 +deny +[\d.]+ms +would have denied: no bash$/m);
    expect(human.stdout).toMatch(/^decision: allow\nwhy: asker answered allow at pre-tool$/m);
  });
});

describe("hookd eval: a plugin that cannot answer", { timeout: SLOW_MS }, () => {
  it("an unreachable fail-closed remote plugin: named in the warnings, its failure policy denies, and why says so", async () => {
    const unreachable = work.writeConfig(
      { listeners: [{ unix: work.file("unused.sock") }], plugins: [{ name: "gone", kind: "remote", target: `unix://${work.file("nobody.sock")}`, points: { "pre-tool": {} } }] },
      "unreachable.yaml",
    );
    const event = eventFile("unreachable.json", preToolEvent("c-gone", "Bash", { command: "ls" }));
    const result = await cli(["eval", "--config", unreachable, "--timeout-ms", "300", "--json", event]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EvalJson;
    expect(report.final).toMatchObject({ decision: "deny", decidedBy: "gone", cause: "unavailable" });
    expect(report.final.why).toMatch(/^gone could not answer at pre-tool \(unavailable\): its failure policy made it deny/);
    expect(report.points[0]?.matched[0]?.call).toMatchObject({ outcome: "fault", answer: "deny" });
    expect(report.warnings.some((w) => w.startsWith("gone: not reachable within 300 ms"))).toBe(true);
  });

  it("an unreachable fail-open remote plugin: it counts as passing, and the default's trace, decision and why name its failure", async () => {
    const open = work.writeConfig(
      {
        listeners: [{ unix: work.file("unused.sock") }],
        plugins: [{ name: "gone", kind: "remote", target: `unix://${work.file("nobody.sock")}`, points: { "pre-tool": { failurePolicy: "fail-open" } } }],
      },
      "fail-open.yaml",
    );
    const event = eventFile("fail-open.json", preToolEvent("c-open", "Bash", { command: "ls" }));
    const result = await cli(["eval", "--config", open, "--timeout-ms", "300", "--json", event]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as EvalJson & { records: Record<string, unknown>[] };
    expect(report.answer).toMatchObject({ decision: { allow: {} }, trace: { decidedBy: "default", failureCause: "unavailable" } });
    expect(report.final).toMatchObject({ decision: "allow", decidedBy: "default", cause: "unavailable" });
    expect(report.final.why).toBe("no plugin decided at pre-tool: gone could not answer (unavailable) and its failure policy counted it as passing; its default is allow");
    expect(report.points[0]?.matched[0]?.call).toMatchObject({ outcome: "fault", answer: "pass", cause: "unavailable" });
    // The decision record, as the audit log, `hookd tail` and the console get it.
    expect(report.records.filter((r) => r.kind === "decision")).toEqual([expect.objectContaining({ point: "pre-tool", decision: "allow", plugin: "default", cause: "unavailable" })]);

    const human = await cli(["eval", "--config", open, "--timeout-ms", "300", event]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^ {2}decision: allow by default \(unavailable\) in [\d.]+ms$/m);
    expect(human.stdout).toMatch(/^decision: allow\nwhy: no plugin decided at pre-tool: gone could not answer \(unavailable\) and its failure policy counted it as passing; its default is allow$/m);
    expect(human.stdout).toMatch(/^response: .*"failureCause":"unavailable"/m);
  });

  it("a plugin that does not load: exit 1 naming it", async () => {
    const broken = work.writeConfig({ listeners: [{ unix: work.file("unused.sock") }], plugins: [{ name: "nope", kind: "in-process", module: work.file("missing.mjs") }] }, "broken.yaml");
    const result = await cli(["eval", "--config", broken, eventFile("broken.json", preToolEvent("c", "Bash", {}))]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hookd eval: the config's plugins do not load: .*missing\.mjs: cannot be imported/);
  });
});

describe("hookd eval: unusable input", { timeout: SLOW_MS }, () => {
  it("a misspelt field, a missing session id and a bad dialect body name the field; exit 1", async () => {
    const misspelt = eventFile("misspelt.json", JSON.stringify({ preTool: { session: { sessionId: "s" }, call: { callId: "c", toolNmae: "Bash" } } }));
    const first = await cli(["eval", "--config", config, misspelt]);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/^hookd eval: EVENT \(pre-tool, hookd\.v1\.PreToolEvent\): .*"toolNmae" is unknown/);
    const noSession = eventFile("no-session.json", preToolEvent("c", "Bash", {}).replace('"sessionId":"eval-s","agentId"', '"agentId"'));
    const second = await cli(["eval", "--config", config, "--json", noSession]);
    expect(second.code).toBe(1);
    expect(JSON.parse(second.stdout)).toEqual({ ok: false, error: "event.session.session_id: required" });
    const dialect = await runWithStdin(["eval", ...WAIT, "--config", config, "--dialect", "codex", "-"], JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash" }));
    expect(dialect.code).toBe(1);
    expect(dialect.stderr).toMatch(/^hookd eval: EVENT \(codex hook JSON\): .*session_id/);
    const notJson = await runWithStdin(["eval", ...WAIT, "--config", config, "--point", "pre-tool", "-"], "{nope");
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toMatch(/^hookd eval: EVENT: not JSON/);
  });

  it("usage errors exit 2 and name the option", async () => {
    const event = eventFile("usage.json", preToolEvent("c", "Bash", {}));
    const cases: [string[], RegExp][] = [
      [["eval", "--config", config], /missing EVENT/],
      [["eval", "--config", config, "--point", "pre-tol", event], /--point: expected one of/],
      [["eval", "--config", config, "--dialect", "cursor", event], /--dialect: expected one of claude-code, codex, gemini/],
      [["eval", "--config", config, "--from-audit", "x", event], /go with --explain/],
      [["eval", "--config", config, "--explain", event], /--explain needs the record/],
    ];
    for (const [args, message] of cases) {
      const result = await runCli(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const bare = eventFile("bare.json", JSON.stringify({ session: { sessionId: "s" } }));
    const noPoint = await cli(["eval", "--config", config, bare]);
    expect(noPoint.code).toBe(2);
    expect(noPoint.stderr).toMatch(/give --point/);
  });
});

describe("hookd eval --explain: replaying what a real daemon recorded", { timeout: SLOW_MS }, () => {
  it("agrees with the audit records of the same call, and says where a changed config differs (exit 3)", async () => {
    const daemon = await startDaemon({ configFile: config, awaitServing: false });
    try {
      await daemon.waitLog("hookd ready", 30_000);
      const client = hostClient(work.file("hookd.sock"));
      try {
        expect(await preTool(client, { sessionId: "eval-s", callId: "c-audit", toolName: "Bash", args: { command: "rm -rf /srv" } })).toMatchObject({ decision: "deny", decidedBy: "guardian" });
      } finally {
        closeClient(client);
      }
    } finally {
      await daemon.stop();
    }
    const audit = work.file("audit.jsonl");
    const event = eventFile("audited.json", preToolEvent("c-audit", "Bash", { command: "rm -rf /srv" }));
    const agrees = await cli(["eval", "--config", config, "--explain", "--from-audit", audit, "--call-id", "c-audit", event]);
    expect(agrees.code, agrees.stderr).toBe(0);
    expect(agrees.stdout).toMatch(/^replay agrees with the record \(2 records compared\)$/m);

    const decisionLine = readFileSync(audit, "utf8").split("\n").find((line) => line.includes('"c-audit"') && line.includes('"kind":"decision"')) ?? "";
    const differs = await cli(["eval", "--config", onlyAsker, "--explain", "--record", decisionLine, "--json", event]);
    expect(differs.code).toBe(3);
    const report = JSON.parse(differs.stdout) as EvalJson;
    expect(report.explain).toEqual({ agrees: false, differences: ["pre-tool: recorded deny by guardian, replayed allow by asker"], recorded: [JSON.parse(decisionLine)] });
    const human = await cli(["eval", "--config", onlyAsker, "--explain", "--from-audit", audit, "--call-id", "c-audit", event]);
    expect(human.code).toBe(3);
    expect(human.stderr).toContain("replay differs from the record:\n  - pre-tool: recorded deny by guardian, replayed allow by asker\n");
    expect(human.stderr).toContain("  - pre-tool: guardian was called (deny) and is not now\n");
  });
});
