// The real GitHub Copilot CLI (pinned, installed by scripts/setup-agents.sh copilot-cli) and the
// two rules of its that decide whether hookd is asked at all: an http hook to a loopback URL is
// dropped without a word unless COPILOT_HOOK_ALLOW_LOCALHOST=1 (the tool then runs), and in
// `-p` mode a repository's hooks (.github/hooks/*.json) load only in a trusted folder
// (--trust-folder, GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true or COPILOT_ALLOW_ALL=true). And
// hookd running a Copilot hooks file as a `kind: command` plugin behind Copilot's http hooks, and
// a hook named in PascalCase (Claude Code's payload) through the forwarder.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import { scripted, startFakeModel } from "./fake-model/server.js";
import { forwarderCommand, tempDir } from "./support/agents.js";
import { copilotHooks, runCopilot } from "./support/copilot.js";
import { startPolicyDaemon } from "./support/policy.js";
import { MARK } from "./support/scenario.js";

const RM = "rm -r victim";

/** One Copilot turn asking for `rm -r victim`, its hooks as given; what ran and what hookd saw. */
async function deniedTurn(options: { hooks?: (hookUrl: string) => Record<string, unknown>; repoHooks?: (hookUrl: string) => Record<string, unknown>; args?: string[]; env?: NodeJS.ProcessEnv }) {
  const policy = await startPolicyDaemon();
  const model = await startFakeModel(scripted([{ kind: "shell", command: RM }]));
  try {
    const home = await tempDir("copilot-home");
    const cwd = await tempDir("copilot-cwd");
    execFileSync("git", ["init", "-q"], { cwd });
    writeFileSync(join(cwd, "victim"), "still here\n");
    if (options.repoHooks !== undefined) {
      mkdirSync(join(cwd, ".github", "hooks"), { recursive: true });
      writeFileSync(join(cwd, ".github", "hooks", "hookd.json"), JSON.stringify(options.repoHooks(policy.hookUrl)));
    }
    const run = await runCopilot({ home, cwd, modelUrl: model.url, prompt: "Remove the victim.", ...(options.hooks === undefined ? {} : { hooks: options.hooks(policy.hookUrl) }), args: options.args ?? [], env: options.env ?? {} });
    const gated = (await policy.entries()).filter((entry) => entry.point === "pre-tool");
    return { run, victimSurvived: existsSync(join(cwd, "victim")), preTools: gated.map((entry) => entry.command), toolNames: gated.map((entry) => entry.tool), modelText: model.allText() };
  } finally {
    await model.close();
    await policy.stop();
  }
}

describe.concurrent("GitHub Copilot CLI's rules for reaching hookd", () => {
  it("drops an http hook to a loopback hookd without COPILOT_HOOK_ALLOW_LOCALHOST=1 without a word: hookd is never asked and the denied command runs", async () => {
    const turn = await deniedTurn({ hooks: (url) => copilotHooks("http", url, ["preToolUse"]) });
    expect(turn.run.code, turn.run.stderr).toBe(0);
    expect({ preTools: turn.preTools, victimSurvived: turn.victimSurvived }).toEqual({ preTools: [], victimSurvived: false });
  });

  it("with COPILOT_HOOK_ALLOW_LOCALHOST=1 the same http hook reaches hookd, which denies the command", async () => {
    const turn = await deniedTurn({ hooks: (url) => copilotHooks("http", url, ["preToolUse"]), env: { COPILOT_HOOK_ALLOW_LOCALHOST: "1" } });
    expect({ preTools: turn.preTools, victimSurvived: turn.victimSurvived }).toEqual({ preTools: [RM], victimSurvived: true });
    expect(turn.modelText).toContain(MARK.denyReason);
  });

  it.each([
    ["an untrusted folder: not loaded", [], {}, false],
    ["--trust-folder", ["--trust-folder"], {}, true],
    ["GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true", [], { GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: "true" }, true],
    ["COPILOT_ALLOW_ALL=true", [], { COPILOT_ALLOW_ALL: "true" }, true],
  ] as const)("loads a repository's hooks in -p mode only in a trusted folder: %s", async (_title, args, env, loaded) => {
    const turn = await deniedTurn({ repoHooks: (url) => copilotHooks("c-forwarder", url, ["preToolUse"]), args: [...args], env });
    expect({ preTools: turn.preTools, victimSurvived: turn.victimSurvived }).toEqual(loaded ? { preTools: [RM], victimSurvived: true } : { preTools: [], victimSurvived: false });
  });

  it("a hook named in PascalCase sends Claude Code's payload (tool Bash) through the forwarder, and hookd's answer still denies", async () => {
    const turn = await deniedTurn({ hooks: (url) => ({ version: 1, hooks: { PreToolUse: [{ type: "command", bash: forwarderCommand("c-forwarder", "copilot-cli", "PreToolUse", url) }] } }) });
    expect({ preTools: turn.preTools, toolNames: turn.toolNames, victimSurvived: turn.victimSurvived }).toEqual({ preTools: [RM], toolNames: ["Bash"], victimSurvived: true });
    expect(turn.modelText).toContain(MARK.denyReason);
  });

  it("hookd runs a Copilot hooks file (kind command, dialect copilot-cli): its preToolUse hook gets Copilot's camelCase stdin and its deny stops the command", async () => {
    const dir = await tempDir("copilot-command");
    const hook = join(dir, "guard.sh");
    writeFileSync(hook, `#!/bin/sh\ncat >> "${dir}/stdin.jsonl"\necho >> "${dir}/stdin.jsonl"\necho '{"permissionDecision":"deny","permissionDecisionReason":"refused by a Copilot hooks file"}'\n`);
    chmodSync(hook, 0o755);
    const file = join(dir, "hooks.json");
    writeFileSync(file, JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: "command", bash: hook, matcher: "bash" }] } }));
    const daemon = await startDaemon({ config: { http: { listen: "127.0.0.1:0" }, plugins: [{ name: "copilot-file", kind: "command", hooks: file, dialect: "copilot-cli" }] } });
    const model = await startFakeModel(scripted([{ kind: "shell", command: RM }]));
    try {
      const url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
      const home = await tempDir("copilot-command-home");
      const cwd = await tempDir("copilot-command-cwd");
      writeFileSync(join(cwd, "victim"), "still here\n");
      const run = await runCopilot({ home, cwd, modelUrl: model.url, prompt: "Remove the victim.", hooks: copilotHooks("http", url, ["preToolUse"]), env: { COPILOT_HOOK_ALLOW_LOCALHOST: "1" } });
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(join(cwd, "victim"))).toBe(true);
      expect(model.allText()).toContain("refused by a Copilot hooks file");
      const stdin = JSON.parse(readFileSync(join(dir, "stdin.jsonl"), "utf8").trim()) as Record<string, unknown>;
      expect(stdin).toMatchObject({ cwd, toolName: "bash", toolArgs: { command: RM } });
      expect(typeof stdin.sessionId).toBe("string");
    } finally {
      await model.close();
      await daemon.stop();
    }
  });
});
