// What the real Codex sends its command hooks, event by event: every event Codex has is
// registered with a hook that appends its stdin to a file and answers nothing (no opinion).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { startFakeModel } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { runCodex } from "./support/codex.js";
import { SCENARIO_PROMPT, prepareCwd, scenarioScript } from "./support/scenario.js";

const ALL_EVENTS = ["SessionStart", "SessionEnd", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "PostToolUse", "PreCompact", "PostCompact", "SubagentStart", "SubagentStop", "Stop"];

describe("Codex's events, recorded", () => {
  let bodies: Record<string, unknown>[];

  beforeAll(async () => {
    const model = await startFakeModel(scenarioScript);
    const home = await tempDir("codex-home");
    const cwd = await tempDir("codex-cwd");
    prepareCwd(cwd);
    const log = join(home, "events.jsonl");
    writeFileSync(log, "");
    const hooks: Record<string, unknown> = {};
    for (const event of ALL_EVENTS) hooks[event] = [{ matcher: "*", hooks: [{ type: "command", command: `cat >> ${log}; echo >> ${log}`, timeout: 30 }] }];
    try {
      const run = await runCodex({ home, cwd, modelUrl: model.url, hooks, prompt: SCENARIO_PROMPT });
      expect(run.code, run.stderr).toBe(0);
    } finally {
      await model.close();
    }
    bodies = readFileSync(log, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  }, 120_000);

  it("sends SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop and SessionEnd with turn_id and model; its shell tool as Bash", () => {
    const events = bodies.map((b) => b.hook_event_name);
    for (const event of ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]) expect(events, event).toContain(event);
    expect(bodies.find((b) => b.hook_event_name === "SessionStart")).toMatchObject({ source: "startup", model: "gpt-fake" });
    expect(bodies.find((b) => b.hook_event_name === "PreToolUse")).toMatchObject({ tool_name: "Bash", tool_input: { command: "rm -r victim" }, turn_id: expect.any(String) as unknown });
    expect(bodies.find((b) => b.hook_event_name === "PostToolUse")).toMatchObject({ tool_name: "Bash", tool_response: expect.anything() as unknown });
    expect(bodies.filter((b) => b.hook_event_name === "Stop").at(0)).toMatchObject({ stop_hook_active: false });
    for (const body of bodies) expect(body).toMatchObject({ session_id: expect.any(String) as unknown, cwd: expect.any(String) as unknown });
  });
});

// Codex applies a PreToolUse `allow` + `updatedInput` (a string command for its shell) and runs
// the rewritten command itself: the form hookd's rewrite point answers Codex with.
it("Codex runs the command a PreToolUse allow + updatedInput rewrote", async () => {
  const model = await startFakeModel((c) => (c.tools.length === 0 ? { kind: "text", text: "ok" } : c.toolResults.length === 0 ? { kind: "shell", command: "echo original > original.txt" } : { kind: "text", text: "DONE" }));
  try {
    const home = await tempDir("codex-home");
    const cwd = await tempDir("codex-cwd");
    const answer = join(home, "answer.json");
    writeFileSync(answer, JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo rewritten > rewritten.txt" } } }));
    const hooks = { PreToolUse: [{ matcher: "*", hooks: [{ type: "command", command: `cat > /dev/null; cat ${answer}`, timeout: 30 }] }] };
    const run = await runCodex({ home, cwd, modelUrl: model.url, hooks, prompt: "write it" });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(cwd, "rewritten.txt"))).toBe(true);
    expect(existsSync(join(cwd, "original.txt"))).toBe(false);
  } finally {
    await model.close();
  }
}, 120_000);
