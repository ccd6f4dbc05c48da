// A real `hookd serve` with a Claude Code hooks file that, before issue #15, kept the daemon from
// starting (a matcher "[" on UserPromptSubmit, which has no matcher field), driven by a scripted
// agent over gRPC: the PreToolUse rewrite is the command the tool receives, the non-JSON "{..."
// prompt stdout reaches the model as context, a PermissionRequest hook answers the ask; the
// default point budget gives each hook its own timeout (nothing cut, nothing warned), while an
// explicit `defaults.pointBudgetMs` still cuts a longer hook, warns and shows it in `hookd check`.
import { execFile } from "node:child_process";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { userMessage } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { openScriptedAgent, toolResults } from "../support/scripted-agent.js";

let daemon: DaemonProcess;
let dir: string;
let configPath: string;
let explicitPath: string;

const script = async (name: string, body: string): Promise<string> => {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/sh\n${body}\n`);
  await chmod(path, 0o755);
  return path;
};
const out = (value: unknown) => `'${JSON.stringify(value)}'`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "hookd-cmd-served-"));
  const prompt = await script("prompt.sh", "echo '{branch: main} is plain text'");
  const rewrite = await script(
    "rewrite.sh",
    `case "$(cat)" in *'"rm -rf build"'*) echo ${out({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "rm -rf ./build" } } })};; *deploy*) echo ${out({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "deploys need a yes" } })};; esac`,
  );
  const patient = await script("patient.sh", "exit 0");
  const approver = await script("approve.sh", `echo ${out({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "not on a Friday" } } })}`);
  const hooks = {
    hooks: {
      UserPromptSubmit: [{ matcher: "[", hooks: [{ type: "command", command: prompt }] }],
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: rewrite }, { type: "command", command: patient, timeout: 30 }] }],
      PermissionRequest: [{ matcher: "Bash", hooks: [{ type: "command", command: approver }] }],
    },
  };
  const hooksPath = join(dir, "settings.json");
  await writeFile(hooksPath, JSON.stringify(hooks));
  const config = { plugins: [{ name: "cc-hooks", kind: "command", hooks: hooksPath, dialect: "claude-code" }] };
  configPath = join(dir, "hookd.json");
  await writeFile(configPath, JSON.stringify({ listeners: [{ unix: join(dir, "check.sock") }], ...config }));
  explicitPath = join(dir, "hookd-explicit.json");
  await writeFile(explicitPath, JSON.stringify({ listeners: [{ unix: join(dir, "check.sock") }], ...config, defaults: { pointBudgetMs: 10_000 } }));
  daemon = await startDaemon({ config });
});

afterAll(async () => {
  await daemon?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("a hooks file with every typed event in a served daemon", () => {
  it("starts despite a matcher on an event without one; the default budget cuts no hook, so nothing is warned", async () => {
    const ignored = await daemon.waitForLog((line) => line.msg === "hooks file entry not run");
    expect(String(ignored.note)).toMatch(/^UserPromptSubmit\[0\]\.matcher: ignored/);
    // The plugin was loaded (its notes are logged as it loads, its cut warnings right after): none.
    await daemon.waitForLog((line) => line.msg === "hookd serving");
    expect(daemon.logs.filter((line) => line.msg === "command hook cut short by hookd")).toEqual([]);
  });

  it("the tool runs the rewritten command, the non-JSON prompt stdout is context, a PermissionRequest hook answers the ask", async () => {
    const agent = openScriptedAgent({
      target: daemon.target,
      agentId: "cc",
      session: { sessionId: "cc-1", cwd: dir },
      script: (_prompt, step) =>
        step === 1
          ? { say: "", calls: [{ callId: "c1", toolName: "Bash", arguments: { command: "rm -rf build" } }, { callId: "c2", toolName: "Bash", arguments: { command: "make deploy" } }] }
          : { say: "done" },
    });
    await agent.prompt("clean up");
    expect(agent.dispatched.map((c) => c.arguments)).toEqual([{ command: "rm -rf ./build" }]);
    const results = toolResults(agent.events);
    expect(results[1]?.result).toMatchObject({ isError: true, code: "denied" });
    expect(JSON.stringify(results[1]?.result)).toContain("not on a Friday");
    const entered = await agent.client.evaluatePreStep({ session: { sessionId: "cc-2", agentId: "cc", cwd: dir }, turn: 1, step: 1, messages: [userMessage("hello")] });
    expect(entered.decision).toMatchObject({ kind: "enter", messages: [{ source: { kind: "user" } }, { source: { kind: "plugin", name: "cc-hooks" }, content: [{ text: "{branch: main} is plain text" }] }] });
    await agent.session.close();
    agent.client.close();
  });

  it("hookd check: the default budget gives every hook its own timeout (the agent's 600 s default too)", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "check", "--config", configPath]);
    expect(stdout).toMatch(/PLUGIN\s+HOOK\s+RUNS AT\s+TIMEOUT\s+EFFECTIVE\s+CUT BY/);
    expect(stdout).toMatch(/cc-hooks\s+PreToolUse\[0\]\.hooks\[1\]\s+rewrite\s+30000ms\s+30000ms\s*\n/);
    expect(stdout).toMatch(/cc-hooks\s+PreToolUse\[0\]\.hooks\[0\]\s+rewrite\s+600000ms \(default\)\s+600000ms\s*\n/);
    expect(stdout).toMatch(/rewrite\s+1\s+cc-hooks\s+command\s+0\s+601000ms\s/);
    expect(stdout).toContain("point budget: 10000ms (default; where command hooks run it grows by their own timeouts)");
  });

  it("hookd check: an explicit defaults.pointBudgetMs still wins, warns and shows what it cuts", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "check", "--config", explicitPath]);
    // The load's cut warning is one of the report's warnings.
    expect(stdout).toContain("PreToolUse[0].hooks[1]: its timeout is 30 s but the point budget cuts it at 10000 ms at rewrite (raise defaults.pointBudgetMs to give it its time)");
    expect(stdout).toMatch(/cc-hooks\s+PreToolUse\[0\]\.hooks\[1\]\s+rewrite\s+30000ms\s+10000ms\s+point budget\n/);
    expect(stdout).toMatch(/cc-hooks\s+PreToolUse\[0\]\.hooks\[0\]\s+rewrite\s+600000ms \(default\)\s+10000ms\s+point budget\n/);
    expect(stdout).toMatch(/rewrite\s+1\s+cc-hooks\s+command\s+0\s+10000ms \(budget; own 601000ms\)/);
    expect(stdout).toContain("point budget: 10000ms (defaults.pointBudgetMs, exact)");
  });
});
