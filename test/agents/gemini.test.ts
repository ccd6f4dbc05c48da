// The real Gemini CLI binary (pinned, installed by scripts/setup-agents.sh) driven by the fake
// model's Gemini adapter (streamGenerateContent over SSE), with a plain command hook at BeforeTool.
// This proves the lane's Gemini half (the scripted conversation, the model's log, what ran) and
// Gemini's own contract for a blocking hook; hookd as Gemini's hook backend through both
// forwarders runs the shared scenarios (scenarios.test.ts).
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel } from "./fake-model/server.js";
import type { FakeModel } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { runGemini } from "./support/gemini.js";
import { SCENARIO_PROMPT, outcome, prepareCwd, scenarioScript, toolResultSaw } from "./support/scenario.js";
import type { Outcome } from "./support/scenario.js";

describe("Gemini CLI through the fake model", () => {
  let model: FakeModel;
  let home: string;
  let run: Awaited<ReturnType<typeof runGemini>>;
  let result: Outcome;

  beforeAll(async () => {
    model = await startFakeModel(scenarioScript);
    home = await tempDir("gemini-home");
    const cwd = await tempDir("gemini-cwd");
    prepareCwd(cwd);
    const hook = join(home, "before-tool.sh");
    writeFileSync(hook, `#!/bin/sh\ncat >> "${home}/before-tool.jsonl"\necho >> "${home}/before-tool.jsonl"\nif grep -q 'rm -r' "${home}/before-tool.jsonl" && ! grep -q harmless "${home}/before-tool.jsonl"; then echo "lane: rm -r refused" >&2; exit 2; fi\necho '{}'\n`);
    chmodSync(hook, 0o755);
    run = await runGemini({ home, cwd, modelUrl: model.url, hooks: { BeforeTool: [{ matcher: ".*", hooks: [{ type: "command", command: hook }] }] }, prompt: SCENARIO_PROMPT });
    result = outcome(cwd, model, []);
  }, 120_000);

  afterAll(async () => {
    await model?.close();
  });

  it("runs the scripted turn: three shell calls, then the final answer", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.events.at(-1)).toMatchObject({ type: "result", status: "success" });
    expect(run.events.filter((e) => e.type === "tool_use").map((e) => (e.parameters as { command?: string }).command)).toEqual(["rm -r victim", "echo harmless-ran > harmless.txt", "echo REWRITE-ME > REWRITE-ME.txt"]);
  });

  it("gives the hook Gemini's BeforeTool payload, blocks on exit 2, and the model receives the hook's stderr", () => {
    const payloads = readFileSync(join(home, "before-tool.jsonl"), "utf8").split("\n").filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(payloads[0]).toMatchObject({ hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "rm -r victim" } });
    expect(typeof payloads[0]?.session_id).toBe("string");
    expect(result.victimSurvived).toBe(true);
    expect(toolResultSaw(result, "lane: rm -r refused")).toBe(true);
    expect(result.harmlessRan).toBe(true);
    expect(existsSync(join(home, "before-tool.jsonl"))).toBe(true);
  });
});
