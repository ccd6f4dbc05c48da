// A real `hookd serve` running Claude Code and Gemini CLI hooks files (`kind: command`, real
// /bin/sh hooks) as its plugins, driven through its HTTP hook endpoint with the agents' own
// payloads: events without a typed point run the file's hooks at the observe-only agent-event
// point (matched as the agent matches them, the agent's payload on stdin, the file's own dialect
// only), a block there is logged as not honoured and changes nothing, a failing hook is audited
// as a fault with its cause; and transcript_path / permission_mode the agent sent reach a
// PreToolUse hook's stdin, also one rebuilt for an event of another dialect in the same
// session. Needs `npm run build`.
import { chmodSync, mkdtempSync, readFileSync, existsSync, writeFileSync } from "node:fs";
import { execFile } from "node:child_process";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, startDaemon, waitForFile } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

let daemon: DaemonProcess;
let url: string;
let dir: string;
let auditPath: string;

const script = (name: string, body: string): string => {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
};
/** A hook that appends its stdin, one JSON line, to `<name>.jsonl` and exits with `code`. */
const recorder = (name: string, code = 0, stderr = ""): string => script(`${name}.sh`, `cat >> "${dir}/${name}.jsonl"; echo >> "${dir}/${name}.jsonl"; ${stderr === "" ? "" : `echo '${stderr}' >&2; `}exit ${code}`);
const lines = (name: string): Record<string, unknown>[] => {
  const path = join(dir, `${name}.jsonl`);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
};

const claude = { session_id: "cc-obs", transcript_path: "/home/u/.claude/projects/repo/cc-obs.jsonl", cwd: "/tmp", permission_mode: "acceptEdits" };

/** `raw` is appended to the JSON text as written (a number JSON.stringify could not keep). */
async function post(body: Record<string, unknown>, dialect = "claude-code", raw = "", agent = dialect): Promise<unknown> {
  const text = raw === "" ? JSON.stringify(body) : `${JSON.stringify(body).slice(0, -1)},${raw}}`;
  const response = await fetch(`${url}/hooks/${String(body.hook_event_name)}`, { method: "POST", headers: { "content-type": "application/json", "x-hookd-dialect": dialect, "x-hookd-agent": agent }, body: text });
  expect(response.status).toBe(200);
  return response.json();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "hookd-observed-"));
  auditPath = join(dir, "audit.jsonl");
  const claudeHooks = {
    hooks: {
      PreCompact: [{ matcher: "manual", hooks: [{ type: "command", command: recorder("precompact-manual") }] }, { hooks: [{ type: "command", command: recorder("precompact-any") }] }],
      Notification: [{ matcher: "permission_prompt", hooks: [{ type: "command", command: recorder("notify-block", 2, "stop nagging") }] }],
      ConfigChange: [{ hooks: [{ type: "command", command: recorder("config-fails", 1, "boom") }] }],
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: recorder("pretool") }] }],
    },
  };
  const geminiHooks = { hooks: { PreCompress: [{ matcher: "auto", hooks: [{ type: "command", command: recorder("precompress") }] }], Notification: [{ hooks: [{ type: "command", command: recorder("gemini-notify") }] }] } };
  writeFileSync(join(dir, "claude.json"), JSON.stringify(claudeHooks));
  writeFileSync(join(dir, "gemini.json"), JSON.stringify(geminiHooks));
  daemon = await startDaemon({
    config: {
      http: { listen: "127.0.0.1:0" },
      audit: { path: auditPath, fsync: "always" },
      plugins: [
        { name: "cc-hooks", kind: "command", hooks: join(dir, "claude.json"), dialect: "claude-code" },
        { name: "gm-hooks", kind: "command", hooks: join(dir, "gemini.json"), dialect: "gemini" },
      ],
    },
  });
  url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
});

describe("events without a typed point run the file's hooks at agent-event", () => {
  it("PreCompact: matched on its trigger as Claude Code matches it, with the agent's payload (lossless) and common fields on stdin", async () => {
    expect(await post({ ...claude, hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "keep the plan" }, "claude-code", '"big":12345678901234567890')).toEqual({});
    expect(await post({ ...claude, hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" })).toEqual({});
    // Both ran for "manual"; only the match-all group for "auto".
    expect(lines("precompact-manual").map((l) => l.trigger)).toEqual(["manual"]);
    expect(lines("precompact-any").map((l) => l.trigger)).toEqual(["manual", "auto"]);
    expect(lines("precompact-manual")[0]).toMatchObject({ ...claude, hook_event_name: "PreCompact", custom_instructions: "keep the plan" });
    // The payload is passed losslessly: every digit of a big integer.
    expect(readFileSync(join(dir, "precompact-manual.jsonl"), "utf8")).toContain('"big":12345678901234567890');
    await waitForFile(auditPath, '"eventName":"PreCompact"');
    const audited = readFileSync(auditPath, "utf8").split("\n").filter((l) => l.includes('"agent-event"') && l.includes("cc-hooks")).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(audited.filter((r) => r.kind === "invocation" && r.eventName === "PreCompact").map((r) => r.outcome)).toEqual(["passed", "passed"]);
  });

  it("a block (exit 2) at an observe-only point is logged as not honoured and changes nothing", async () => {
    expect(await post({ ...claude, hook_event_name: "Notification", notification_type: "permission_prompt", message: "Claude needs your permission" })).toEqual({});
    // Another notification type: its matcher does not match, the hook does not run.
    expect(await post({ ...claude, hook_event_name: "Notification", notification_type: "idle_prompt", message: "waiting" })).toEqual({});
    expect(lines("notify-block").map((l) => l.notification_type)).toEqual(["permission_prompt"]);
    const line = await daemon.waitForLog((l) => l.msg === "command hook answer not honoured (agent-event is observe-only)");
    expect(line).toMatchObject({ plugin: "cc-hooks", event: "Notification" });
    expect(String(line.note)).toBe("Notification[0].hooks[0]: its block (exit code 2: stop nagging) is not honoured: Notification runs at the observe-only agent-event point");
  });

  it("a failing hook is the plugin's fault with its cause, in the audit; the agent still gets {}", async () => {
    expect(await post({ ...claude, hook_event_name: "ConfigChange", source: "user_settings", file_path: "/home/u/.claude/settings.json" })).toEqual({});
    expect(lines("config-fails")).toHaveLength(1);
    await waitForFile(auditPath, '"eventName":"ConfigChange"');
    const record = readFileSync(auditPath, "utf8")
      .split("\n")
      .filter((l) => l.includes('"eventName":"ConfigChange"'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((r) => r.kind === "invocation");
    expect(record).toMatchObject({ plugin: "cc-hooks", point: "agent-event", outcome: "fault", cause: "crashed" });
    expect(String(record?.reason)).toContain("ConfigChange[0].hooks[0]: exited with code 1: boom");
  });

  it("another agent's event of the same name does not run the file's hooks; its own dialect's does", async () => {
    const gemini = { session_id: "gm-obs", transcript_path: "/home/u/.gemini/tmp/chats/gm-obs.json", cwd: "/tmp", timestamp: "2026-12-02T00:00:00.000Z" };
    expect(await post({ ...gemini, hook_event_name: "Notification", notification_type: "ToolPermission", message: "ok?", details: {} }, "gemini")).toEqual({});
    expect(lines("notify-block").map((l) => l.notification_type)).toEqual(["permission_prompt"]); // unchanged: the Claude Code hook did not run
    expect(lines("gemini-notify")).toMatchObject([{ ...gemini, hook_event_name: "Notification", notification_type: "ToolPermission" }]);
    // Gemini's PreCompress matcher is an exact trigger.
    expect(await post({ ...gemini, hook_event_name: "PreCompress", trigger: "manual" }, "gemini")).toEqual({});
    expect(await post({ ...gemini, hook_event_name: "PreCompress", trigger: "auto" }, "gemini")).toEqual({});
    expect(lines("precompress").map((l) => l.trigger)).toEqual(["auto"]);
  });
});

describe("what the agent told about its session reaches the command hooks", () => {
  it("an HTTP-posted PreToolUse's transcript_path and permission_mode are on the hook's stdin", async () => {
    expect(await post({ ...claude, session_id: "cc-facts", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_f1" })).toEqual({});
    expect(lines("pretool")).toMatchObject([{ session_id: "cc-facts", transcript_path: claude.transcript_path, permission_mode: "acceptEdits", tool_name: "Bash", tool_input: { command: "ls" } }]);
    // A later event of the session from another dialect (its payload rebuilt for the hook) that
    // does not say the mode keeps what the session said last; a new mode is passed on.
    const { permission_mode: _omitted, ...withoutMode } = claude;
    expect(await post({ ...withoutMode, transcript_path: null, session_id: "cc-facts", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "pwd" }, tool_use_id: "toolu_f2" }, "codex", "", "claude-code")).toEqual({});
    expect(await post({ ...claude, session_id: "cc-facts", permission_mode: "plan", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "id" }, tool_use_id: "toolu_f3" })).toEqual({});
    expect(lines("pretool").map((l) => [l.tool_input, l.permission_mode])).toEqual([
      [{ command: "ls" }, "acceptEdits"],
      [{ command: "pwd" }, "acceptEdits"],
      [{ command: "id" }, "plan"],
    ]);
  });

  it("forgets it when the session ends", async () => {
    const { transcript_path: _t, permission_mode: _p, ...bare } = claude;
    expect(await post({ ...claude, session_id: "cc-end", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "a" }, tool_use_id: "toolu_e1" })).toEqual({});
    expect(await post({ ...bare, session_id: "cc-end", hook_event_name: "SessionEnd", reason: "other" })).toEqual({});
    // A session of the same id after the end (an event of another dialect: the hook's payload rebuilt): nothing remembered, the dialect's defaults.
    expect(await post({ ...bare, session_id: "cc-end", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "b" }, tool_use_id: "toolu_e2" }, "codex", "", "claude-code")).toEqual({});
    expect(lines("pretool").filter((l) => l.session_id === "cc-end").map((l) => [l.transcript_path, l.permission_mode])).toEqual([
      [claude.transcript_path, "acceptEdits"],
      ["", "default"],
    ]);
  });
});

describe("hookd check", () => {
  it("lists the observed events' hooks as running at agent-event, with their effective deadlines", async () => {
    const configPath = join(dir, "check.json");
    writeFileSync(
      configPath,
      JSON.stringify({
        listeners: [{ unix: join(dir, "check.sock") }],
        plugins: [
          { name: "cc-hooks", kind: "command", hooks: join(dir, "claude.json"), dialect: "claude-code" },
          { name: "gm-hooks", kind: "command", hooks: join(dir, "gemini.json"), dialect: "gemini" },
        ],
      }),
    );
    const { stdout } = await promisify(execFile)(process.execPath, [CLI, "check", "--config", configPath]);
    expect(stdout).toMatch(/agent-event\s+1\s+cc-hooks\s+command\s+0\s+601000ms\s+fail-open/);
    expect(stdout).toMatch(/agent-event\s+2\s+gm-hooks\s+command\s+0\s+61000ms\s+fail-open/);
    expect(stdout).toMatch(/cc-hooks\s+PreCompact\[0\]\.hooks\[0\]\s+agent-event\s+600000ms \(default\)\s+600000ms\s*\n/);
    expect(stdout).toMatch(/cc-hooks\s+Notification\[0\]\.hooks\[0\]\s+agent-event\s+600000ms \(default\)\s+600000ms\s*\n/);
    expect(stdout).toMatch(/gm-hooks\s+PreCompress\[0\]\.hooks\[0\]\s+agent-event\s+60000ms \(default\)\s+60000ms\s*\n/);
    expect(stdout).not.toContain("not run");
  });
});
