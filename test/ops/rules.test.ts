// kind: rules in a real daemon process: one rule file (found by a glob relative to the config)
// denies a destructive command over gRPC and through `hookd eval` with each agent's own hook
// JSON; an edited rule file is loaded again on SIGHUP, a broken one refused (the rules in force
// stay); the audit and `hookd eval` name the rule; `hookd check` lists the rules and refuses a
// rule file with a CEL error, naming the file, the rule id and the column.
import { mkdirSync, writeFileSync } from "node:fs";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Workdir, closeClient, hostClient, readAudit, runCli, startDaemon } from "./support.js";
import type { HostClient, RunningDaemon } from "./support.js";

const work = new Workdir();
let daemon: RunningDaemon | undefined;

afterEach(async () => {
  await daemon?.stop("SIGKILL");
  daemon = undefined;
});
afterAll(() => work.cleanup());

const policy = (message: string): string => `
rules:
  - id: no-recursive-delete-outside-project
    description: rm -r of anything outside the session's working directory
    tools: [kind:shell]
    when: >
      shell.commands(call.command).exists(c, c[0] == "rm" && c.exists(a, a.startsWith("-") && a.contains("r"))
        && c.exists(a, !a.startsWith("-") && !path.within(a, session.cwd)))
    decision: deny
    message: ${message}
  - id: no-env-writes
    tools: [kind:write, kind:edit]
    when: path.matches(call.path, ".env*")
    decision: deny
    message: no writes to .env files
`;

/** One pre-tool call of a session working in /home/dev/project; the decision, its reason and who decided. */
async function preTool(client: HostClient, callId: string, command: string): Promise<{ decision: string; reason: string; decidedBy: string }> {
  const response = await client.evaluatePreTool(
    {
      event: {
        session: { sessionId: "s", agentId: "claude-code", cwd: "/home/dev/project" },
        call: { callId, rootCallId: callId, toolName: "Bash", argumentsJson: JSON.stringify({ command }), sessionId: "s", turn: 1, step: 1 },
      },
    },
    { timeoutMs: 15_000, waitForReady: true },
  );
  const decision = response.decision?.decision;
  return { decision: decision?.case ?? "none", reason: decision?.case === "deny" ? decision.value.reason : "", decidedBy: response.trace?.decidedBy ?? "" };
}

/** A config whose rules plugin reads ./policies/*.yaml; returns its path. */
function setUp(name: string, rules: string): { config: string; socket: string; ruleFile: string; audit: string } {
  const dir = work.file(name);
  mkdirSync(`${dir}/policies`, { recursive: true });
  const ruleFile = `${dir}/policies/guard.yaml`;
  writeFileSync(ruleFile, rules);
  const socket = `${dir}/hookd.sock`;
  const config = `${dir}/hookd.yaml`;
  const audit = `${dir}/audit.jsonl`;
  writeFileSync(config, `listeners:\n  - unix: ${socket}\naudit:\n  path: ${audit}\n  fsync: always\nplugins:\n  - name: guardrails\n    kind: rules\n    rules: ./policies/*.yaml\n`);
  return { config, socket, ruleFile, audit };
}

describe("kind: rules in a real daemon", () => {
  it("denies over gRPC, and loads the edited rule file again on SIGHUP", async () => {
    const { config, socket, ruleFile, audit } = setUp("serve", policy("recursive delete outside the project"));
    daemon = await startDaemon({ configFile: config, awaitServing: false });
    await daemon.waitLog("hookd ready");
    const client = hostClient(socket);
    try {
      const rm = "cd /tmp && command rm -rf /";
      expect(await preTool(client, "1", rm)).toEqual({ decision: "deny", reason: "recursive delete outside the project", decidedBy: "guardrails" });
      expect(await preTool(client, "2", "rm -rf build")).toMatchObject({ decision: "allow", decidedBy: "default" });
      // The audit names the rule that decided, on the call and on the decision.
      const denied = readAudit(audit).filter((r) => r.callId === "1");
      expect(denied).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: "invocation", plugin: "guardrails", decision: "deny", rule: "no-recursive-delete-outside-project" }),
          expect.objectContaining({ kind: "decision", plugin: "guardrails", decision: "deny", rule: "no-recursive-delete-outside-project" }),
        ]),
      );
      expect(readAudit(audit).filter((r) => r.callId === "2").every((r) => !("rule" in r))).toBe(true);

      writeFileSync(ruleFile, policy("not outside the project, please"));
      daemon.child.kill("SIGHUP");
      expect(await daemon.waitLog("config reloaded")).toMatchObject({ loaded: ["guardrails"] });
      expect(await preTool(client, "3", rm)).toMatchObject({ decision: "deny", reason: "not outside the project, please" });

      // A rule file broken on disk is a refused reload: the rules in force keep deciding.
      writeFileSync(ruleFile, `rules:\n  - id: broken\n    when: call.command.startsWith(\n    decision: deny\n    message: x\n`);
      daemon.child.kill("SIGHUP");
      const refused = await daemon.waitLog("config reload refused; the running config stays in force");
      expect(JSON.stringify(refused.problems)).toContain(`${ruleFile}: rules[0] (id \\"broken\\").when: column`);
      expect(await preTool(client, "4", rm)).toMatchObject({ decision: "deny", reason: "not outside the project, please" });
    } finally {
      closeClient(client);
    }
  });

  it.each([
    ["claude-code", { session_id: "s1", cwd: "/home/dev/project", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "sudo /bin/rm -rf ~" }, tool_use_id: "t1" }],
    ["codex", { session_id: "s1", cwd: "/home/dev/project", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "bash -lc 'rm -fr /etc'" }, tool_use_id: "t1", turn_id: "1", model: "m" }],
    ["gemini", { session_id: "s1", cwd: "/home/dev/project", hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "env X=1 rm -r -f ../other" }, timestamp: "2026-12-01T00:00:00Z" }],
  ])("hookd eval --dialect %s: the same rule denies that agent's destructive command", async (dialect, payload) => {
    const { config } = setUp(`eval-${dialect}`, policy("recursive delete outside the project"));
    const event = work.file(`eval-${dialect}.json`);
    writeFileSync(event, JSON.stringify(payload));
    const { code, stdout, stderr } = await runCli(["eval", "--config", config, "--dialect", dialect, "--json", event], {}, 60_000);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { final: { decision: string; decidedBy: string; reason: string } };
    expect(report.final).toMatchObject({ decision: "deny", decidedBy: "guardrails", reason: "recursive delete outside the project" });
  });

  it("hookd eval names the rule that fired and the values it read", async () => {
    const { config } = setUp("eval-explain", policy("recursive delete outside the project"));
    const event = work.file("eval-explain.json");
    writeFileSync(event, JSON.stringify({ session_id: "s1", cwd: "/home/dev/project", hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: ".env.local", content: "" }, tool_use_id: "t1" }));
    const { code, stdout } = await runCli(["eval", "--config", config, "--dialect", "claude-code", event], {}, 60_000);
    expect(code).toBe(0);
    expect(stdout).toMatch(/1\s+guardrails\s+rules\s+0\s+deny\s+\S+ms\s+rule no-env-writes: no writes to \.env files/);
    expect(stdout).toContain("decision: deny by guardrails (rule no-env-writes): no writes to .env files");
    expect(stdout).toContain('rule no-env-writes (guardrails) read: call.path=".env.local"');
    expect(stdout).toContain("why: guardrails answered deny at pre-tool (rule no-env-writes): no writes to .env files");
  });

  it("hookd check lists the plugin and refuses a rule file with a CEL error, naming file, rule and column", async () => {
    const good = setUp("check-good", policy("x"));
    const listed = await runCli(["check", "--config", good.config]);
    expect(listed.stderr).toBe("");
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/pre-tool\s+1\s+guardrails\s+rules\s+0\s+2000ms\s+fail-closed\n/);
    // Each rule, in the order it is tried.
    expect(listed.stdout).toMatch(/PLUGIN\s+#\s+RULE\s+POINT\s+DECISION\s+TOOLS\s+FILE/);
    expect(listed.stdout).toMatch(new RegExp(`guardrails\\s+1\\s+no-recursive-delete-outside-project\\s+pre-tool\\s+deny\\s+kind:shell\\s+${good.ruleFile}\n`));
    expect(listed.stdout).toMatch(new RegExp(`guardrails\\s+2\\s+no-env-writes\\s+pre-tool\\s+deny\\s+kind:write,kind:edit\\s+${good.ruleFile}\n`));

    const bad = setUp("check-bad", `rules:\n  - id: typo\n    when: call.comand == "rm"\n    decision: deny\n    message: x\n`);
    const refused = await runCli(["check", "--config", bad.config]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${bad.ruleFile}: rules[0] (id "typo").when: column 5: call has no field "comand"`);
  });
});
