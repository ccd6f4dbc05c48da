// The shared scenario driver of the real-agent lane: one table of what hookd must do to a real
// agent's turn (deny, allow, rewrite, prompt and post-tool context, stop steer, session start and
// end), run for an agent driver through each of its hook paths. An agent's driver says how to run
// it and the few facts in which agents differ; everything asserted is here, once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel } from "../fake-model/server.js";
import type { FakeModel } from "../fake-model/server.js";
import { tempDir } from "./agents.js";
import type { AgentRun, Dialect, HookPath } from "./agents.js";
import { startPolicyDaemon } from "./policy.js";
import type { PolicyDaemon } from "./policy.js";
import { MARK, SCENARIO_PROMPT, outcome, prepareCwd, scenarioScript, toolResultSaw, userSaw } from "./scenario.js";
import type { Outcome } from "./scenario.js";

/** A hook path, or hookd's in-process plugin for an agent whose hooks are in-process code (gRPC). */
export type DriverPath = HookPath | "plugin";

export interface DriverRunOptions<P extends DriverPath = HookPath> {
  readonly path: P;
  readonly home: string;
  readonly cwd: string;
  readonly modelUrl: string;
  /** hookd's hook endpoint (http hooks and the forwarders' --url). */
  readonly hookUrl: string;
  /** hookd's gRPC target (the in-process plugins' HOOKD_TARGET). */
  readonly hookdTarget?: string;
  readonly prompt: string;
}

export interface DriverRun extends AgentRun {
  /** The agent itself reported the turn's successful end (in its own output format). */
  readonly finished: boolean;
}

/** One real agent as the lane drives it, through the paths P. */
export interface AgentDriver<P extends DriverPath = HookPath> {
  /** As in the test titles: "Claude Code". */
  readonly name: string;
  /** The dialect hookd speaks to it, and the agent id its sessions get. */
  readonly dialect: Dialect;
  readonly paths: readonly P[];
  /** Its shell tool's name as hookd's plugins see it. */
  readonly shellTool: string;
  /** It runs the input a pre-tool rewrite gave (false: it would run the model's own, as measured natively, so hookd denies the call). */
  readonly honoursRewrite: boolean;
  /** Its headless run ends the session with an event hookd sees. */
  readonly firesSessionEnd: boolean;
  /** It has a stop event a hook can answer (default true); without one no stop reaches hookd. */
  readonly firesStop?: boolean;
  /** Its headless run fires a prompt-submit hook (false: hookd's pre-step never runs, as measured). */
  readonly firesPromptSubmit?: boolean;
  /** Where it puts a session-start hook's context for the model: a user message or the system prompt. */
  readonly sessionContextIn: "user" | "system";
  /** Runs the agent headless on `prompt`, its hooks reaching hookd through `path`. */
  run(options: DriverRunOptions<P>): Promise<DriverRun>;
}

interface ScenarioResult {
  readonly driver: AgentDriver<DriverPath>;
  readonly run: DriverRun;
  readonly model: FakeModel;
  readonly outcome: Outcome;
}

interface Scenario {
  readonly title: string;
  readonly check: (result: ScenarioResult) => void;
}

/** What hookd's policy (support/policy.ts) does to every agent's turn, and how each is observed. */
export const SCENARIOS: readonly Scenario[] = [
  {
    title: "runs the turn to its end",
    check: ({ run }) => {
      expect(run.code, run.stderr).toBe(0);
      expect(run.finished, run.stdout.slice(-2000)).toBe(true);
    },
  },
  {
    title: "does not run the denied rm -r, and the model receives hookd's reason",
    check: ({ outcome: result }) => {
      expect(result.victimSurvived).toBe(true);
      expect(toolResultSaw(result, MARK.denyReason)).toBe(true);
      expect(result.entries.filter((e) => e.point === "pre-tool" && e.command === "rm -r victim")).toHaveLength(1);
    },
  },
  {
    title: "runs the harmless command, and its post-tool context reaches the model",
    check: ({ driver, outcome: result }) => {
      expect(result.harmlessRan).toBe(true);
      expect(result.entries.some((e) => e.point === "post-tool" && e.tool === driver.shellTool && e.command?.includes("harmless") === true)).toBe(true);
      expect(userSaw(result, MARK.postToolContext) || toolResultSaw(result, MARK.postToolContext)).toBe(true);
    },
  },
  {
    title: "delivers the session-start and prompt contexts to the model",
    check: ({ driver, outcome: result }) => {
      expect(result.entries.find((e) => e.point === "session-start")).toMatchObject({ source: "startup", session: { agentId: driver.dialect } });
      if (driver.sessionContextIn === "user") expect(userSaw(result, MARK.sessionContext)).toBe(true);
      else expect(result.conversations.length > 0 && result.conversations.every((c) => c.system.includes(MARK.sessionContext))).toBe(true);
      if (driver.firesPromptSubmit === false) expect(result.entries.filter((e) => e.point === "pre-step")).toEqual([]);
      else expect(userSaw(result, MARK.promptContext)).toBe(true);
    },
  },
  {
    title: "applies hookd's rewrite: the agent itself ran the rewritten command, or (an agent that cannot take it) neither command",
    check: ({ driver, outcome: result }) => {
      expect(result.entries.some((e) => e.point === "pre-tool" && e.command === `echo ${MARK.rewriteTo} > ${MARK.rewriteTo}.txt`)).toBe(true);
      if (driver.honoursRewrite) expect(result.rewriteApplied).toBe(true);
      else {
        // The agent would run the model's own command: hookd denies the call instead, saying why.
        expect({ rewriteApplied: result.rewriteApplied, originalRan: result.originalRan }).toEqual({ rewriteApplied: false, originalRan: false });
        expect(toolResultSaw(result, "cannot reach")).toBe(true);
      }
    },
  },
  {
    title: "reaches the session-end plugin when the session ends",
    check: ({ driver, outcome: result }) => {
      const ends = result.entries.filter((e) => e.point === "session-end");
      if (driver.firesSessionEnd) expect(ends).toEqual([expect.objectContaining({ reason: "closed", session: expect.objectContaining({ agentId: driver.dialect }) as unknown })]);
      else expect(ends).toEqual([]);
    },
  },
  {
    title: "continues once on a stop steer",
    check: ({ driver, model, outcome: result }) => {
      if (driver.firesStop === false) {
        expect(result.entries.filter((e) => e.point === "turn-stopping")).toEqual([]);
        return;
      }
      expect(result.entries.filter((e) => e.point === "turn-stopping").map((e) => e.stopHookActive)).toEqual([false, true]);
      expect(userSaw(result, MARK.steer)).toBe(true);
      // Two final answers reached the agent: before and after the steer, nothing more.
      expect(model.requests.filter((r) => r.conversation !== undefined && r.conversation.tools.length > 0 && r.reply?.kind === "text")).toHaveLength(2);
    },
  },
];

/** The scenario table for one agent, through each of its paths: one real `hookd serve` and one agent run per path. */
export function describeScenarios(driver: AgentDriver<DriverPath>): void {
  describe.each(driver.paths)(`${driver.name} through %s`, (path) => {
    let policy: PolicyDaemon | undefined;
    let model: FakeModel | undefined;
    let result: ScenarioResult;

    beforeAll(async () => {
      policy = await startPolicyDaemon();
      model = await startFakeModel(scenarioScript);
      const home = await tempDir(`${driver.dialect}-home`);
      const cwd = await tempDir(`${driver.dialect}-cwd`);
      prepareCwd(cwd);
      const run = await driver.run({ path, home, cwd, modelUrl: model.url, hookUrl: policy.hookUrl, hookdTarget: policy.daemon.target, prompt: SCENARIO_PROMPT });
      result = { driver, run, model, outcome: outcome(cwd, model, await policy.entries()) };
    }, 120_000);

    afterAll(async () => {
      await model?.close();
      await policy?.stop();
    });

    for (const scenario of SCENARIOS) it(scenario.title, () => scenario.check(result));
  });
}
