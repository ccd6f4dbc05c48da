// The real Codex binary (pinned, installed by scripts/setup-agents.sh) with hookd as its hook
// backend through each documented path: Codex runs command hooks only, so the C forwarder and the
// node forwarder. The model is the project's fake model server (Responses API); the policy runs
// inside a real `hookd serve`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "../support/daemon-process.js";
import { startFakeModel } from "./fake-model/server.js";
import type { FakeModel } from "./fake-model/server.js";
import { agentBin, runAgent, tempDir } from "./support/agents.js";
import type { HookPath } from "./support/agents.js";
import { codexEnv, codexHooks, runCodex } from "./support/codex.js";
import { startPolicyDaemon } from "./support/policy.js";
import { concrete, documentedHooks } from "./support/snippets.js";
import type { PolicyDaemon } from "./support/policy.js";
import { MARK, SCENARIO_PROMPT, outcome, prepareCwd, scenarioScript, toolResultSaw, userSaw } from "./support/scenario.js";
import type { Outcome } from "./support/scenario.js";

const PATHS: readonly Exclude<HookPath, "http">[] = ["c-forwarder", "node-forwarder"];

describe.each(PATHS)("Codex through %s", (path) => {
  let policy: PolicyDaemon;
  let model: FakeModel;
  let run: Awaited<ReturnType<typeof runCodex>>;
  let result: Outcome;

  beforeAll(async () => {
    policy = await startPolicyDaemon();
    model = await startFakeModel(scenarioScript);
    const home = await tempDir("codex-home");
    const cwd = await tempDir("codex-cwd");
    prepareCwd(cwd);
    // The README's Codex snippet as documented, its hookd-hook made the forwarder under test.
    run = await runCodex({ home, cwd, modelUrl: model.url, hooks: concrete(documentedHooks("codex"), path, policy.hookUrl), prompt: SCENARIO_PROMPT });
    result = outcome(cwd, model, await policy.entries());
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await policy?.stop();
  });

  it("runs the turn to its end", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.events.some((e) => e.type === "turn.completed")).toBe(true);
  });

  it("does not run the denied rm -r, and the model receives hookd's reason", () => {
    expect(result.victimSurvived).toBe(true);
    expect(toolResultSaw(result, MARK.denyReason)).toBe(true);
    expect(result.entries.filter((e) => e.point === "pre-tool" && e.command === "rm -r victim")).toHaveLength(1);
  });

  it("runs the harmless command, and its post-tool context reaches the model", () => {
    expect(result.harmlessRan).toBe(true);
    expect(result.entries.some((e) => e.point === "post-tool" && e.tool === "Bash" && e.command?.includes("harmless") === true)).toBe(true);
    expect(userSaw(result, MARK.postToolContext) || toolResultSaw(result, MARK.postToolContext)).toBe(true);
  });

  it("delivers the session-start and prompt contexts to the model", () => {
    expect(result.entries.find((e) => e.point === "session-start")).toMatchObject({ source: "startup", session: { agentId: "codex" } });
    expect(userSaw(result, MARK.sessionContext)).toBe(true);
    expect(userSaw(result, MARK.promptContext)).toBe(true);
  });

  it("applies hookd's rewrite: the agent itself ran the rewritten command", () => {
    expect(result.rewriteApplied).toBe(true);
    expect(result.entries.some((e) => e.point === "pre-tool" && e.command === "echo rewritten-by-hookd > rewritten-by-hookd.txt")).toBe(true);
  });

  it("reaches the session-end plugin when the session ends", () => {
    expect(result.entries.filter((e) => e.point === "session-end")).toEqual([expect.objectContaining({ reason: "closed", session: expect.objectContaining({ agentId: "codex" }) as unknown })]);
  });

  it("continues once on a stop steer", () => {
    const stops = result.entries.filter((e) => e.point === "turn-stopping");
    expect(stops.map((e) => e.stopHookActive)).toEqual([false, true]);
    expect(userSaw(result, MARK.steer)).toBe(true);
    expect(model.requests.filter((r) => r.conversation !== undefined && r.conversation.tools.length > 0 && r.reply?.kind === "text")).toHaveLength(2);
  });
});

describe("Codex hook trust", () => {
  const TRUST = join(REPO, "hooks-examples/codex/trust-hookd-hooks.mjs");

  // Codex 0.171 headless: an untrusted hook is skipped without a word in `codex exec --json`.
  // The script asks Codex's own app-server which of hookd's hooks are untrusted (--check warns)
  // and records Codex's own hash for them; then `codex exec` runs them without the bypass flag.
  it("headless Codex skips hookd's untrusted hooks without a word; the trust script warns about them, and once it trusted them they run", async () => {
    const policy = await startPolicyDaemon();
    const model = await startFakeModel(scenarioScript);
    try {
      const home = await tempDir("codex-home");
      const cwd = await tempDir("codex-cwd");
      prepareCwd(cwd);
      const untrusted = await runCodex({ home, cwd, modelUrl: model.url, hooks: codexHooks("c-forwarder", policy.hookUrl), prompt: SCENARIO_PROMPT, trust: false });
      expect(untrusted.code, untrusted.stderr).toBe(0);
      expect(await policy.entries()).toEqual([]);
      expect(existsSync(join(cwd, "victim"))).toBe(false); // no hook ran: the rm -r did
      expect(untrusted.events.length).toBeGreaterThan(0);
      expect(untrusted.events.filter((e) => JSON.stringify(e).match(/hook|trust/i) !== null)).toEqual([]);

      const env = codexEnv(home);
      const script = (args: readonly string[]) => runAgent(process.execPath, [TRUST, "--codex", agentBin("codex"), "--cwd", cwd, ...args], { cwd, env });
      const check = await script(["--check"]);
      expect(check.code, check.stderr).toBe(1);
      expect(check.stderr).toContain("will not run 6 of hookd's hooks headless");
      expect(check.stdout.match(/^untrusted /gm)).toHaveLength(6);
      const trusted = await script([]);
      expect(trusted.code, trusted.stderr).toBe(0);
      expect(trusted.stdout.match(/^trusted {3}/gm)).toHaveLength(6);
      const after = await script(["--check"]);
      expect(after.code, after.stderr).toBe(0);
      expect(after.stdout.match(/^trusted {3}/gm)).toHaveLength(6);
      expect(readFileSync(join(home, ".codex/config.toml"), "utf8")).toMatch(/\[hooks\.state\."[^"]+hooks\.json:pre_tool_use:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/);

      // Trusted, the same hooks run headless without the bypass flag.
      const next = await tempDir("codex-cwd");
      prepareCwd(next);
      const run = await runCodex({ home, cwd: next, modelUrl: model.url, hooks: codexHooks("c-forwarder", policy.hookUrl), prompt: SCENARIO_PROMPT, trust: false });
      expect(run.code, run.stderr).toBe(0);
      expect(existsSync(join(next, "victim"))).toBe(true);
      expect((await policy.entries()).some((e) => e.point === "pre-tool" && e.command === "rm -r victim")).toBe(true);
    } finally {
      await model.close();
      await policy.stop();
    }
  }, 120_000);
});
