// The real Factory Droid through the C forwarder (`--dialect droid`), hookd running a Droid hooks
// file as a `kind: command` plugin behind it (a real /bin/sh hook): the hook's exit 2 keeps the
// rm -r from running and its stderr reaches the model (an exit 3, Droid's "abort the agent", is
// a request to stop the agent, which stops the run: daemon/test/droid-hooks.test.ts); its
// updatedInput, merged over the call's input as Droid merges it, is the command Droid itself ran;
// and its stdin is Droid's: no tool_use_id, the transcript_path Droid sent.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { startFakeModel } from "./fake-model/server.js";
import type { FakeModel } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { droidHooks, runDroid } from "./support/droid.js";
import type { DroidRun } from "./support/droid.js";
import { MARK, SCENARIO_PROMPT, prepareCwd, scenarioScript } from "./support/scenario.js";

const REFUSAL = "droid-guard: rm -r refused";

describe("Factory Droid through the forwarder, a Droid hooks file as a command plugin behind it", () => {
  let daemon: DaemonProcess;
  let model: FakeModel;
  let run: DroidRun;
  let dir: string;
  let cwd: string;

  beforeAll(async () => {
    dir = await tempDir("command-kind-droid");
    cwd = await tempDir("command-kind-droid-cwd");
    prepareCwd(cwd);
    const hook = join(dir, "guard.sh");
    const rewrite = JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: `echo ${MARK.rewriteTo} > ${MARK.rewriteTo}.txt` } } });
    writeFileSync(
      hook,
      `#!/bin/sh\nin=$(cat)\nprintf '%s\\n' "$in" >> "${dir}/pretool.jsonl"\ncase "$in" in\n  *"rm -r"*) echo '${REFUSAL}' >&2; exit 2;;\n  *${MARK.rewriteFrom}*) echo '${rewrite}';;\nesac\nexit 0\n`,
    );
    chmodSync(hook, 0o755);
    const file = join(dir, "settings.json");
    writeFileSync(file, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Execute", hooks: [{ type: "command", command: hook }] }] } }));
    daemon = await startDaemon({ config: { http: { listen: "127.0.0.1:0" }, plugins: [{ name: "droid-file", kind: "command", hooks: file, dialect: "droid" }] } });
    const url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
    model = await startFakeModel(scenarioScript);
    const home = await tempDir("command-kind-droid-home");
    run = await runDroid({ home, cwd, modelUrl: model.url, hooks: droidHooks("c-forwarder", url, ["PreToolUse"]), prompt: SCENARIO_PROMPT });
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await daemon?.stop();
  });

  const records = (): Record<string, unknown>[] =>
    readFileSync(join(dir, "pretool.jsonl"), "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("the hook's exit 2 keeps rm -r from running, and its reason reaches the model", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, "victim"))).toBe(true);
    expect(model.conversations().some((c) => c.toolResults.some((text) => text.includes(REFUSAL)))).toBe(true);
  });

  it("the hook's updatedInput, merged over Execute's arguments, is what Droid ran", () => {
    expect(existsSync(join(cwd, "harmless.txt"))).toBe(true);
    expect({ rewritten: existsSync(join(cwd, `${MARK.rewriteTo}.txt`)), original: existsSync(join(cwd, `${MARK.rewriteFrom}.txt`)) }).toEqual({ rewritten: true, original: false });
  });

  it("the hook's stdin is Droid's: Execute with its risk arguments, no tool_use_id, Droid's transcript_path", () => {
    const [first] = records();
    expect(first).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Execute", tool_input: { command: "rm -r victim", riskLevel: "low" } });
    expect(first).not.toHaveProperty("tool_use_id");
    expect(String(first?.transcript_path)).toMatch(/\.factory\/sessions\/.+\.jsonl$/);
  });
});
