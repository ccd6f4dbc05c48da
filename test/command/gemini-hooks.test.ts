// `kind: "command"` with `dialect: "gemini"`: a Gemini CLI hooks file whose hooks are REAL shell
// scripts, run by hookd at its points by Gemini 0.61's contract (docs/gemini-cli.md): its event
// names, the stdin payload, timeouts in milliseconds, exit codes (2 and any other code >1 with text
// deny; 1 is a warning), the JSON output (decision deny/ask, tool_input merged at rewrite,
// additionalContext), matchers that never invalidate the file, `sequential`. Scripts synchronize
// through files; no sleeps.
import { readdirSync, writeFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { assistantMessage, definePlugin, patch } from "@hookd/sdk";
import type { SessionInfo } from "@hookd/sdk";
import { decide } from "../../daemon/src/engine/decide.js";
import { EventBus } from "../../daemon/src/engine/events.js";
import type { PointEnv } from "../../daemon/src/engine/decide.js";
import { rewriteCall } from "../../daemon/src/engine/pipeline/index.js";
import { PluginRegistry } from "../../daemon/src/engine/registry.js";
import { createLogger } from "../../daemon/src/log.js";
import { commandPluginSource } from "../../daemon/src/plugins/command/index.js";
import type { CommandRunReport } from "../../daemon/src/plugins/command/index.js";
import { inProcessListeners } from "../../daemon/src/plugins/in-process/listeners.js";
import { loadPlugin } from "../../daemon/src/plugins/load.js";
import { preStep, toolCall, workspace } from "./support.js";
import type { Workspace } from "./support.js";

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

const session: SessionInfo = { sessionId: "g1", agentId: "gemini", cwd: "" };

async function gemini(hooks: unknown, config: { failurePolicy?: "fail-open" | "fail-closed" } = {}) {
  const path = ws.file("settings.json");
  writeFileSync(path, JSON.stringify({ hooks }));
  const firings: CommandRunReport[] = [];
  const source = await commandPluginSource({ kind: "command", name: "gem", hooks: path, dialect: "gemini", required: false, ...config }, { log: createLogger({ write: () => {} }), onReport: (firing) => firings.push(firing) });
  const registry = new PluginRegistry(source.listeners());
  const env = (): PointEnv => ({ registry, bus: new EventBus(), scope: { sessionId: "g1", agentId: "gemini", turn: 1, step: 1 }, signal: new AbortController().signal });
  const s = { ...session, cwd: ws.dir };
  return { source, firings, env, session: s };
}

const hook = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });

/** The call as the pipeline runs it: the rewrite chain, then pre-tool on the effective call. */
async function toolGate(g: Awaited<ReturnType<typeof gemini>>, toolName: string, args: unknown) {
  const rewritten = await rewriteCall(g.env(), g.session, toolCall(g.session, toolName, args));
  if (rewritten.kind !== "rewritten") return { rewrite: rewritten, preTool: undefined };
  const outcome = await decide(g.env(), "pre-tool", { session: g.session, call: rewritten.call });
  return { rewrite: rewritten, preTool: outcome.type === "decided" ? outcome.decision : outcome };
}

describe("command hooks, dialect gemini", () => {
  it("BeforeTool runs once per call: its deny holds for pre-tool, with Gemini's payload on stdin", async () => {
    const script = ws.script("deny.sh", `cat > "${ws.dir}/stdin.$$.json"; echo x >> "${ws.dir}/runs"; echo '{"decision":"deny","reason":"no rm -rf"}'`);
    const g = await gemini({ BeforeTool: [{ matcher: "run_shell", hooks: [hook(script)] }] });
    const { preTool } = await toolGate(g, "run_shell_command", { command: "rm -rf /", n: 12345678901234567890n });
    expect(preTool).toEqual({ kind: "deny", reason: "no rm -rf" });
    expect(ws.read("runs")).toBe("x\n");
    const stdinFile = readdirSync(ws.dir).find((name) => name.startsWith("stdin."));
    const stdin = ws.read(stdinFile ?? "");
    expect(stdin.endsWith("}")).toBe(true);
    const payload = JSON.parse(stdin.replace("12345678901234567890", '"big"')) as Record<string, unknown>;
    expect(payload).toMatchObject({ session_id: "g1", cwd: ws.dir, hook_event_name: "BeforeTool", tool_name: "run_shell_command", tool_input: { command: "rm -rf /", n: "big" }, transcript_path: "" });
    expect(typeof payload.timestamp).toBe("string");
    // Lossless: the big integer went out digit for digit.
    expect(stdin).toContain("12345678901234567890");
  });

  it("BeforeTool tool_input is merged over the arguments at rewrite (top-level keys replaced)", async () => {
    const script = ws.script("rw.sh", `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"echo safe"}}}'`);
    const g = await gemini({ BeforeTool: [{ hooks: [hook(script)] }] });
    const { rewrite, preTool } = await toolGate(g, "run_shell_command", { command: "rm -rf /", description: "keep me" });
    expect(rewrite).toMatchObject({ kind: "rewritten", call: { arguments: { command: "echo safe", description: "keep me" } } });
    expect(preTool).toEqual({ kind: "allow" });
  });

  it("a hook's own tool_input does not make it run twice; a later rewriter's change does, on what will really run", async () => {
    const script = ws.script("rw-count.sh", `cat > "${ws.dir}/seen.$(cat "${ws.dir}/runs" 2>/dev/null | wc -l).json"; echo x >> "${ws.dir}/runs"; echo '{"hookSpecificOutput":{"tool_input":{"command":"echo safe"}}}'`);
    const g = await gemini({ BeforeTool: [{ hooks: [hook(script)] }] });
    await toolGate(g, "run_shell_command", { command: "rm -rf /", description: "d" });
    expect(ws.read("runs")).toBe("x\n");
    const later = definePlugin({ name: "zz-later", points: { rewrite: () => patch({ description: "changed later" }) } });
    const registry = new PluginRegistry([...g.source.listeners(), ...inProcessListeners(later)]);
    const env = (): PointEnv => ({ registry, bus: new EventBus(), scope: { sessionId: "g1", agentId: "gemini", turn: 1, step: 1 }, signal: new AbortController().signal });
    const rewritten = await rewriteCall(env(), g.session, toolCall(g.session, "run_shell_command", { command: "rm -rf /", description: "d" }, "toolu_2"));
    if (rewritten.kind !== "rewritten") throw new Error(rewritten.kind);
    await decide(env(), "pre-tool", { session: g.session, call: rewritten.call });
    expect(ws.read("runs")).toBe("x\nx\nx\n");
    expect(JSON.parse(ws.read("seen.2.json"))).toMatchObject({ tool_input: { command: "echo safe", description: "changed later" } });
  });

  it("exit 2 blocks with stderr's text; any other code above 1 with text denies too; exit 1 is a warning", async () => {
    const two = ws.script("two.sh", `cat > /dev/null; echo "blocked by exit 2" >&2; exit 2`);
    const three = ws.script("three.sh", `cat > /dev/null; echo "refused at exit 3"; exit 3`);
    const one = ws.script("one.sh", `cat > /dev/null; echo "just a warning" >&2; exit 1`);
    const g = await gemini({ BeforeTool: [{ matcher: "^a$", hooks: [hook(two)] }, { matcher: "^b$", hooks: [hook(three)] }, { matcher: "^c$", hooks: [hook(one)] }] });
    expect((await toolGate(g, "a", {})).preTool).toEqual({ kind: "deny", reason: "blocked by exit 2" });
    expect((await toolGate(g, "b", {})).preTool).toEqual({ kind: "deny", reason: "refused at exit 3" });
    expect((await toolGate(g, "c", {})).preTool).toEqual({ kind: "allow" });
    expect(g.firings.find((f) => f.results[0]?.hook.startsWith("BeforeTool[2]"))?.results[0]).toMatchObject({ status: "error", error: { kind: "exit" } });
  });

  it("a failed hook under fail-closed refuses the call, naming the cause; a timeout is in milliseconds", async () => {
    const slow = ws.script("slow.sh", `cat > /dev/null; exec sleep 30`);
    const g = await gemini({ BeforeTool: [{ hooks: [hook(slow, { timeout: 200 })] }] }, { failurePolicy: "fail-closed" });
    const { rewrite } = await toolGate(g, "run_shell_command", {});
    expect(rewrite).toMatchObject({ kind: "deny", cause: "deadline_exceeded" });
    expect(g.firings[0]?.results[0]).toMatchObject({ status: "error", error: { kind: "timeout", message: "no answer within 200 ms (its process group was killed)" } });
  });

  it("matchers never invalidate the file: an invalid regex is an exact name, trigger events compare exactly", async () => {
    const mark = ws.script("mark.sh", `cat > /dev/null; echo "$1" >> "${ws.dir}/marks"`);
    const g = await gemini({
      BeforeTool: [{ matcher: "[", hooks: [hook(`${mark} bracket`)] }],
      SessionStart: [{ matcher: "resume", hooks: [hook(`${mark} resume`)] }, { matcher: "startup", hooks: [hook(`${mark} startup`)] }],
    });
    await toolGate(g, "[", {});
    await toolGate(g, "x[", {});
    await decide(g.env(), "session-start", { session: g.session, source: "startup", tools: [] });
    expect(ws.read("marks")).toBe("bracket\nstartup\n");
  });

  it("BeforeAgent context enters the step; AfterTool context is accepted; AfterAgent deny steers once", async () => {
    const ctx = (event: string, text: string) => ws.script(`${event}.sh`, `cat > /dev/null; echo '{"hookSpecificOutput":{"hookEventName":"${event}","additionalContext":"${text}"}}'`);
    const retry = ws.script("retry.sh", `if grep -q '"stop_hook_active":true'; then exit 0; fi; echo '{"decision":"deny","reason":"run the tests first"}'`);
    const g = await gemini({ BeforeAgent: [{ hooks: [hook(ctx("BeforeAgent", "prompt ctx"))] }], AfterTool: [{ hooks: [hook(ctx("AfterTool", "tool ctx"))] }], AfterAgent: [{ hooks: [hook(retry)] }] });
    const step = await decide(g.env(), "pre-step", preStep(g.session, "hello"));
    expect(step).toMatchObject({ decision: { kind: "enter", messages: [{ role: "user" }, { source: { kind: "plugin", name: "gem" }, content: [{ type: "text", text: "prompt ctx" }] }] } });
    const call = toolCall(g.session, "read_file", { path: "a" });
    const post = await decide(g.env(), "post-tool", { session: g.session, call, result: { isError: false, value: "x", content: [{ type: "text", text: "x" }], contexts: [] } });
    expect(post).toMatchObject({ decision: { kind: "accept", additionalContexts: [{ content: [{ text: "tool ctx" }] }] } });
    const stop = (active: boolean) => decide(g.env(), "turn-stopping", { session: g.session, turn: 1, step: 1, stopHookActive: active, steeredContinuations: active ? 1 : 0, lastAssistantMessage: assistantMessage("done") });
    expect(await stop(false)).toMatchObject({ answers: [{ decision: { kind: "steer", messages: [{ content: [{ text: "run the tests first" }] }] } }] });
    expect(await stop(true)).toMatchObject({ answers: [] });
  });

  it("sequential groups run one after another, each hook seeing the previous one's tool_input", async () => {
    const first = ws.script("first.sh", `cat > /dev/null; echo '{"hookSpecificOutput":{"tool_input":{"command":"echo one"}}}'`);
    const second = ws.script("second.sh", `cat > "${ws.dir}/second.json"; echo '{}'`);
    const g = await gemini({ BeforeTool: [{ sequential: true, hooks: [hook(first), hook(second)] }] });
    await toolGate(g, "run_shell_command", { command: "rm -rf /", description: "d" });
    expect(JSON.parse(ws.read("second.json"))).toMatchObject({ tool_input: { command: "echo one", description: "d" } });
  });

  it("the config loads it as kind command, dialect gemini; unknown events reject the file naming them; observed events run at agent-event", async () => {
    const path = ws.file("g.json");
    writeFileSync(path, JSON.stringify({ hooks: { BeforeModel: [{ hooks: [hook("true")] }], BeforeTool: [{ hooks: [hook("true")] }] } }));
    const context = {
      runtimeDir: ws.dir,
      log: createLogger({ write: () => {} }),
      output: () => () => {},
      defaultDeadlineMs: 10_000,
      workerPool: () => {
        throw new Error("no workers here");
      },
    };
    const source = await loadPlugin({ name: "g", kind: "command", hooks: path, dialect: "gemini", required: false }, context);
    expect(source.listeners().map((l) => l.point).sort()).toEqual(["agent-event", "pre-tool", "rewrite"]);
    expect(source.listeners().find((l) => l.point === "agent-event")?.matches("BeforeModel")).toBe(true);
    expect(source.listeners().find((l) => l.point === "agent-event")?.matches("AfterModel")).toBe(false);
    expect((source as unknown as { notes: readonly string[] }).notes).toEqual([]);
    writeFileSync(path, JSON.stringify({ hooks: { PreToolUse: [] } }));
    await expect(loadPlugin({ name: "g", kind: "command", hooks: path, dialect: "gemini", required: false }, context)).rejects.toThrow(/PreToolUse: unknown Gemini CLI hook event/);
  });
});
