// The real Cline with hookd as its hook backend through both forwarders (`--dialect cline`), one
// real `hookd serve` and the shared policy (support/policy.ts) per run. Cline has no per-call
// deny: hookd's deny of the rm -r cancels the whole task, so the call never runs and nothing
// after it does (docs/agents/cline.md). A second task runs a harmless command (its post-tool
// context reaches the model) and one hookd rewrites (Cline runs the rewritten one, from
// overrideInput); its TaskStart reaches the session-start plugin.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scripted, startFakeModel } from "./fake-model/server.js";
import type { FakeModel } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import type { HookPath } from "./support/agents.js";
import { runCline } from "./support/cline.js";
import type { ClineRun } from "./support/cline.js";
import { startPolicyDaemon } from "./support/policy.js";
import type { PolicyDaemon, PolicyEntry } from "./support/policy.js";
import { MARK, SCENARIO_PROMPT, prepareCwd, scenarioScript } from "./support/scenario.js";

interface Task {
  readonly run: ClineRun;
  readonly model: FakeModel;
  readonly cwd: string;
  readonly entries: readonly PolicyEntry[];
}

async function task(path: Exclude<HookPath, "http">, script: Parameters<typeof startFakeModel>[0]): Promise<Task> {
  const policy: PolicyDaemon = await startPolicyDaemon();
  const model = await startFakeModel(script);
  try {
    const home = await tempDir("cline-home");
    const cwd = await tempDir("cline-cwd");
    prepareCwd(cwd);
    const run = await runCline({ home, cwd, modelUrl: model.url, path, hookUrl: policy.hookUrl, prompt: SCENARIO_PROMPT });
    return { run, model, cwd, entries: await policy.entries() };
  } finally {
    await policy.stop();
  }
}

describe.each(["c-forwarder", "node-forwarder"] as const)("Cline through %s", (path) => {
  let denied: Task;
  let allowed: Task;

  beforeAll(async () => {
    [denied, allowed] = await Promise.all([
      task(path, scenarioScript),
      task(
        path,
        scripted([
          { kind: "shell", command: "echo harmless-ran > harmless.txt" },
          { kind: "shell", command: `echo ${MARK.rewriteFrom} > ${MARK.rewriteFrom}.txt` },
        ]),
      ),
    ]);
  }, 120_000);

  afterAll(async () => {
    await denied?.model.close();
    await allowed?.model.close();
  });

  it("hookd's deny of rm -r cancels the task: the call does not run, nor anything after it", () => {
    expect(existsSync(join(denied.cwd, "victim"))).toBe(true);
    expect(denied.entries.filter((e) => e.point === "pre-tool").map((e) => e.command)).toEqual(["rm -r victim"]);
    expect(existsSync(join(denied.cwd, "harmless.txt"))).toBe(false);
    // Cline keeps the cancel's reason to itself (its TaskError hook gets it): its output says only that the task was aborted.
    expect(denied.run.events.filter((e) => e.type === "run_result").map((e) => e.finishReason)).toEqual(["aborted"]);
  });

  it("runs the harmless command, and its post-tool context reaches the model", () => {
    expect(allowed.run.code, allowed.run.stderr).toBe(0);
    expect(existsSync(join(allowed.cwd, "harmless.txt"))).toBe(true);
    expect(allowed.entries.some((e) => e.point === "post-tool" && e.tool === "run_commands" && e.command?.includes("harmless") === true)).toBe(true);
    expect(allowed.model.conversations().some((c) => [...c.userTexts, ...c.toolResults].some((text) => text.includes(MARK.postToolContext)))).toBe(true);
  });

  it("Cline itself runs hookd's rewrite (overrideInput)", () => {
    expect({ rewritten: existsSync(join(allowed.cwd, `${MARK.rewriteTo}.txt`)), original: existsSync(join(allowed.cwd, `${MARK.rewriteFrom}.txt`)) }).toEqual({ rewritten: true, original: false });
  });

  it("the task's start reaches the session-start plugin", () => {
    expect(allowed.entries.find((e) => e.point === "session-start")).toMatchObject({ source: "startup", session: { agentId: "cline" } });
  });
});
