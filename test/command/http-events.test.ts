// Every Claude Code / Codex event through a real `hookd serve`'s HTTP hook endpoint and the real
// forwarders (the node entry and the C twin built here with cc), with the agents' own payloads:
// rewrite before pre-tool and the rewrite in each agent's form, an allow that leaves the agent's
// permission rules in charge unless the plugin's config says bypassAgentPermissions, a
// PermissionRequest answered by the approval point, subagent lineage, session-end, turn-end, and
// an event without a typed point answered {} and logged. Needs `npm run build`.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const FORWARDER = join(REPO, "daemon/dist/forward/main.js");
const C_SOURCE = join(REPO, "daemon/src/forward/hookd-hook.c");

// Records what each point saw (session lineage included) as JSON lines in HOOKD_TEST_LOG.
const PLUGINS = `
import { appendFileSync } from "node:fs";
import { allow, approve, ask, definePlugin, deny, inject, messageText, pass, patch, pluginMessage, reject } from "@hookd/sdk";
const record = (point, e, extra = {}) => appendFileSync(process.env.HOOKD_TEST_LOG, JSON.stringify({ point, session: e.session, ...extra }) + "\\n");
const command = (e) => String(e.call.arguments.command ?? "");
export const rewriter = definePlugin({
  name: "rewriter",
  points: { rewrite: (e) => (command(e).startsWith("sudo ") ? patch({ command: command(e).slice(5) }) : pass()) },
});
export const policy = definePlugin({
  name: "policy",
  points: {
    "session-start": (e) => (record("session-start", e, { source: e.source }), e.session.parentSessionId ? inject([pluginMessage("policy", "subagent of " + e.session.parentSessionId)]) : pass()),
    "pre-tool": (e) => {
      record("pre-tool", e, { command: command(e) });
      if (command(e).includes("curl")) return deny("no network");
      if (command(e).includes("git push")) return ask("pushing needs a human");
      return command(e).startsWith("ls") ? allow() : pass();
    },
    "pre-step": (e) => (e.messages.some((m) => messageText(m).includes("forbidden")) ? reject("not that") : pass()),
    approval: (e) => (record("approval", e, { askedBy: e.askedBy }), command(e).includes("deploy") ? approve() : command(e).includes("rm ") ? reject("no removals") : pass()),
    "turn-end": (e) => record("turn-end", e, { outcome: e.outcome, detail: e.detail }),
    "session-end": (e) => record("session-end", e, { reason: e.reason, detail: e.detail }),
    "agent-event": { tools: ["PreCompact"], handler: (e) => record("agent-event", e, { eventName: e.eventName, dialect: e.dialect, trigger: e.payload.trigger }) },
  },
});
export const trusted = definePlugin({ name: "trusted", points: { "pre-tool": (e) => (command(e) === "make test" ? allow() : pass()) } });
`;

let daemon: DaemonProcess;
let url: string;
let recordFile: string;
let cForwarder: string;

beforeAll(async () => {
  if (!existsSync(FORWARDER)) throw new Error(`${FORWARDER} is missing: run npm run build`);
  const dir = join(await writePluginModule("http-events", PLUGINS), "..");
  const modules = ["rewriter", "policy", "trusted"].map((name) => {
    const path = join(dir, `${name}.mjs`);
    writeFileSync(path, `export { ${name} as default } from "./http-events.mjs";\n`);
    return path;
  });
  recordFile = join(dir, "record.jsonl");
  writeFileSync(recordFile, "");
  cForwarder = join(dir, "hookd-hook");
  execFileSync("cc", ["-std=c99", "-O2", "-Wall", "-Werror", "-o", cForwarder, C_SOURCE]);
  daemon = await startDaemon({
    config: {
      http: { listen: "127.0.0.1:0" },
      plugins: [
        { name: "rewriter", kind: "in-process", module: modules[0] },
        { name: "policy", kind: "in-process", module: modules[1] },
        { name: "trusted", kind: "in-process", module: modules[2], bypassAgentPermissions: true },
      ],
    },
    env: { HOOKD_TEST_LOG: recordFile },
  });
  url = String((await daemon.waitForLog((line) => line.msg === "http hooks serving")).address);
}, 60_000);

afterAll(async () => {
  await daemon?.stop();
});

interface Recorded {
  readonly point: string;
  readonly session: { readonly sessionId: string; readonly parentSessionId?: string; readonly agentType?: string; readonly agentId: string };
  readonly [key: string]: unknown;
}
const recorded = (): Recorded[] =>
  readFileSync(recordFile, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Recorded);

const claude = { session_id: "cc-main", transcript_path: "/home/u/.claude/projects/repo/cc-main.jsonl", cwd: "/repo", permission_mode: "default" };
const codex = { session_id: "cx-main", transcript_path: null, cwd: "/repo", permission_mode: "default", model: "gpt-5", turn_id: "turn-1" };

async function post(body: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(`${url}/hooks/${String(body.hook_event_name)}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...claude, ...body }) });
  expect(response.status).toBe(200);
  return response.json();
}

describe("Claude Code http hooks: every event to its point", () => {
  it("PreToolUse: the rewrite first, then pre-tool on the rewritten call; the whole new input, no bypass", async () => {
    const input = { command: "sudo ls /tmp", description: "List tmp" };
    expect(await post({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: input, tool_use_id: "toolu_rw" })).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput: { command: "ls /tmp", description: "List tmp" } },
    });
    // pre-tool saw the effective call.
    expect(recorded().filter((r) => r.point === "pre-tool").map((r) => r.command)).toContain("ls /tmp");
  });

  it("an allow leaves Claude Code's own permission rules in charge unless the plugin's config says bypassAgentPermissions", async () => {
    expect(await post({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_use_id: "toolu_ls" })).toEqual({});
    expect(await post({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "make test" }, tool_use_id: "toolu_mk" })).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "allowed by trusted" },
    });
    expect(await post({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "curl x" }, tool_use_id: "toolu_c" })).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
  });

  it("PermissionRequest is answered by the approval point", async () => {
    const ask = (command: string) => post({ hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command }, permission_suggestions: [] });
    expect(await ask("./deploy prod")).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } });
    expect(await ask("rm -r build")).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no removals" } } });
    expect(await ask("cat notes")).toEqual({});
    expect(recorded().find((r) => r.point === "approval")).toMatchObject({ askedBy: "claude-code", session: { sessionId: "cc-main", agentId: "claude-code" } });
  });

  it("a subagent: its own session with lineage, its start gets context, its tool calls are gated with lineage", async () => {
    const sub = { agent_id: "a91", agent_type: "Explore" };
    expect(await post({ hook_event_name: "SubagentStart", ...sub })).toEqual({ hookSpecificOutput: { hookEventName: "SubagentStart", additionalContext: "subagent of cc-main" } });
    expect(await post({ hook_event_name: "PreToolUse", ...sub, tool_name: "Bash", tool_input: { command: "curl evil" }, tool_use_id: "toolu_sub" })).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    expect(await post({ hook_event_name: "SubagentStop", ...sub, agent_transcript_path: "/t/a91.jsonl", stop_hook_active: false })).toEqual({});
    const lineage = { sessionId: "a91", parentSessionId: "cc-main", agentType: "Explore", agentId: "claude-code", cwd: "/repo" };
    expect(recorded().filter((r) => r.session.sessionId === "a91").map((r) => [r.point, r.session])).toEqual([
      ["session-start", lineage],
      ["pre-tool", lineage],
      ["turn-end", lineage],
    ]);
  });

  it("a rejected prompt ends the turn: a block with its reason (no continue:false, so the agent keeps the user's prompt), turn-end blocked", async () => {
    const session = "cc-reject";
    expect(await post({ session_id: session, hook_event_name: "UserPromptSubmit", prompt: "do the forbidden thing" })).toEqual({ decision: "block", reason: "not that" });
    expect(await post({ session_id: session, hook_event_name: "UserPromptSubmit", prompt: "add a test" })).toEqual({});
    expect(recorded().filter((r) => r.session.sessionId === session).map((r) => [r.point, r.outcome, r.detail])).toEqual([["turn-end", "blocked", "not that"]]);
  });

  it("Stop ends the turn (turn-end completed); StopFailure is turn-end error; SessionEnd reaches session-end", async () => {
    expect(await post({ hook_event_name: "Stop", stop_hook_active: false, last_assistant_message: "done" })).toEqual({});
    expect(await post({ hook_event_name: "StopFailure", error: "rate_limit", error_details: "429" })).toEqual({});
    expect(await post({ hook_event_name: "SessionEnd", reason: "clear" })).toEqual({});
    const main = recorded().filter((r) => r.session.sessionId === "cc-main" && (r.point === "turn-end" || r.point === "session-end"));
    expect(main.map(({ point, outcome, reason, detail }) => ({ point, outcome, reason, detail }))).toEqual([
      { point: "turn-end", outcome: "completed", reason: undefined, detail: "" },
      { point: "turn-end", outcome: "error", reason: undefined, detail: "rate_limit: 429" },
      { point: "session-end", outcome: undefined, reason: "cleared", detail: "the agent ended the session (clear)" },
    ]);
  });

  it("an event without a typed point reaches agent-event plugins subscribed by its name, and is answered {}", async () => {
    expect(await post({ hook_event_name: "PreCompact", trigger: "auto", custom_instructions: "" })).toEqual({});
    expect(await post({ hook_event_name: "Notification", message: "waiting" })).toEqual({});
    const events = recorded().filter((r) => r.point === "agent-event");
    // Notification matches no subscription: only PreCompact reached the plugin, with its payload.
    expect(events).toEqual([{ point: "agent-event", session: expect.objectContaining({ sessionId: "cc-main" }) as unknown, eventName: "PreCompact", dialect: "claude-code", trigger: "auto" }]);
  });
});

interface Forwarded {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function forward(which: "node" | "c", event: string, body: Record<string, unknown>): Promise<Forwarded> {
  return new Promise((done, fail) => {
    const args = ["--dialect", "codex", "--event", event, "--url", url];
    const [file, argv] = which === "node" ? [process.execPath, [FORWARDER, ...args]] : [cForwarder, args];
    const child = spawn(file, argv, { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    // Codex writes the JSON without a trailing newline.
    child.stdin.end(JSON.stringify({ ...codex, hook_event_name: event, ...body }));
  });
}

describe.each<["node" | "c"]>([["node"], ["c"]])("Codex through the %s forwarder", (which) => {
  it("a rewrite is allow + updatedInput with a string command; an allow alone prints nothing", async () => {
    const rewritten = await forward(which, "PreToolUse", { tool_name: "Bash", tool_input: { command: "sudo ls" }, tool_use_id: `cx-rw-${which}` });
    expect(rewritten.code).toBe(0);
    expect(JSON.parse(rewritten.stdout)).toEqual({
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", permissionDecisionReason: "rewritten by rewriter", updatedInput: { command: "ls" } },
    });
    // Codex takes no allow without updatedInput, bypass or not: exactly nothing.
    expect(await forward(which, "PreToolUse", { tool_name: "Bash", tool_input: { command: "make test" }, tool_use_id: `cx-mk-${which}` })).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("PermissionRequest: a reject is Codex's deny decision; SessionEnd prints nothing and reaches session-end", async () => {
    const denied = await forward(which, "PermissionRequest", { tool_name: "Bash", tool_input: { command: "rm -r dist" } });
    expect(denied.code).toBe(0);
    expect(JSON.parse(denied.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: "no removals" } } });
    const session = `cx-end-${which}`;
    expect(await forward(which, "SessionEnd", { session_id: session, reason: "other" })).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(recorded().find((r) => r.point === "session-end" && r.session.sessionId === session)).toMatchObject({ reason: "closed", session: { agentId: "codex" } });
  });

  it("a subagent's tool call (Codex sends the parent's session_id) is gated with lineage", async () => {
    const denied = await forward(which, "PreToolUse", { agent_id: `w-${which}`, agent_type: "worker", tool_name: "Bash", tool_input: { command: "curl x" }, tool_use_id: `cx-sub-${which}` });
    expect(denied).toEqual({ code: 2, stdout: "", stderr: "no network\n" });
    expect(recorded().find((r) => r.point === "pre-tool" && r.session.sessionId === `w-${which}`)).toMatchObject({ session: { parentSessionId: "cx-main", agentType: "worker" } });
  });
});
