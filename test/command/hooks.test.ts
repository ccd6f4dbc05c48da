// Command hooks end to end with REAL shell scripts: each exit-code and JSON path at every point,
// concurrency, the failure policy both ways, timeouts and cancellation (the process group is gone
// afterwards), Stop continuation with stop_hook_active and the cap, and the dialect differences.
// Hooks go through commandPluginSource -> PluginRegistry -> the engine's point functions, the same
// path the hosted loop and the evaluate API take. No sleeps in the tests: scripts synchronize on
// files with bounded loops, and the tests wait on promises or bounded vi.waitFor.
import { readFileSync, realpathSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { userMessage } from "@hookd/sdk";
import type { PostToolEvent, TurnStoppingEvent } from "@hookd/sdk";
import type { EngineEvent } from "../../daemon/src/engine/events.js";
import { decideTurnStop } from "../../daemon/src/engine/loop/index.js";
import { decide } from "../../daemon/src/engine/decide.js";
import { commandPluginSource } from "../../daemon/src/plugins/command/index.js";
import { createLogger } from "../../daemon/src/log.js";
import { groupExists, harness, liveMembers, preStep, preTool, toolCall, workspace } from "./support.js";
import type { Workspace } from "./support.js";

let ws: Workspace;
beforeEach(() => {
  ws = workspace();
});
afterEach(() => ws.cleanup());

const hook = (command: string, extra: Record<string, unknown> = {}) => ({ type: "command", command, ...extra });
const json = (value: unknown): string => `'${JSON.stringify(value)}'`;

function invocations(events: readonly EngineEvent[]) {
  return events.flatMap((event) => (event.type === "invocation" ? [event.invocation] : []));
}

describe("PreToolUse -> pre-tool", () => {
  it("runs a matching hook in the session's cwd with the Claude Code payload and CLAUDE_PROJECT_DIR", async () => {
    ws.script("deny.sh", `cat > "$CLAUDE_PROJECT_DIR/in.json"\npwd > pwd.txt\necho ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no rm -rf" } })}`);
    const h = await harness(ws, { PreToolUse: [{ matcher: "Bash", hooks: [hook("${CLAUDE_PROJECT_DIR}/deny.sh")] }] });
    const outcome = await decide(h.env(), "pre-tool", preTool(h.session, "Bash", { command: "rm -rf /", big: 123456789012345678901n }));
    expect(outcome).toMatchObject({ type: "decided", decision: { kind: "deny", reason: "no rm -rf" }, decidedBy: "cmd" });
    const stdin = ws.read("in.json");
    expect(stdin.endsWith("}\n")).toBe(true);
    expect(JSON.parse(stdin)).toMatchObject({ session_id: "s1", cwd: ws.dir, hook_event_name: "PreToolUse", tool_name: "Bash", tool_use_id: "toolu_1", tool_input: { command: "rm -rf /" } });
    expect(stdin).toContain('"big":123456789012345678901');
    expect(ws.read("pwd.txt").trim()).toBe(realpathSync(ws.dir));
    // A tool no hook matches has no listener at all: it costs no process.
    expect(h.registry.listeners("pre-tool", "Read")).toEqual([]);
  });

  it.each([
    ["exit 2 denies with stderr", 'echo "not on main" >&2; exit 2', { kind: "deny", reason: "not on main" }, "cmd"],
    ["JSON ask", `echo ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "prod?" } })}`, { kind: "ask", reason: "prod?" }, "cmd"],
    ["JSON allow", `echo ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } })}`, { kind: "allow" }, "cmd"],
    ["deny without a reason gets the agent's own wording, never hookd's names", `echo ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny" } })}`, { kind: "deny", reason: "Blocked by hook" }, "cmd"],
    ["exit 2 with an empty stderr reads as Claude Code reports it", "exit 2", { kind: "deny", reason: "No stderr output" }, "cmd"],
    ["exit 0 and nothing: pass", "exit 0", { kind: "allow" }, "default"],
    ["exit 1 (fail-open): pass", 'echo "oops" >&2; exit 1', { kind: "allow" }, "default"],
    ["garbage (fail-open): pass", "echo '{not json'", { kind: "allow" }, "default"],
    ["a crash (fail-open): pass", "kill -SEGV $$", { kind: "allow" }, "default"],
    ["a hook that ignores stdin", 'echo "x" >&2; exit 2', { kind: "deny", reason: "x" }, "cmd"],
  ])("%s", async (_name, body, decision, decidedBy) => {
    ws.script("h.sh", body);
    // Sourced, so `$$` is the hook's own shell (the process hookd spawned).
    const h = await harness(ws, { PreToolUse: [{ matcher: "*", hooks: [hook(`. ${ws.dir}/h.sh`)] }] });
    const outcome = await decide(h.env(), "pre-tool", preTool(h.session, "Bash"));
    expect(outcome).toMatchObject({ type: "decided", decision, decidedBy });
  });

  it.each([
    ["exit 1", 'echo "broken" >&2; exit 1', "crashed", "exited with code 1: broken"],
    ["garbage", "echo '{nope'", "invalid_answer", "not valid JSON"],
    ["a crash", "kill -SEGV $$", "crashed", "killed by SIGSEGV"],
  ])("fail-closed: %s becomes the point's refusal through a PluginFault", async (_name, body, fault, detail) => {
    ws.script("h.sh", body);
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`. ${ws.dir}/h.sh`)] }] }, { failurePolicy: "fail-closed" });
    const outcome = await decide(h.env(), "pre-tool", preTool(h.session, "Bash"));
    expect(outcome).toMatchObject({ type: "decided", decision: { kind: "deny" }, decidedBy: "cmd" });
    if (outcome.type !== "decided") return;
    expect(outcome.decision.kind === "deny" && outcome.decision.reason).toContain(detail);
    expect(outcome.decision.kind === "deny" && outcome.decision.reason).toContain("failure policy of cmd: fail-closed");
    expect(invocations(h.events)).toEqual([expect.objectContaining({ plugin: "cmd", outcome: "fault", fault })]);
  });

  it("merges concurrent hooks: deny beats ask beats allow, the winners' reasons joined", async () => {
    ws.script("allow.sh", `echo ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } })}`);
    ws.script("ask.sh", `echo ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: "hmm" } })}`);
    ws.script("deny1.sh", 'echo "first reason" >&2; exit 2');
    ws.script("deny2.sh", `echo ${json({ decision: "block", reason: "second reason" })}`);
    const h = await harness(ws, {
      PreToolUse: [
        { matcher: "Bash", hooks: [hook(`${ws.dir}/allow.sh`), hook(`${ws.dir}/deny1.sh`)] },
        { matcher: "Bash|Edit", hooks: [hook(`${ws.dir}/ask.sh`), hook(`${ws.dir}/deny2.sh`)] },
      ],
    });
    const outcome = await decide(h.env(), "pre-tool", preTool(h.session, "Bash"));
    expect(outcome).toMatchObject({ decision: { kind: "deny", reason: "first reason\n\nsecond reason" } });
    expect(h.reports[0]?.results.map((r) => r.hook)).toEqual(["PreToolUse[0].hooks[0]", "PreToolUse[0].hooks[1]", "PreToolUse[1].hooks[0]", "PreToolUse[1].hooks[1]"]);
  });

  it("at pre-tool alone (no rewrite point ran), updatedInput is reported as ignored: the call keeps its sealed arguments", async () => {
    ws.script("rewrite.sh", `echo ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "echo safe" } } })}`);
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/rewrite.sh`)] }] });
    const event = preTool(h.session, "Bash", { command: "make deploy" });
    expect(await decide(h.env(), "pre-tool", event)).toMatchObject({ decision: { kind: "allow" } });
    expect(event.call.argumentsJson).toBe('{"command":"make deploy"}');
    expect(h.reports[0]?.results[0]?.updatedInput).toEqual({ command: "echo safe" });
    expect(h.reports[0]?.merged.notes[0]).toMatch(/updatedInput ignored: the call was sealed without this run's rewrite/);
  });
});

describe("concurrency", () => {
  it("runs matched hooks at the same time and merges in config order, not completion order", async () => {
    // a starts, waits for b to finish; b starts, waits for a to have started, then finishes.
    // Run one after the other, a would wait out its bounded loop alone and say so.
    ws.script("a.sh", 'touch a.started\ni=0\nwhile [ ! -e b.done ] && [ $i -lt 300 ]; do sleep 0.01; i=$((i+1)); done\nif [ -e b.started ]; then echo "a saw b"; else echo "a alone"; fi\necho a >> finished.txt');
    ws.script("b.sh", 'touch b.started\ni=0\nwhile [ ! -e a.started ] && [ $i -lt 300 ]; do sleep 0.01; i=$((i+1)); done\nif [ -e a.started ]; then echo "b saw a"; else echo "b alone"; fi\necho b >> finished.txt\ntouch b.done');
    const h = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/a.sh`)] }, { hooks: [hook(`${ws.dir}/b.sh`)] }] });
    const outcome = await decide(h.env(), "pre-step", preStep(h.session, "hello"));
    expect(outcome).toMatchObject({
      decision: {
        kind: "enter",
        messages: [
          { role: "user", source: { kind: "user" }, content: [{ text: "hello" }] },
          { role: "user", source: { kind: "plugin", name: "cmd" }, content: [{ text: "a saw b" }] },
          { role: "user", source: { kind: "plugin", name: "cmd" }, content: [{ text: "b saw a" }] },
        ],
      },
    });
    const [a, b] = h.reports[0]?.results ?? [];
    expect([a?.hook, b?.hook]).toEqual(["UserPromptSubmit[0].hooks[0]", "UserPromptSubmit[1].hooks[0]"]);
    // b finished first (a waited for b.done), yet a comes first.
    expect(ws.read("finished.txt")).toBe("b\na\n");
  });

  it("runs an identical command once, as the agents do", async () => {
    ws.script("count.sh", "echo x >> count.txt");
    const h = await harness(ws, { PreToolUse: [{ matcher: "Bash", hooks: [hook(`${ws.dir}/count.sh`)] }, { hooks: [hook(`${ws.dir}/count.sh`)] }] });
    await decide(h.env(), "pre-tool", preTool(h.session, "Bash"));
    expect(ws.read("count.txt")).toBe("x\n");
  });
});

describe("timeouts and cancellation kill the process group", () => {
  it("a hook over its timeout is killed with its background children (fail-open: pass)", async () => {
    ws.script("slow.sh", "sleep 30 &\necho started > started.txt\nsleep 30");
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/slow.sh`, { timeout: 0.5 })] }] });
    const [listener] = h.registry.listeners("pre-tool", "Bash");
    expect(listener?.deadlineMs).toBe(1_500); // covers the hook's timeout plus a grace
    const outcome = await decide(h.env(), "pre-tool", preTool(h.session, "Bash"));
    expect(outcome).toMatchObject({ decision: { kind: "allow" }, decidedBy: "default" });
    expect(h.reports[0]?.results[0]?.error).toEqual({ kind: "timeout", message: "no answer within 0.5 s (its process group was killed)" });
    const pgid = h.pgids.get("PreToolUse[0].hooks[0]") ?? 0;
    expect(pgid).toBeGreaterThan(0);
    // SIGKILL is delivered, not awaited: a member the kernel has not yet scheduled to die still
    // reads as live for a moment after the answer (seen on a loaded machine), so wait for it.
    await vi.waitFor(() => expect(liveMembers(pgid)).toEqual([]), { timeout: 5_000, interval: 10 });
    // The killed processes are reaped by init, so `kill -0 -pgid` fails once that happened.
    await vi.waitFor(() => expect(groupExists(pgid)).toBe(false), { timeout: 10_000, interval: 50 });
  });

  it("fail-closed: a timeout denies", async () => {
    ws.script("slow.sh", "sleep 30");
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/slow.sh`, { timeout: 0.3 })] }] }, { failurePolicy: "fail-closed" });
    const outcome = await decide(h.env(), "pre-tool", preTool(h.session, "Bash"));
    expect(outcome).toMatchObject({ decision: { kind: "deny", reason: expect.stringContaining("deadline exceeded") as unknown } });
    expect(invocations(h.events)).toEqual([expect.objectContaining({ outcome: "fault", fault: "deadline_exceeded" })]);
  });

  it("a hook that exits while a background child holds its stdout answers without waiting for the child", async () => {
    ws.script("bg.sh", `sleep 30 &\necho ${json({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "answered" } })}\nexit 0`);
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/bg.sh`, { timeout: 20 })] }] });
    const outcome = await decide(h.env(), "pre-tool", preTool(h.session, "Bash"));
    expect(outcome).toMatchObject({ decision: { kind: "deny", reason: "answered" } });
    // The answer came while the child (sleep 30) still runs: hookd did not wait for it.
    const pgid = h.pgids.get("PreToolUse[0].hooks[0]") ?? 0;
    expect(liveMembers(pgid)).not.toEqual([]);
    // The background child is the hook's business (the agents leave it alone too); clean up here.
    process.kill(-pgid, "SIGKILL");
  });

  it("a session cwd that does not exist is a hook error (fail-open: pass)", async () => {
    ws.script("h.sh", 'echo "never" >&2; exit 2');
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/h.sh`)] }] });
    const outcome = await decide(h.env(), "pre-tool", preTool({ ...h.session, cwd: ws.file("missing") }, "Bash"));
    expect(outcome).toMatchObject({ decidedBy: "default" });
    expect(h.reports[0]?.results[0]?.error).toMatchObject({ kind: "spawn", message: expect.stringContaining(`cannot run /bin/sh in ${ws.file("missing")}`) as unknown });
  });

  it("cancelling the turn kills the running hook's group", async () => {
    ws.script("hang.sh", "sleep 30 &\nsleep 30");
    const h = await harness(ws, { PreToolUse: [{ hooks: [hook(`${ws.dir}/hang.sh`)] }] });
    const turn = new AbortController();
    const pending = decide(h.env(turn.signal), "pre-tool", preTool(h.session, "Bash"));
    await vi.waitFor(() => expect(h.pgids.size).toBe(1), { timeout: 5_000, interval: 10 });
    const pgid = h.pgids.get("PreToolUse[0].hooks[0]") ?? 0;
    expect(liveMembers(pgid).length).toBeGreaterThan(0);
    turn.abort(new Error("turn cancelled"));
    await expect(pending).rejects.toThrow("turn cancelled");
    await vi.waitFor(() => expect(liveMembers(pgid)).toEqual([]), { timeout: 5_000, interval: 10 });
  });
});

describe("UserPromptSubmit -> pre-step", () => {
  it("plain stdout is context; the prompt is on stdin", async () => {
    ws.script("ctx.sh", 'cat > in.json\necho "ticket: ABC-123"');
    const h = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/ctx.sh`)] }] });
    const outcome = await decide(h.env(), "pre-step", preStep(h.session, "fix the login bug"));
    expect(outcome).toMatchObject({ decision: { kind: "enter", messages: [{ content: [{ text: "fix the login bug" }] }, { source: { kind: "plugin", name: "cmd" }, content: [{ text: "ticket: ABC-123" }] }] } });
    expect(JSON.parse(ws.read("in.json"))).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "fix the login bug" });
  });

  it.each([
    ["exit 2", 'echo "no secrets in prompts" >&2; exit 2', "no secrets in prompts"],
    ["decision block", `echo ${json({ decision: "block", reason: "blocked prompt" })}`, "blocked prompt"],
    ["continue:false", `echo ${json({ continue: false, stopReason: "session frozen" })}`, "session frozen"],
  ])("%s rejects with the reason", async (_name, body, reason) => {
    ws.script("h.sh", body);
    const h = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/h.sh`)] }] });
    expect(await decide(h.env(), "pre-step", preStep(h.session, "x"))).toMatchObject({ decision: { kind: "reject", reason } });
  });

  it("a hook's continue:false is the stop request with its stopReason as written; its systemMessage is the message for the user, the hooks' joined in file order", async () => {
    ws.script("stop.sh", `echo ${json({ continue: false, stopReason: "session frozen", systemMessage: "UserPromptSubmit says: frozen" })}`);
    ws.script("warn.sh", `echo ${json({ systemMessage: "rule file: warn only" })}`);
    const h = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/stop.sh`), hook(`${ws.dir}/warn.sh`)] }] });
    expect(await decide(h.env(), "pre-step", preStep(h.session, "x"))).toMatchObject({
      decision: { kind: "reject", reason: "session frozen", stopAgent: { reason: "session frozen" }, userMessage: "UserPromptSubmit says: frozen\n\nrule file: warn only" },
    });
    const warnOnly = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/warn.sh`)] }] });
    expect(await decide(warnOnly.env(), "pre-step", preStep(warnOnly.session, "x"))).toMatchObject({ decision: { kind: "enter", userMessage: "rule file: warn only" }, decidedBy: "default" });
  });

  it("does not fire for a tool continuation (no prompt in the batch)", async () => {
    ws.script("h.sh", "echo ran >> ran.txt; exit 2");
    const h = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/h.sh`)] }] });
    expect(await decide(h.env(), "pre-step", { session: h.session, turn: 1, step: 2, messages: [] })).toMatchObject({ decision: { kind: "enter" }, decidedBy: "default" });
    expect(h.reports).toEqual([]);
  });
});

describe("PostToolUse -> post-tool, SessionStart -> session-start", () => {
  const post = (h: { session: PostToolEvent["session"] }, isError = false): PostToolEvent => ({
    session: h.session,
    call: toolCall(h.session, "Edit", { file_path: "a.ts" }),
    result: isError
      ? { isError: true, code: "tool_error", name: "Edit", message: "failed", content: [], contexts: [] }
      : { isError: false, value: { ok: true }, content: [{ type: "text", text: "ok" }], contexts: [] },
  });

  it("decision block is block with the reason as feedback; additionalContext accepts with contexts", async () => {
    ws.script("lint.sh", `cat > in.json\necho ${json({ decision: "block", reason: "lint: missing semicolon" })}`);
    ws.script("note.sh", `echo ${json({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: "formatted" } })}`);
    const blocking = await harness(ws, { PostToolUse: [{ matcher: "Edit|Write", hooks: [hook(`${ws.dir}/lint.sh`)] }] });
    expect(await decide(blocking.env(), "post-tool", post(blocking))).toMatchObject({ decision: { kind: "block", feedback: "lint: missing semicolon" } });
    expect(JSON.parse(ws.read("in.json"))).toMatchObject({ tool_name: "Edit", tool_response: { ok: true }, tool_input: { file_path: "a.ts" } });
    const noting = await harness(ws, { PostToolUse: [{ hooks: [hook(`${ws.dir}/note.sh`)] }] });
    expect(await decide(noting.env(), "post-tool", post(noting))).toMatchObject({ decision: { kind: "accept", additionalContexts: [{ source: { kind: "plugin", name: "cmd" }, content: [{ text: "formatted" }] }] } });
  });

  it("does not run for a failed tool, as the agents do", async () => {
    ws.script("lint.sh", "echo ran >> ran.txt; exit 2");
    const h = await harness(ws, { PostToolUse: [{ hooks: [hook(`${ws.dir}/lint.sh`)] }] });
    expect(await decide(h.env(), "post-tool", post(h, true))).toMatchObject({ decidedBy: "default" });
    expect(h.reports).toEqual([]);
  });

  it("SessionStart context is injected; its matcher selects the source", async () => {
    ws.script("start.sh", 'echo "on branch main"');
    ws.script("resume.sh", 'echo "resumed"');
    const h = await harness(ws, { SessionStart: [{ matcher: "startup", hooks: [hook(`${ws.dir}/start.sh`)] }, { matcher: "resume", hooks: [hook(`${ws.dir}/resume.sh`)] }] });
    const outcome = await decide(h.env(), "session-start", { session: h.session, source: "startup", tools: [] });
    expect(outcome.answers).toEqual([{ plugin: "cmd", decision: { kind: "inject", messages: [expect.objectContaining({ content: [{ type: "text", text: "on branch main" }] })] } }]);
  });
});

describe("Stop -> turn-stopping", () => {
  // Continues the turn once: blocks unless stop_hook_active says the turn was already continued.
  const ONCE = `if grep -q '"stop_hook_active":true'; then exit 0; fi\necho "run the tests first" >&2\nexit 2`;
  const stopEvent = (session: TurnStoppingEvent["session"], continued: number): TurnStoppingEvent => ({
    session,
    turn: 1,
    step: 2 + continued,
    stopHookActive: continued > 0,
    steeredContinuations: continued,
    lastAssistantMessage: { id: "m", role: "assistant", content: [{ type: "text", text: "done" }], source: { kind: "model" } },
  });

  it("exit 2 steers with the reason; stop_hook_active lets the hook allow the next stop", async () => {
    ws.script("once.sh", ONCE);
    const h = await harness(ws, { Stop: [{ hooks: [hook(`${ws.dir}/once.sh`)] }] });
    const first = await decideTurnStop(h.env(), stopEvent(h.session, 0), { maxSteeredContinuations: 8 });
    expect(first).toEqual({
      kind: "steer",
      steeredBy: ["cmd"],
      messages: [{ id: "", role: "user", content: [{ type: "text", text: "run the tests first" }], source: { kind: "plugin", name: "cmd" } }],
    });
    expect(await decideTurnStop(h.env(), stopEvent(h.session, 1), { maxSteeredContinuations: 8 })).toEqual({ kind: "close" });
  });

  it("the daemon's continuation cap refuses a hook that always continues", async () => {
    ws.script("always.sh", `echo ${json({ decision: "block", reason: "keep going" })}`);
    const h = await harness(ws, { Stop: [{ hooks: [hook(`${ws.dir}/always.sh`)] }] });
    expect(await decideTurnStop(h.env(), stopEvent(h.session, 1), { maxSteeredContinuations: 2 })).toMatchObject({ kind: "steer" });
    expect(await decideTurnStop(h.env(), stopEvent(h.session, 2), { maxSteeredContinuations: 2 })).toMatchObject({ kind: "capped", steeredBy: ["cmd"] });
  });
});

describe("dialects and loading", () => {
  it("Codex payloads have no trailing newline; Claude Code payloads do", async () => {
    ws.script("dump.sh", 'cat > "in-$1.bin"');
    for (const dialect of ["codex", "claude-code"] as const) {
      const h = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/dump.sh ${dialect}`)] }] }, { dialect });
      await decide(h.env(), "pre-step", preStep(h.session, "hi"));
    }
    const codex = readFileSync(ws.file("in-codex.bin"), "utf8");
    const claude = readFileSync(ws.file("in-claude-code.bin"), "utf8");
    expect(codex.at(-1)).toBe("}");
    expect(claude.at(-1)).toBe("\n");
    expect(JSON.parse(codex)).toMatchObject({ turn_id: "1", model: "", transcript_path: null, prompt: "hi" });
    expect(JSON.parse(claude)).not.toHaveProperty("turn_id");
  });

  it("Codex matchers are regexes: Bash also matches BashOutput", async () => {
    ws.script("h.sh", 'echo "no" >&2; exit 2');
    const h = await harness(ws, { PreToolUse: [{ matcher: "Bash", hooks: [hook(`${ws.dir}/h.sh`)] }] }, { dialect: "codex" });
    expect(await decide(h.env(), "pre-tool", preTool(h.session, "BashOutput"))).toMatchObject({ decision: { kind: "deny", reason: "no" } });
  });

  it("an invalid matcher rejects the whole file at load, naming the event and index", async () => {
    const path = ws.file("bad.json");
    const { writeFileSync } = await import("node:fs");
    writeFileSync(path, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook("true")] }, { matcher: "Edit(", hooks: [hook("true")] }] } }));
    await expect(commandPluginSource({ name: "cmd", kind: "command", hooks: path, dialect: "claude-code", required: false }, { log: createLogger({ write: () => {} }) })).rejects.toThrow(
      `${path}: PreToolUse[1].matcher: invalid regular expression "Edit("`,
    );
  });

  it("subscribes where its hooks run: an event without a typed point at agent-event, by its name", async () => {
    const h = await harness(ws, { SubagentStop: [{ hooks: [hook("true")] }], PreToolUse: [{ hooks: [hook("true")] }], PreCompact: [{ matcher: "manual", hooks: [hook("true")] }] });
    expect(h.source.notes).toEqual([]);
    // PreToolUse runs once per call at rewrite (its updatedInput) and answers pre-tool; post-tool delivers its contexts.
    expect(h.source.status()).toMatchObject({ kind: "command", health: "serving", points: ["rewrite", "pre-tool", "post-tool", "turn-stopping", "agent-event"] });
    const observer = h.source.listeners().find((l) => l.point === "agent-event");
    expect([observer?.matches("PreCompact"), observer?.matches("Notification")]).toEqual([true, false]);
  });

  it("a message in the batch from the user is the prompt, context from plugins is not", async () => {
    ws.script("dump.sh", "cat > in.json");
    const h = await harness(ws, { UserPromptSubmit: [{ hooks: [hook(`${ws.dir}/dump.sh`)] }] });
    await decide(h.env(), "pre-step", { session: h.session, turn: 1, step: 1, messages: [userMessage("one"), { ...userMessage("ctx"), source: { kind: "plugin", name: "x" } }] });
    expect(JSON.parse(ws.read("in.json"))).toMatchObject({ prompt: "one" });
  });
});
