// Qwen Code's own hook contract, measured on the real binary (pinned, installed by
// scripts/setup-agents.sh) with plain command hooks and no hookd: what each answer does to the
// tool, to what reaches the model and to the turn. docs/agents/qwen-code.md states these facts;
// the hookd-through tests are compared against this reference.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scripted, startFakeModel } from "./fake-model/server.js";
import type { FakeModel, Script } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { nativeHook } from "./support/native-hook.js";
import type { HookRule, NativeHook } from "./support/native-hook.js";
import { qwenCommandHooks, runQwen } from "./support/qwen.js";
import type { QwenRun } from "./support/qwen.js";
import { SCENARIO_PROMPT, prepareCwd, scenarioScript } from "./support/scenario.js";

const FIXTURE = JSON.parse(readFileSync(join(import.meta.dirname, "../fixtures/qwen-code-0.24.4-payloads.json"), "utf8")) as { events: Record<string, Record<string, unknown>> };

const MARK = {
  denyReason: "native-hook: rm -r refused",
  sessionContext: "QWEN-SESSION-CONTEXT-a1",
  promptContext: "QWEN-PROMPT-CONTEXT-b2",
  postToolContext: "QWEN-POST-TOOL-CONTEXT-c3",
  steer: "QWEN-STEER-d4: check your work, then answer DONE again",
  exit2Reason: "native-hook: exit 2 refused it",
  askReason: "native-hook: this one needs a person",
  postBlockReason: "QWEN-POST-BLOCK-e5",
  stopReason: "QWEN-STOP-REASON-f6",
  parallel: "native-hook: the two hooks met, so they ran at the same time",
  preToolContext: "QWEN-PRE-TOOL-CONTEXT-g7",
  systemMessage: "QWEN-SYSTEM-MESSAGE-h8",
  chained: "echo CHAINED-BY-THE-FIRST-HOOK",
} as const;

const preTool = (decision: Record<string, unknown>): Record<string, unknown> => ({ hookSpecificOutput: { hookEventName: "PreToolUse", ...decision } });
const context = (event: string, text: string): Record<string, unknown> => ({ hookSpecificOutput: { hookEventName: event, additionalContext: text } });

interface Turn {
  readonly home: string;
  readonly cwd: string;
  readonly run: QwenRun;
  readonly model: FakeModel;
  readonly hook: NativeHook;
}

/** Every hook event Qwen Code 0.24.4 has (`HookEventName` in its bundle). */
const ALL_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification", "UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Stop", "MessageDisplay", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "SessionDelete", "PermissionRequest", "PermissionDenied", "StopFailure", "TodoCreated", "TodoCompleted", "InstructionsLoaded"] as const;

/** The turn the fixture was recorded with: a shell command, a read of a missing file, the answer. */
const FIXTURE_SCRIPT = scripted([
  { kind: "shell", command: "echo hi > hi.txt" },
  { kind: "tool", name: "read_file", input: { file_path: "/nonexistent/qwen-fixture.txt" } },
]);

type PreToolGroups = (hook: NativeHook, home: string) => Record<string, unknown>[];

/** Matcher probes: each records only; which ones fire shows what the matcher is tested against. */
const matcherProbes: PreToolGroups = (hook) => {
  const probe = (label: string, matcher: string): Record<string, unknown> => ({ matcher, hooks: [{ type: "command", command: hook.command(label) }] });
  return [probe("alias-Bash", "Bash"), probe("regex-run_shell", "^run_sh"), probe("other-tool", "read_file"), probe("list", "glob|Shell")];
};

/** One headless turn (the shared scenario unless told) with these rules answering, and more PreToolUse groups after the events' own. */
async function turn(rules: readonly HookRule[], events: readonly string[], script: Script = scenarioScript, preTool: PreToolGroups = matcherProbes): Promise<Turn> {
  const model = await startFakeModel(script);
  const home = await tempDir("qwen-home");
  const cwd = await tempDir("qwen-cwd");
  prepareCwd(cwd);
  const hook = nativeHook(home, rules);
  const hooks = qwenCommandHooks(hook.command, events);
  hooks.PreToolUse = [...((hooks.PreToolUse as unknown[] | undefined) ?? []), ...preTool(hook, home)];
  const run = await runQwen({ home, cwd, modelUrl: model.url, hooks, prompt: SCENARIO_PROMPT });
  return { home, cwd, run, model, hook };
}

/**
 * Two PreToolUse groups meeting at a named pipe: the first opens it to read, which blocks until
 * the second opens it to write. Only hooks that run at the same time get past it (sequential ones
 * would wait out the first's timeout, and its deny would be lost).
 */
const rendezvous: PreToolGroups = (_hook, home) => {
  const pipe = join(home, "rendezvous");
  execFileSync("mkfifo", [pipe]);
  const deny = JSON.stringify(preTool({ permissionDecision: "deny", permissionDecisionReason: MARK.parallel }));
  return [
    { matcher: "*", hooks: [{ type: "command", command: `cat >/dev/null; head -n1 ${pipe} >/dev/null; echo '${deny}'`, timeout: 20 }] },
    { matcher: "*", hooks: [{ type: "command", command: `cat >/dev/null; echo met > ${pipe}`, timeout: 20 }] },
  ];
};

/**
 * Two PreToolUse hooks that never finish on their own (each reads a pipe nobody writes), timeouts
 * 1 and 1500: the turn ends only if Qwen kills both, so only if 1500 is read as milliseconds (as
 * seconds, the run would outlast the test).
 */
const hanging: PreToolGroups = (_hook, home) =>
  [1, 1500].map((timeout) => {
    const pipe = join(home, `never-${timeout}`);
    execFileSync("mkfifo", [pipe]);
    const deny = JSON.stringify(preTool({ permissionDecision: "deny", permissionDecisionReason: "native-hook: got past a pipe nobody writes" }));
    return { matcher: "*", hooks: [{ type: "command", command: `cat > ${join(home, `started-${timeout}`)}; head -n1 ${pipe} >/dev/null; echo '${deny}'`, timeout }] };
  });

/** A `sequential` group first, answering a tool_input; a recording hook second. */
const chained: PreToolGroups = (hook) => [
  { matcher: "*", sequential: true, hooks: [{ type: "command", command: hook.command("first") }] },
  { matcher: "*", hooks: [{ type: "command", command: hook.command("second") }] },
];

const toolResults = (t: Turn): readonly string[] => t.model.conversations().at(-1)?.toolResults ?? [];
const userTexts = (t: Turn): readonly string[] => t.model.conversations().flatMap((c) => c.userTexts);
const ran = (t: Turn, file: string): boolean => existsSync(join(t.cwd, file));

describe("Qwen Code's hook contract, native (no hookd)", () => {
  let answers: Turn;
  let exits: Turn;
  let stops: Turn;
  let recorded: Turn;
  let parallel: Turn;
  let sequential: Turn;
  let timedOut: Turn;

  beforeAll(async () => {
    answers = await turn(
      [
        { label: "SessionStart", output: context("SessionStart", MARK.sessionContext) },
        { label: "UserPromptSubmit", when: ["Tidy up"], output: context("UserPromptSubmit", MARK.promptContext) },
        { label: "PreToolUse", when: ["rm -r"], output: preTool({ permissionDecision: "deny", permissionDecisionReason: MARK.denyReason }) },
        { label: "PreToolUse", when: ["harmless"], output: { ...preTool({ permissionDecision: "allow", additionalContext: MARK.preToolContext }), systemMessage: MARK.systemMessage } },
        { label: "PreToolUse", when: ["REWRITE-ME"], output: preTool({ permissionDecision: "allow", updatedInput: { command: "echo rewritten-by-hook > rewritten-by-hook.txt" } }) },
        { label: "PostToolUse", when: ["harmless"], output: context("PostToolUse", MARK.postToolContext) },
        { label: "Stop", when: ['"stop_hook_active":false'], output: { decision: "block", reason: MARK.steer } },
      ],
      ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"],
    );
    exits = await turn(
      [
        { label: "PreToolUse", when: ["rm -r"], exit: 2, stderr: MARK.exit2Reason },
        { label: "PreToolUse", when: ["harmless"], exit: 1, stderr: "native-hook: exit 1 is only a warning" },
        { label: "PreToolUse", when: ["REWRITE-ME"], output: preTool({ permissionDecision: "ask", permissionDecisionReason: MARK.askReason }) },
        { label: "PostToolUse", when: ["harmless"], output: { decision: "block", reason: MARK.postBlockReason } },
      ],
      ["PreToolUse", "PostToolUse"],
    );
    stops = await turn([{ label: "PostToolUse", when: ["harmless"], output: { continue: false, stopReason: MARK.stopReason } }], ["PreToolUse", "PostToolUse"]);
    recorded = await turn([], ALL_EVENTS, FIXTURE_SCRIPT);
    parallel = await turn([], [], scenarioScript, rendezvous);
    sequential = await turn([{ label: "first", output: preTool({ tool_input: { command: MARK.chained } }) }], [], scenarioScript, chained);
    timedOut = await turn([], [], scenarioScript, hanging);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([answers, exits, stops, recorded, parallel, sequential, timedOut].map((t) => t?.model.close()));
  });

  it("runs each turn to its end", () => {
    for (const t of [answers, exits, stops, recorded, parallel, sequential, timedOut]) {
      expect(t.run.code, t.run.stderr).toBe(0);
      expect(t.run.events.at(-1)).toMatchObject({ type: "result", subtype: "success" });
    }
  });

  it("a PreToolUse deny stops the tool, and its reason reaches the model as the tool result", () => {
    expect(ran(answers, "victim")).toBe(true);
    expect(toolResults(answers)[0]).toBe(MARK.denyReason);
  });

  it("a PreToolUse allow runs the tool; its additionalContext and systemMessage reach neither the model nor the output", () => {
    expect(readFileSync(join(answers.cwd, "harmless.txt"), "utf8")).toContain("harmless-ran");
    expect(answers.hook.payloads("PreToolUse").some((p) => JSON.stringify(p).includes("harmless"))).toBe(true);
    for (const text of [MARK.preToolContext, MARK.systemMessage]) {
      expect(answers.model.allText()).not.toContain(text);
      expect(answers.run.stdout + answers.run.stderr).not.toContain(text);
    }
  });

  it("ignores a PreToolUse updatedInput: the tool runs with the model's own input", () => {
    expect(ran(answers, "REWRITE-ME.txt")).toBe(true);
    expect(ran(answers, "rewritten-by-hook.txt")).toBe(false);
  });

  it("adds the prompt's additionalContext to the user's prompt, and SessionStart's to the system prompt", () => {
    expect(userTexts(answers).some((t) => t.includes("Tidy up") && t.includes(MARK.promptContext))).toBe(true);
    expect(answers.model.conversations().length).toBeGreaterThan(0);
    expect(answers.model.conversations().every((c) => c.system.includes(MARK.sessionContext))).toBe(true);
  });

  it("fires UserPromptSubmit again before each continuation: an empty prompt after tool results, the reason after a Stop block", () => {
    expect(answers.hook.payloads("UserPromptSubmit").map((p) => p.prompt)).toEqual([SCENARIO_PROMPT, "", "", "", MARK.steer]);
  });

  it("appends PostToolUse's additionalContext to the tool result", () => {
    expect(toolResults(answers)[1]).toContain("harmless-ran");
    expect(toolResults(answers)[1]).toContain(MARK.postToolContext);
  });

  it("continues the turn once on a Stop decision block, the reason as a user message", () => {
    expect(answers.hook.payloads("Stop").map((p) => p.stop_hook_active)).toEqual([false, true]);
    expect(userTexts(answers)).toContain(MARK.steer);
    expect(answers.model.requests.filter((r) => r.reply?.kind === "text" && (r.conversation?.tools.length ?? 0) > 0)).toHaveLength(2);
  });

  it("fires no SessionEnd headless", () => {
    expect(answers.hook.payloads("SessionEnd")).toEqual([]);
  });

  it("matches the tool name exactly, by its aliases (Bash, Shell), or as an unanchored regex", () => {
    const commands = (label: string): unknown[] => answers.hook.payloads(label).map((p) => (p.tool_input as { command?: string }).command);
    const all = ["rm -r victim", "echo harmless-ran > harmless.txt", "echo REWRITE-ME > REWRITE-ME.txt"];
    expect(commands("alias-Bash")).toEqual(all);
    expect(commands("regex-run_shell")).toEqual(all);
    expect(commands("list")).toEqual(all);
    expect(commands("other-tool")).toEqual([]);
  });

  it("fires the fixture's events, and no other, in the fixture's turn, with the fixture's fields", () => {
    const events: readonly string[] = ALL_EVENTS;
    const fired = [...new Set(recorded.hook.calls().map((call) => call.label))].filter((label) => events.includes(label)).sort();
    expect(fired).toEqual(Object.keys(FIXTURE.events).sort());
    for (const event of fired) {
      expect(Object.keys(recorded.hook.payloads(event)[0] ?? {}).sort(), event).toEqual(Object.keys(FIXTURE.events[event] ?? {}).sort());
    }
    expect(recorded.hook.payloads("PostToolUseFailure")[0]).toMatchObject({ tool_name: "read_file", tool_input: { file_path: "/nonexistent/qwen-fixture.txt" }, is_interrupt: false });
    expect(answers.hook.payloads("PreToolUse")[0]).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "run_shell_command", tool_input: { command: "rm -r victim" }, permission_mode: "yolo" });
  });

  it("gives every hook QWEN_PROJECT_DIR, CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR (the cwd), and its session, model and data directory", () => {
    const calls = recorded.hook.calls();
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.env, call.label).toMatchObject({
        QWEN_PROJECT_DIR: recorded.cwd,
        CLAUDE_PROJECT_DIR: recorded.cwd,
        GEMINI_PROJECT_DIR: recorded.cwd,
        QWEN_CODE_SESSION_ID: call.payload.session_id,
        QWEN_CODE_MODEL: "qwen-fake",
        QWEN_CODE_PROJECT_DIR: expect.stringMatching(/\/\.qwen\/projects\/[^/]+$/) as unknown,
      });
    }
  });

  it("exit 2 blocks with stderr as the reason; exit 1 is a warning and the tool runs", () => {
    expect(ran(exits, "victim")).toBe(true);
    expect(toolResults(exits)[0]).toBe(MARK.exit2Reason);
    expect(ran(exits, "harmless.txt")).toBe(true);
  });

  it("headless, a PreToolUse ask declines the tool with its reason", () => {
    expect(ran(exits, "REWRITE-ME.txt")).toBe(false);
    expect(toolResults(exits)[2]).toBe(MARK.askReason);
  });

  it("ignores a PostToolUse decision block: the result reaches the model untouched", () => {
    expect(toolResults(exits)[1]).toContain("harmless-ran");
    expect(exits.model.allText()).not.toContain(MARK.postBlockReason);
  });

  it("a PostToolUse continue false replaces the tool result with stopReason, and the turn goes on", () => {
    expect(ran(stops, "harmless.txt")).toBe(true);
    expect(toolResults(stops)[1]).toBe(MARK.stopReason);
    expect(ran(stops, "REWRITE-ME.txt")).toBe(true);
  });

  it("runs the hooks matching an event at the same time", () => {
    expect(ran(parallel, "victim")).toBe(true);
    expect(toolResults(parallel)).toEqual([MARK.parallel, MARK.parallel, MARK.parallel]);
  });

  it("with a sequential group, runs them in order, each given the tool_input the one before answered; the tool still runs the model's input", () => {
    expect(sequential.hook.payloads("first").map((p) => (p.tool_input as { command?: string }).command)).toEqual(["rm -r victim", "echo harmless-ran > harmless.txt", "echo REWRITE-ME > REWRITE-ME.txt"]);
    expect(sequential.hook.payloads("second").map((p) => (p.tool_input as { command?: string }).command)).toEqual([MARK.chained, MARK.chained, MARK.chained]);
    expect(ran(sequential, "harmless.txt")).toBe(true);
    expect(ran(sequential, "victim")).toBe(false);
  });

  it("kills a hook at its timeout (1500 read as milliseconds), and the tool runs: a timeout never blocks", () => {
    expect(existsSync(join(timedOut.home, "started-1"))).toBe(true);
    expect(existsSync(join(timedOut.home, "started-1500"))).toBe(true);
    expect(ran(timedOut, "victim")).toBe(false);
    expect(ran(timedOut, "harmless.txt")).toBe(true);
    expect(ran(timedOut, "REWRITE-ME.txt")).toBe(true);
  });
});
