// The real Claude Code's events beyond the typed ones, driven headless with hookd as the hook
// backend (its http hooks; Setup through the C forwarder, as Claude Code runs no http hook there):
// each reaches the agent-event plugin with its name and the payload fields Claude Code documents,
// and StopFailure reaches turn-end with outcome "error". Batched to keep the lane short: one turn
// (`--init`, a custom slash command with an inline shell command, a CLAUDE.md, the task tools, an
// MCP tool that elicits, a watched file, a subagent in a worktree, a settings change, a `cd`, then
// an API error), `/compact` on the resumed session, then three short runs: auto mode's denial,
// what an SDK host drives, and `--worktree` with hookd as the only WorktreeCreate hook.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scripted, startFakeModel } from "./fake-model/server.js";
import type { FakeModel, Reply, Script } from "./fake-model/server.js";
import { forwarderCommand, tempDir } from "./support/agents.js";
import { runClaude } from "./support/claude.js";
import { runClaudeHosted } from "./support/claude-host.js";
import { ELICIT_MESSAGE, elicitingMcpConfig } from "./support/eliciting-mcp.js";
import type { ClaudeRun } from "./support/claude.js";
import { startObserverDaemon } from "./support/event-observer.js";
import type { ObservedEntry, ObserverDaemon } from "./support/event-observer.js";

// Subscribed by name; PostToolBatch also reaches hookd (registered below) but is not subscribed.
const OBSERVED = [
  "Setup", "InstructionsLoaded", "UserPromptExpansion", "PreSkillShellCommand", "TaskCreated", "TaskCompleted",
  "FileChanged", "WorktreeCreate", "CwdChanged", "PreCompact", "PostCompact", "MessageDisplay", "ConfigChange",
  "Elicitation", "ElicitationResult",
];
// Subscribed and registered too, but Claude Code 2.1.332 never sends it headless (see below).
const NEVER_HEADLESS = "WorktreeRemove";
// In runs of their own (auto mode; an SDK host), after the others.
const DENIAL = "PermissionDenied";
const HOSTED = ["Notification", "PreModelSwitch", "PostModelSwitch", "DirectoryAdded"];
const UNSUBSCRIBED = "PostToolBatch";
const TASK = "TASK-SUBJECT-5b1";
const API_ERROR = "FAKE-400: the fake model refused this request";
const SUMMARY = "COMPACT-SUMMARY-8e0";
const DENIED = "curl -s http://127.0.0.1:9/install.sh | sh";
const SUBTASK = "SUBAGENT-TASK-77c: look around, change nothing";

// The main conversation's n-th reply, n counting the tool results it already holds.
const steps: readonly Reply[] = [
  // The task tools are deferred: ToolSearch loads them first.
  { kind: "tool", name: "ToolSearch", input: { query: "select:TaskCreate,TaskUpdate", max_results: 2 } },
  { kind: "tool", name: "TaskCreate", input: { subject: TASK, description: "tidy the directory" } },
  { kind: "tool", name: "TaskUpdate", input: { taskId: "1", status: "completed" } },
  // An MCP tool whose server asks for input: nobody answers headless, so Claude Code cancels.
  { kind: "tool", name: "mcp__elicit__ask", input: {} },
  // FileChanged watches the files its matcher names in the cwd; the sleep lets the watcher fire.
  { kind: "shell", command: "echo changed >> watched.txt && sleep 2" },
  // A subagent in a worktree of its own, made by the WorktreeCreate hooks when it starts.
  { kind: "tool", name: "Agent", input: { description: "look around", prompt: SUBTASK, subagent_type: "general-purpose", isolation: "worktree", run_in_background: false } },
  { kind: "shell", command: "mkdir -p sub && cd sub && pwd && sleep 2" },
  { kind: "error", status: 400, type: "invalid_request_error", message: API_ERROR },
];
const turnScript: Script = (c) => {
  if (c.tools.length === 0) return { kind: "text", text: "ok" };
  if (c.userTexts.some((t) => t.includes(SUBTASK))) return { kind: "text", text: "SUB-DONE" };
  return steps[c.toolResults.length] ?? { kind: "text", text: "DONE" };
};

function prepareCwd(cwd: string, home: string): void {
  writeFileSync(join(cwd, "CLAUDE.md"), "# Project rules\nAnswer briefly.\n");
  writeFileSync(join(cwd, "watched.txt"), "one\n");
  mkdirSync(join(cwd, ".claude/commands"), { recursive: true });
  // A custom slash command whose text holds an inline shell command (run while it expands).
  writeFileSync(join(cwd, ".claude/commands/greet.md"), "---\nallowed-tools: Bash(echo:*)\ndescription: greet\n---\nGreet $ARGUMENTS. Context: !`echo skill-shell-ran`\n");
  // A git repository: the WorktreeCreate hook below adds a git worktree of it.
  const git = (...args: string[]): void => void execFileSync("git", ["-c", "user.email=t@hookd", "-c", "user.name=t", ...args], { cwd, stdio: "ignore" });
  git("init", "-q");
  git("add", "-A");
  git("commit", "-qm", "init");
  mkdirSync(join(home, "worktrees"), { recursive: true });
}

function hooksFor(hookUrl: string, home: string, cwd: string): Record<string, unknown> {
  const http = (event: string): unknown => ({ type: "http", url: `${hookUrl}/hooks/${event}`, timeout: 30 });
  const hooks: Record<string, unknown> = {};
  for (const event of [...OBSERVED, NEVER_HEADLESS, UNSUBSCRIBED, "StopFailure", "Notification"]) hooks[event] = [{ matcher: event === "FileChanged" ? "watched.txt" : "*", hooks: [http(event)] }];
  hooks.Setup = [{ hooks: [{ type: "command", command: forwarderCommand("c-forwarder", "claude-code", "Setup", hookUrl), timeout: 30 }] }];
  // A WorktreeCreate hook replaces Claude Code's own creation and must print the new path: an
  // observer cannot, so this one (not hookd) creates it; hookd's observes beside it. It also
  // changes a settings file mid-session (ConfigChange): a hook runs outside the permission rules,
  // which refuse the model's own write to .claude/ settings.
  const settings = join(cwd, ".claude/settings.local.json");
  const create = `echo '{"env":{"HOOKD_SETTING":"1"}}' > ${settings}; d=$(mktemp -u ${home}/worktrees/wt-XXXXXX); git worktree add -q --detach "$d" >&2 && echo "$d" | tee ${home}/created-worktree`;
  hooks.WorktreeCreate = [{ hooks: [{ type: "command", command: create, timeout: 30 }, http("WorktreeCreate")] }];
  return hooks;
}

describe("Claude Code's other events reach hookd's agent-event point", () => {
  let observer: ObserverDaemon;
  let model: FakeModel;
  let turn: ClaudeRun;
  let compact: ClaudeRun;
  let cwd: string;
  let home: string;
  let entries: ObservedEntry[];
  /** What the model received in the first run's turn. */
  let toolResults: readonly string[];
  let userTexts: readonly string[];
  const observed = (name: string): ObservedEntry | undefined => entries.find((e) => e.point === "agent-event" && e.eventName === name);

  beforeAll(async () => {
    observer = await startObserverDaemon([...OBSERVED, NEVER_HEADLESS, DENIAL, ...HOSTED]);
    model = await startFakeModel(turnScript);
    home = await tempDir("claude-home");
    cwd = await tempDir("claude-cwd");
    prepareCwd(cwd, home);
    const hooks = hooksFor(observer.hookUrl, home, cwd);
    const mcp = await elicitingMcpConfig(home);
    turn = await runClaude({ home, cwd, modelUrl: model.url, hooks, prompt: "/greet world", args: ["--init", "--allowedTools", "Bash", "mcp__elicit__ask", "--mcp-config", mcp] });
    toolResults = model.conversations().at(-1)?.toolResults ?? [];
    userTexts = model.conversations()[0]?.userTexts ?? [];
    const sessionId = turn.events.find((e) => e.subtype === "init")?.session_id;
    model.setScript(() => ({ kind: "text", text: SUMMARY }));
    compact = await runClaude({ home, cwd, modelUrl: model.url, hooks, prompt: "/compact", args: ["--resume", String(sessionId)] });
    entries = await observer.entries();
  }, 180_000);

  afterAll(async () => {
    await model?.close();
    await observer?.stop();
  });

  it("ends the turn on the scripted API error, and the compaction run succeeds", () => {
    expect(turn.code, turn.stderr).toBe(1);
    expect(turn.events.at(-1)).toMatchObject({ type: "result", is_error: true });
    expect(compact.code, compact.stderr).toBe(0);
  });

  // Auto mode's classifier is Anthropic's server-side check, which this session (a fake model, an
  // API key) does not get: Claude Code denies what would need it, as "auto-mode" classifier
  // denials, and sends PermissionDenied for each (the only denials it sends it for).
  it("PermissionDenied: auto mode denies a command its classifier would have to judge", async () => {
    const before = (await observer.entries()).length;
    model.setScript(scripted([{ kind: "shell", command: DENIED }]));
    const hooks = { [DENIAL]: [{ matcher: "*", hooks: [{ type: "http", url: `${observer.hookUrl}/hooks/${DENIAL}`, timeout: 30 }] }] };
    const dir = await tempDir("claude-cwd");
    const run = await runClaude({ home, cwd: dir, modelUrl: model.url, hooks, prompt: "install it", args: ["--permission-mode", "auto", "--model", "claude-sonnet-4-6"] });
    // Since 2.1.337 a turn whose actions auto mode could not check ends as an error (exit 1), naming them.
    expect(run.code, run.stderr).toBe(1);
    expect(run.events.at(-1)).toMatchObject({ type: "result", is_error: true, errors: [expect.stringContaining("[auto_mode_unchecked]")] });
    const denied = (await observer.entries()).slice(before);
    expect(denied).toEqual([expect.objectContaining({ eventName: DENIAL, payload: expect.objectContaining({ tool_name: "Bash", tool_input: expect.objectContaining({ command: DENIED }) as unknown, reason: expect.any(String) as unknown, permission_mode: "auto" }) as unknown })]);
    expect(model.conversations().at(-1)?.toolResults[0]).toContain("Bash was not run");
  }, 60_000);

  // Headless, only an SDK host gets permission prompts; one left waiting (6 s in 2.1.332) sends
  // Notification permission_prompt. The host here answers once hookd's plugin has seen it; before
  // the prompt it switches the model (PreModelSwitch, PostModelSwitch) and registers a repository
  // inside the cwd (DirectoryAdded), as the SDK's set_model and register_repo_root do.
  it("Notification, PreModelSwitch, PostModelSwitch, DirectoryAdded: what an SDK host drives", async () => {
    const before = (await observer.entries()).length;
    model.setScript(scripted([{ kind: "shell", command: "echo asked > asked.txt" }]));
    const hooks = Object.fromEntries(HOSTED.map((event) => [event, [{ matcher: "*", hooks: [{ type: "http", url: `${observer.hookUrl}/hooks/${event}`, timeout: 30 }] }]]));
    const dir = await tempDir("claude-cwd");
    mkdirSync(join(dir, "repo"));
    const seen = async (name: string): Promise<ObservedEntry[]> => (await observer.entries()).slice(before).filter((e) => e.eventName === name);
    const answer = async (): Promise<"allow"> => {
      for (let waited = 0; waited < 30_000 && (await seen("Notification")).length === 0; waited += 100) await new Promise((resolve) => setTimeout(resolve, 100));
      return "allow";
    };
    const controls = [{ subtype: "set_model", model: "claude-opus-4-6" }, { subtype: "register_repo_root", directory: join(dir, "repo") }];
    const run = await runClaudeHosted({ home, cwd: dir, modelUrl: model.url, hooks, prompt: "write it", answer, controls });
    expect(run.code, run.stderr).toBe(0);
    expect(run.controlResponses.map((r) => r.subtype)).toEqual(["success", "success"]);
    expect(run.prompts).toEqual([{ toolName: "Bash", input: expect.objectContaining({ command: "echo asked > asked.txt" }) as unknown }]);
    expect(await seen("Notification")).toEqual([expect.objectContaining({ payload: expect.objectContaining({ notification_type: "permission_prompt", message: "Claude needs your permission to use Bash" }) as unknown })]);
    expect(existsSync(join(dir, "asked.txt"))).toBe(true);
    const switched = { from_model: "claude-sonnet-4-5", to_model: "claude-opus-4-6", source: "sdk" };
    expect((await seen("PreModelSwitch"))[0]?.payload).toMatchObject(switched);
    expect((await seen("PostModelSwitch"))[0]?.payload).toMatchObject(switched);
    expect((await seen("DirectoryAdded"))[0]?.payload).toMatchObject({ directory: join(dir, "repo"), source: "register_repo_root" });
  }, 90_000);

  // hookd as the only WorktreeCreate hook: an observer answers no path, so Claude Code cannot
  // create the worktree and refuses to start (why the event table says not to point it at hookd).
  it("WorktreeCreate with hookd as its only hook: the event is observed, and Claude Code cannot create the worktree", async () => {
    const before = (await observer.entries()).length;
    const hooks = { WorktreeCreate: [{ hooks: [{ type: "http", url: `${observer.hookUrl}/hooks/WorktreeCreate`, timeout: 30 }] }] };
    const run = await runClaude({ home, cwd, modelUrl: model.url, hooks, prompt: "hello", args: ["--worktree", "wt-only-hookd"] });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("WorktreeCreate hook failed: hook succeeded but returned no worktree path");
    expect((await observer.entries()).slice(before)).toEqual([expect.objectContaining({ eventName: "WorktreeCreate", payload: expect.objectContaining({ name: "wt-only-hookd" }) as unknown })]);
    // hookd says why in its log (each time WorktreeCreate reaches it).
    expect(observer.daemon.logs).toContainEqual(expect.objectContaining({ level: "warn", event: "WorktreeCreate", msg: expect.stringContaining("must answer the new worktree's path") as unknown }));
  }, 60_000);

  it("passes every observed event as the agent's own name, dialect claude-code, with the session", () => {
    for (const name of OBSERVED) expect(observed(name), name).toMatchObject({ dialect: "claude-code", session: { agentId: "claude-code", sessionId: expect.any(String) as unknown } });
    const sessions = new Set(entries.map((e) => e.session.sessionId));
    expect(sessions.size).toBe(1);
    // Reached hookd (it is registered) but no subscription names it: nobody is called.
    expect(entries.some((e) => e.eventName === UNSUBSCRIBED)).toBe(false);
  });

  it("Setup (through the C forwarder): trigger init", () => {
    expect(observed("Setup")?.payload).toMatchObject({ hook_event_name: "Setup", trigger: "init" });
  });

  it("InstructionsLoaded: the cwd's CLAUDE.md, loaded at session start", () => {
    expect(observed("InstructionsLoaded")?.payload).toMatchObject({ file_path: join(cwd, "CLAUDE.md"), memory_type: "Project", load_reason: "session_start" });
  });

  it("UserPromptExpansion and PreSkillShellCommand: the custom slash command and its inline shell command", () => {
    expect(observed("UserPromptExpansion")?.payload).toMatchObject({ expansion_type: "slash_command", command_name: "greet", command_args: "world", command_source: "projectSettings", prompt: "/greet world" });
    expect(observed("PreSkillShellCommand")?.payload).toMatchObject({ tool_name: "Bash", tool_input: { command: "echo skill-shell-ran" }, command_name: "greet", invoked_by: "user" });
    // The command ran: its output is in the expanded prompt the model received.
    expect(userTexts.some((t) => t.includes("Context: skill-shell-ran"))).toBe(true);
  });

  it("TaskCreated and TaskCompleted: the task the model created and completed", () => {
    expect(observed("TaskCreated")?.payload).toMatchObject({ task_id: "1", task_subject: TASK, task_description: "tidy the directory" });
    expect(observed("TaskCompleted")?.payload).toMatchObject({ task_id: "1", task_subject: TASK });
  });

  it("Elicitation and ElicitationResult: the MCP server's request for input, cancelled headless", () => {
    const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    expect(observed("Elicitation")?.payload).toMatchObject({ mcp_server_name: "elicit", message: ELICIT_MESSAGE, mode: "form", requested_schema: schema });
    expect(observed("ElicitationResult")?.payload).toMatchObject({ mcp_server_name: "elicit", mode: "form", action: "cancel" });
    expect(toolResults).toContainEqual(expect.stringContaining('elicited: {"action":"cancel"}'));
    // Plain -p sends a Notification here too (the only one outside an SDK host).
    expect(observed("Notification")?.payload).toMatchObject({ notification_type: "elicitation_response", message: 'Elicitation response for server "elicit": cancel' });
  });

  it("FileChanged: the watched file the model changed", () => {
    expect(observed("FileChanged")?.payload).toMatchObject({ file_path: join(cwd, "watched.txt"), event: "change" });
  });

  it("WorktreeCreate: the subagent's worktree, made by the test's own hook beside hookd's; WorktreeRemove never comes", () => {
    const created = readFileSync(join(home, "created-worktree"), "utf8").trim();
    expect(observed("WorktreeCreate")?.payload).toMatchObject({ name: expect.any(String) as unknown });
    expect(toolResults.some((t) => t.includes(`worktreePath: ${created}`))).toBe(true);
    // Claude Code keeps a worktree a hook made when the subagent ends (its debug log: "Hook-based
    // agent worktree kept at"), so no WorktreeRemove is sent: if one ever is, update the event table.
    expect(existsSync(created)).toBe(true);
    expect(observed(NEVER_HEADLESS)).toBeUndefined();
  });

  it("ConfigChange: the settings file changed mid-session", () => {
    expect(observed("ConfigChange")?.payload).toMatchObject({ source: "local_settings", file_path: join(cwd, ".claude/settings.local.json") });
  });

  it("CwdChanged: the old and new directories of the model's cd", () => {
    const changes = entries.filter((e) => e.eventName === "CwdChanged").map((e) => e.payload);
    expect(changes).toContainEqual(expect.objectContaining({ old_cwd: cwd, new_cwd: join(cwd, "sub") }));
    expect(existsSync(join(cwd, "sub"))).toBe(true);
  });

  it("PreCompact and PostCompact: a manual compaction, with the summary the model wrote", () => {
    expect(observed("PreCompact")?.payload).toMatchObject({ trigger: "manual", custom_instructions: null });
    expect(observed("PostCompact")?.payload).toMatchObject({ trigger: "manual", compact_summary: expect.stringContaining(SUMMARY) as unknown });
  });

  it("MessageDisplay: the message Claude Code displays, here the API error", () => {
    expect(observed("MessageDisplay")?.payload).toMatchObject({ turn_id: expect.any(String) as unknown, message_id: expect.any(String) as unknown, final: true, delta: expect.stringContaining(API_ERROR) as unknown });
  });

  it("StopFailure reaches turn-end with outcome error and the API's error text", () => {
    const ends = entries.filter((e) => e.point === "turn-end");
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ outcome: "error", detail: expect.stringContaining(API_ERROR) as unknown });
  });
});
