// The real Claude Code binary (pinned, installed by scripts/setup-agents.sh) with hookd as its
// hook backend through each documented path: its own http hooks (SessionStart through the C
// forwarder, as Claude Code runs no http hook there), the C forwarder and the node forwarder.
// The model is the project's fake model server; the policy runs inside a real `hookd serve`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel } from "./fake-model/server.js";
import type { FakeModel } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import type { HookPath } from "./support/agents.js";
import { claudeHooks, runClaude } from "./support/claude.js";
import type { ClaudeRun } from "./support/claude.js";
import { startPolicyDaemon } from "./support/policy.js";
import { concrete, documentedHooks } from "./support/snippets.js";
import type { PolicyDaemon } from "./support/policy.js";
import { MARK, SCENARIO_PROMPT, outcome, prepareCwd, scenarioScript, toolResultSaw, userSaw } from "./support/scenario.js";
import type { Outcome } from "./support/scenario.js";

const PATHS: readonly HookPath[] = ["http", "c-forwarder", "node-forwarder"];

describe.each(PATHS)("Claude Code through %s", (path) => {
  let policy: PolicyDaemon;
  let model: FakeModel;
  let run: ClaudeRun;
  let result: Outcome;

  beforeAll(async () => {
    policy = await startPolicyDaemon();
    model = await startFakeModel(scenarioScript);
    const home = await tempDir("claude-home");
    const cwd = await tempDir("claude-cwd");
    prepareCwd(cwd);
    // The http path runs the README's snippet as documented (SessionStart through the C forwarder).
    const hooks = path === "http" ? concrete(documentedHooks("claude-code-http"), "c-forwarder", policy.hookUrl) : claudeHooks(path, policy.hookUrl);
    run = await runClaude({ home, cwd, modelUrl: model.url, hooks, prompt: SCENARIO_PROMPT, args: ["--allowedTools", "Bash"] });
    result = outcome(cwd, model, await policy.entries());
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await policy?.stop();
  });

  it("runs the turn to its end", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.events.at(-1)).toMatchObject({ type: "result", subtype: "success" });
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
    expect(result.entries.find((e) => e.point === "session-start")).toMatchObject({ source: "startup", session: { agentId: "claude-code" } });
    expect(userSaw(result, MARK.sessionContext)).toBe(true);
    expect(userSaw(result, MARK.promptContext)).toBe(true);
  });

  it("applies hookd's rewrite: the agent itself ran the rewritten command", () => {
    expect(result.rewriteApplied).toBe(true);
    expect(result.entries.some((e) => e.point === "pre-tool" && e.command === "echo rewritten-by-hookd > rewritten-by-hookd.txt")).toBe(true);
  });

  it("reaches the session-end plugin when the session ends", () => {
    expect(result.entries.filter((e) => e.point === "session-end")).toEqual([expect.objectContaining({ reason: "closed", session: expect.objectContaining({ agentId: "claude-code" }) as unknown })]);
  });

  it("continues once on a stop steer", () => {
    const stops = result.entries.filter((e) => e.point === "turn-stopping");
    expect(stops.map((e) => e.stopHookActive)).toEqual([false, true]);
    expect(userSaw(result, MARK.steer)).toBe(true);
    // Two final answers reached the agent: before and after the steer, nothing more.
    expect(model.requests.filter((r) => r.conversation !== undefined && r.conversation.tools.length > 0 && r.reply?.kind === "text")).toHaveLength(2);
  });
});
