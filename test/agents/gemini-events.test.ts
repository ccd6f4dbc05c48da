// Gemini CLI's events without a typed point, driven headless (`gemini -p`) with the real binary
// and hookd as the hook backend: every Gemini event through the C forwarder (`--dialect gemini`).
// BeforeModel, BeforeToolSelection and AfterModel fire around every model call of the agent's
// loop, PreCompress before each turn's compression check (Gemini 0.61 fires it before testing
// the threshold, so it fires even when nothing is compressed); each reaches the agent-event
// plugin with Gemini's own payload, and the typed events keep their points. The model first
// delegates to Gemini's `generalist` subagent (invoke_agent): Gemini fires its hooks for the
// subagent's tool and model calls too, with the parent's session_id and no agent id, so hookd
// gates the subagent's calls, in the main session (Gemini gives no lineage to tell them apart).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeModel } from "./fake-model/server.js";
import type { Conversation, FakeModel, Reply, Script } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { GEMINI_ALL_EVENTS, geminiHooks, runGemini } from "./support/gemini.js";
import { OBSERVER_PLUGIN, observed } from "./support/observer.js";
import type { ObservedEntry } from "./support/observer.js";
import { startPolicyDaemon } from "./support/policy.js";
import type { PolicyDaemon } from "./support/policy.js";
import { MARK, prepareCwd } from "./support/scenario.js";

const PROMPT = "Delegate the cleanup, write the harmless file, then tell me DONE.";
const SUBTASK = "SUBAGENT-TASK-5d0: clean the directory";
const isSubagent = (c: Conversation): boolean => c.userTexts.some((t) => t.includes(SUBTASK));
// Long enough for the fake model to stream it in three pieces (40 characters each at most).
const FINAL = "DONE: the subagent cleaned up, the harmless file is written, and nothing else changed.";

// Main: invoke the generalist subagent, then a harmless command, then answer (and again after
// hookd's steer). Subagent: rm -r (hookd denies it), a command of its own, then complete_task.
const script: Script = (c) => {
  if (c.tools.length === 0) return { kind: "text", text: "ok" };
  const steps: readonly Reply[] = isSubagent(c)
    ? [{ kind: "shell", command: "rm -r victim" }, { kind: "shell", command: "echo sub-ran > sub.txt" }, { kind: "tool", name: "complete_task", input: { result: { response: "SUB-DONE" } } }]
    : [{ kind: "tool", name: "invoke_agent", input: { agent_name: "generalist", prompt: SUBTASK } }, { kind: "shell", command: "echo harmless-ran > harmless.txt" }];
  return steps[c.toolResults.length] ?? { kind: "text", text: isSubagent(c) ? "SUB-DONE" : FINAL };
};

describe("Gemini CLI's model and compression events through hookd", () => {
  let policy: PolicyDaemon;
  let model: FakeModel;
  let run: Awaited<ReturnType<typeof runGemini>>;
  let cwd: string;
  let entries: ObservedEntry[];
  let session: string;

  beforeAll(async () => {
    policy = await startPolicyDaemon({ plugins: [OBSERVER_PLUGIN] });
    model = await startFakeModel(script);
    const home = await tempDir("gemini-home");
    cwd = await tempDir("gemini-cwd");
    prepareCwd(cwd);
    run = await runGemini({ home, cwd, modelUrl: model.url, hooks: geminiHooks("c-forwarder", policy.hookUrl, GEMINI_ALL_EVENTS), prompt: PROMPT });
    entries = await policy.entries();
    session = entries.find((e) => e.point === "session-start")?.session.sessionId ?? "no session-start";
  }, 120_000);

  afterAll(async () => {
    await model?.close();
    await policy?.stop();
  });

  it("runs the turn to its end, the typed events at their points", () => {
    expect(run.code, run.stderr).toBe(0);
    expect(run.events.at(-1)).toMatchObject({ type: "result", status: "success" });
    expect(entries.filter((e) => e.point === "pre-tool" && e.tool === "run_shell_command").map((e) => e.command)).toEqual(["rm -r victim", "echo sub-ran > sub.txt", "echo harmless-ran > harmless.txt"]);
    for (const point of ["pre-step", "post-tool", "turn-stopping", "session-end"]) expect(entries.some((e) => e.point === point), point).toBe(true);
  });

  it("BeforeModel reaches the agent-event plugin before every model call of the loop, with Gemini's llm_request", () => {
    const seen = observed(entries, "BeforeModel");
    // Main: invoke_agent, the shell call, the answer, the answer again after hookd's one steer
    // (AfterAgent); the subagent: its two commands and complete_task.
    expect(model.conversations().map(isSubagent)).toEqual([false, true, true, true, false, false, false]);
    expect(seen).toHaveLength(7);
    for (const entry of seen) {
      expect(entry).toMatchObject({ dialect: "gemini", session: { sessionId: session, agentId: "gemini" }, payload: { hook_event_name: "BeforeModel", session_id: session, llm_request: { model: "gemini-2.5-flash" } } });
    }
    expect(seen.map((e) => JSON.stringify(e.payload?.llm_request).includes(SUBTASK))).toEqual(model.conversations().map(isSubagent));
  });

  it("BeforeToolSelection reaches it too, once per model call, with the request", () => {
    const seen = observed(entries, "BeforeToolSelection");
    expect(seen).toHaveLength(7);
    for (const entry of seen) expect(entry).toMatchObject({ dialect: "gemini", payload: { hook_event_name: "BeforeToolSelection", llm_request: { model: "gemini-2.5-flash" } } });
  });

  it("AfterModel reaches it once per streamed chunk, with the chunk as llm_response", () => {
    const seen = observed(entries, "AfterModel");
    for (const entry of seen) expect(entry.payload).toMatchObject({ hook_event_name: "AfterModel", llm_request: { model: "gemini-2.5-flash" } });
    // Five calls answered in one chunk; the final answer, twice (before and after the steer), in three.
    expect(seen).toHaveLength(5 + 2 * 3);
    const pieces = seen.map((e) => (e.payload?.llm_response as { text?: string } | undefined)?.text ?? "").filter((t) => FINAL.includes(t) && t !== "");
    expect(pieces.join("")).toBe(FINAL + FINAL);
  });

  it("PreCompress reaches it with its trigger", () => {
    const seen = observed(entries, "PreCompress");
    expect(seen.length).toBeGreaterThan(0);
    for (const entry of seen) expect(entry).toMatchObject({ dialect: "gemini", session: { sessionId: session }, payload: { hook_event_name: "PreCompress", trigger: "auto" } });
  });

  it("gates the subagent's tool calls: its rm -r is denied and the subagent's model gets the reason; Gemini sends them in the main session, without lineage", () => {
    expect(existsSync(join(cwd, "victim"))).toBe(true);
    expect(existsSync(join(cwd, "sub.txt"))).toBe(true);
    expect(model.conversations().some((c) => isSubagent(c) && c.toolResults.some((t) => t.includes(MARK.denyReason)))).toBe(true);
    const gated = entries.find((e) => e.point === "pre-tool" && e.command === "rm -r victim");
    expect(gated?.session).toEqual({ sessionId: session, agentId: "gemini", cwd: expect.any(String) as unknown });
    // No subagent events: one session start, one prompt, and the subagent's end is no stop.
    expect(entries.filter((e) => e.point === "session-start")).toHaveLength(1);
    expect(entries.filter((e) => e.point === "turn-stopping").map((e) => e.stopHookActive)).toEqual([false, true]);
  });

  it("Notification does not fire: under --yolo nothing waits for a confirmation unless a hook asks", () => {
    expect(observed(entries, "Notification")).toEqual([]);
  });
});

// Notification fires only when a tool waits for the user's confirmation, and headless that
// happens only when a BeforeTool hook asks (`decision: "ask"`; hookd's own ask goes to its approval
// plugins first, and the lane's policy approves): here a plain command hook beside hookd's asks.
// Gemini fires Notification (ToolPermission), then waits for a confirmation nobody can give, so
// the test ends the run once hookd has the event.
it("Gemini CLI's Notification reaches the agent-event plugin when a hook's ask makes Gemini wait for a confirmation", async () => {
  const policy = await startPolicyDaemon({ plugins: [OBSERVER_PLUGIN] });
  const command = "echo asked > asked.txt";
  const model = await startFakeModel((c) => (c.tools.length === 0 ? { kind: "text", text: "ok" } : c.toolResults.length === 0 ? { kind: "shell", command } : { kind: "text", text: "DONE" }));
  const stop = new AbortController();
  try {
    const home = await tempDir("gemini-home");
    const dir = await tempDir("gemini-cwd");
    const hooks = geminiHooks("c-forwarder", policy.hookUrl, GEMINI_ALL_EVENTS);
    const asking = { hooks: [{ type: "command", command: `cat > /dev/null; echo '{"decision":"ask","reason":"lane: confirm it"}'` }] };
    const run = runGemini({ home, cwd: dir, modelUrl: model.url, hooks: { ...hooks, BeforeTool: [...(hooks.BeforeTool as unknown[]), asking] }, prompt: "Write it.", signal: stop.signal });
    const until = Date.now() + 60_000;
    let notified: ObservedEntry[] = [];
    while (notified.length === 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      notified = observed(await policy.entries(), "Notification");
    }
    stop.abort();
    await run;
    const entries = await policy.entries();
    expect(entries.filter((e) => e.point === "pre-tool").map((e) => e.command)).toEqual([command]);
    expect(notified).toHaveLength(1);
    const session = entries.find((e) => e.point === "session-start")?.session.sessionId;
    expect(notified[0]).toMatchObject({ dialect: "gemini", session: { sessionId: session, agentId: "gemini" }, payload: { hook_event_name: "Notification", notification_type: "ToolPermission", message: expect.any(String) as unknown } });
    expect(notified[0]?.payload?.details).toMatchObject({ type: "exec", command });
    expect(existsSync(join(dir, "asked.txt"))).toBe(false);
  } finally {
    stop.abort();
    await model.close();
    await policy.stop();
  }
}, 120_000);
