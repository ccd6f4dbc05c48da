// A user's own hooks files through a real `hookd serve`'s HTTP hook endpoint behave as the agent
// runs them natively (issue #32): a hook's stdin is the payload the agent sent, every field of it
// (per agent; a rewritten tool input is the call that will run; another agent's event gets the
// payload rebuilt), a command hook's allow skips the agent's prompt unless its config says
// bypassAgentPermissions: false, and a Stop loop whose continuations run tools is not cut by the
// continuation cap, which still ends a loop with no tool call in between. Needs `npm run build`.
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

let daemon: DaemonProcess;
let dir: string;
let url: string;
let configPath: string;

const REWRITER = `
import { definePlugin, pass, patch } from "@hookd/sdk";
export default definePlugin({
  name: "rewriter",
  points: { rewrite: (e) => (String(e.call.arguments.command ?? "").startsWith("sudo ") ? patch({ command: String(e.call.arguments.command).slice(5) }) : pass()) },
});
`;

function script(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function hooksFile(name: string, hooks: object): string {
  const path = join(dir, `${name}.json`);
  writeFileSync(path, JSON.stringify({ hooks }));
  return path;
}

/** A hook that keeps its stdin in <dir>/<name>.stdin. */
const recorder = (name: string) => ({ type: "command", command: script(`${name}.sh`, `cat > "${join(dir, `${name}.stdin`)}"`) });
const stdinOf = (name: string): string => readFileSync(join(dir, `${name}.stdin`), "utf8");

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hookd-fidelity-"));
  const rewriter = await writePluginModule("fidelity-rewriter", REWRITER);
  const allowMakeTest = script("allow.sh", `case "$(cat)" in *'"make test"'*) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}';; esac`);
  const allowRead = script("allow-read.sh", `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`);
  const keepGoing = script("keep-going.sh", `cat >/dev/null; echo '{"decision":"block","reason":"keep going"}'`);
  const claude = hooksFile("claude", {
    PreToolUse: [{ matcher: "Bash", hooks: [recorder("claude-PreToolUse"), { type: "command", command: allowMakeTest }] }],
    UserPromptSubmit: [{ hooks: [recorder("claude-UserPromptSubmit")] }],
    PreCompact: [{ hooks: [recorder("claude-PreCompact")] }],
    Stop: [{ hooks: [{ type: "command", command: keepGoing }] }],
  });
  const strict = hooksFile("strict", { PreToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: allowRead }] }] });
  const codex = hooksFile("codex", { PreToolUse: [{ matcher: "Bash", hooks: [recorder("codex-PreToolUse")] }] });
  const qwen = hooksFile("qwen", { PreToolUse: [{ matcher: "run_shell_command", hooks: [recorder("qwen-PreToolUse")] }] });
  const gemini = hooksFile("gemini", { BeforeTool: [{ matcher: "run_shell_command", hooks: [recorder("gemini-BeforeTool")] }] });
  const config = {
    http: { listen: "127.0.0.1:0" },
    plugins: [
      { name: "rewriter", kind: "in-process", module: rewriter, points: { rewrite: { priority: -1 } } },
      { name: "claude-hooks", kind: "command", dialect: "claude-code", hooks: claude },
      { name: "strict-hooks", kind: "command", dialect: "claude-code", hooks: strict, bypassAgentPermissions: false },
      { name: "codex-hooks", kind: "command", dialect: "codex", hooks: codex },
      { name: "qwen-hooks", kind: "command", dialect: "qwen-code", hooks: qwen },
      { name: "gemini-hooks", kind: "command", dialect: "gemini", hooks: gemini },
    ],
  };
  configPath = join(dir, "hookd.json");
  writeFileSync(configPath, JSON.stringify({ listeners: [{ unix: join(dir, "check.sock") }], ...config }));
  daemon = await startDaemon({ config });
  url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function post(dialect: string, text: string): Promise<unknown> {
  const response = await fetch(`${url}/hooks`, { method: "POST", headers: { "content-type": "application/json", "x-hookd-dialect": dialect }, body: text });
  expect(response.status).toBe(200);
  return response.json();
}

const claudeCommon = { session_id: "cc-1", transcript_path: "/home/u/.claude/projects/repo/cc-1.jsonl", cwd: "/tmp", permission_mode: "default" };

describe("a command hook's stdin is what its agent sent", () => {
  // Fields hookd does not model, in an order of the agent's own.
  const unknown = { prompt_id: "p-17", effort: "high", future_field: { nested: [1, 2, "x"] } };
  const payloads: { readonly [dialect: string]: { readonly file: string; readonly text: string } } = {
    // As Claude Code writes it, with the spacing and number forms of the agent's own (none rewritten here).
    "claude-code": {
      file: "claude-PreToolUse",
      text: `{"session_id":"cc-1","transcript_path":"/t.jsonl","cwd":"/tmp","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","timeout":1.50},"tool_use_id":"toolu_1","prompt_id":"p-17","effort":"high","future_field":{"nested":[1, 12345678901234567890, "x"]}}\n`,
    },
    codex: { file: "codex-PreToolUse", text: JSON.stringify({ session_id: "cx-1", turn_id: "t-3", transcript_path: null, cwd: "/tmp", hook_event_name: "PreToolUse", model: "gpt-5", permission_mode: "default", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "call_1", ...unknown }) },
    "qwen-code": { file: "qwen-PreToolUse", text: `${JSON.stringify({ session_id: "qw-1", transcript_path: "/t.jsonl", cwd: "/tmp", hook_event_name: "PreToolUse", timestamp: "2026-12-08T00:00:00.000Z", permission_mode: "default", tool_name: "run_shell_command", tool_input: { command: "ls" }, tool_use_id: "q_1", ...unknown })}\n` },
    gemini: { file: "gemini-BeforeTool", text: `${JSON.stringify({ session_id: "gm-1", transcript_path: "/g.json", cwd: "/tmp", hook_event_name: "BeforeTool", timestamp: "2026-12-08T00:00:00.000Z", tool_name: "run_shell_command", tool_input: { command: "ls" }, ...unknown })}\n` },
  };

  for (const [dialect, { file, text }] of Object.entries(payloads)) {
    it(`${dialect}: a payload with fields hookd does not model reaches the hook exactly as sent`, async () => {
      await post(dialect, text);
      expect(stdinOf(file)).toBe(text);
    });
  }

  it("a tool input rewritten before the hook runs is the one it reads; every other field is the agent's", async () => {
    const sent = { ...claudeCommon, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "sudo ls /root" }, tool_use_id: "toolu_2", prompt_id: "p-18", effort: "low" };
    await post("claude-code", JSON.stringify(sent));
    expect(JSON.parse(stdinOf("claude-PreToolUse"))).toEqual({ ...sent, tool_input: { command: "ls /root" } });
  });

  it("the prompt and an event without a typed point reach the hook as sent", async () => {
    const prompt = `${JSON.stringify({ ...claudeCommon, hook_event_name: "UserPromptSubmit", prompt: "fix it", prompt_id: "p-19", effort: "medium" })}\n`;
    await post("claude-code", prompt);
    expect(stdinOf("claude-UserPromptSubmit")).toBe(prompt);
    const compact = `${JSON.stringify({ ...claudeCommon, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "", compaction_id: "c-1" })}\n`;
    await post("claude-code", compact);
    expect(stdinOf("claude-PreCompact")).toBe(compact);
  });

  it("another agent's event: the hook reads the payload its own agent would send, rebuilt from the event", async () => {
    await post("claude-code", payloads["claude-code"]?.text ?? "");
    const rebuilt = JSON.parse(stdinOf("codex-PreToolUse")) as Record<string, unknown>;
    expect(rebuilt).toMatchObject({ session_id: "cc-1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "toolu_1", model: "" });
    expect(rebuilt).not.toHaveProperty("prompt_id");
  });
});

describe("a command hook's allow", () => {
  const preTool = (tool: string, input: object) => JSON.stringify({ ...claudeCommon, hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: `toolu_${tool}` });

  it("is sent as an allow by default (the agent skips its prompt, as natively)", async () => {
    expect(await post("claude-code", preTool("Bash", { command: "make test" }))).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "allowed by claude-hooks" },
    });
  });

  it("leaves the agent's own rules in charge when the config says bypassAgentPermissions: false", async () => {
    expect(await post("claude-code", preTool("Read", { file_path: "/etc/hosts" }))).toEqual({});
  });

  it("hookd check names every plugin whose allow skips the agent's prompt, and why", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "check", "--config", configPath, "--json"]);
    const kindDefault = (name: string) => `${name} (the command kind's default)`;
    expect((JSON.parse(stdout) as { notes: string[] }).notes).toContain(
      `bypassAgentPermissions (an allow skips the agent's own permission rules over its hooks): ${["claude-hooks", "codex-hooks", "qwen-hooks", "gemini-hooks"].map(kindDefault).join(", ")}`,
    );
  });
});

describe("a Stop hook that keeps the agent going", () => {
  const stop = (session: string, active: boolean) => JSON.stringify({ ...claudeCommon, session_id: session, hook_event_name: "Stop", stop_hook_active: active, last_assistant_message: "done?" });
  const postTool = (session: string, n: number) =>
    JSON.stringify({ ...claudeCommon, session_id: session, hook_event_name: "PostToolUse", tool_name: "Read", tool_input: { file_path: "/etc/hosts" }, tool_response: { ok: true }, tool_use_id: `toolu_r${n}` });
  const steered = { decision: "block", reason: "keep going" };

  it("is not cut while each continuation runs a tool: 20 iterations are 20 continuations", async () => {
    expect(await post("claude-code", stop("loop-tools", false))).toEqual(steered);
    for (let i = 1; i <= 20; i++) {
      await post("claude-code", postTool("loop-tools", i));
      expect(await post("claude-code", stop("loop-tools", true)), `iteration ${i}`).toEqual(steered);
    }
  });

  it("is capped after maxSteeredContinuations continuations with no tool call in between, counted again after a tool", async () => {
    const answers: unknown[] = [await post("claude-code", stop("loop-idle", false))];
    for (let i = 1; i <= 7; i++) answers.push(await post("claude-code", stop("loop-idle", true)));
    // Eight continuations, as Claude Code's own guard allows eight blocks in a row.
    expect(answers).toEqual(Array.from({ length: 8 }, () => steered));
    expect(await post("claude-code", stop("loop-idle", true))).toMatchObject({ systemMessage: expect.stringContaining("maxSteeredContinuations") as unknown });
    await post("claude-code", postTool("loop-idle", 1));
    expect(await post("claude-code", stop("loop-idle", true))).toEqual(steered);
  });
});
