// Gemini CLI's events without a typed point, driven headless (`gemini -p`) with the real binary
// and hookd as the hook backend: every Gemini event through the C forwarder (`--dialect gemini`).
// BeforeModel, BeforeToolSelection and AfterModel fire around every model call of the agent's
// loop, PreCompress before each turn's compression check (Gemini 0.61 fires it before testing
// the threshold, so it fires even when nothing is compressed); each reaches the agent-event
// plugin with Gemini's own payload, and the typed events keep their points.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scripted, startFakeModel } from "./fake-model/server.js";
import type { FakeModel } from "./fake-model/server.js";
import { tempDir } from "./support/agents.js";
import { GEMINI_ALL_EVENTS, geminiHooks, runGemini } from "./support/gemini.js";
import { OBSERVER_PLUGIN, observed } from "./support/observer.js";
import type { ObservedEntry } from "./support/observer.js";
import { startPolicyDaemon } from "./support/policy.js";
import type { PolicyDaemon } from "./support/policy.js";
import { prepareCwd } from "./support/scenario.js";

const PROMPT = "Write the harmless file, then tell me DONE.";

describe("Gemini CLI's model and compression events through hookd", () => {
  let policy: PolicyDaemon;
  let model: FakeModel;
  let run: Awaited<ReturnType<typeof runGemini>>;
  let entries: ObservedEntry[];
  let session: string;

  beforeAll(async () => {
    policy = await startPolicyDaemon({ plugins: [OBSERVER_PLUGIN] });
    model = await startFakeModel(scripted([{ kind: "shell", command: "echo harmless-ran > harmless.txt" }]));
    const home = await tempDir("gemini-home");
    const cwd = await tempDir("gemini-cwd");
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
    expect(entries.filter((e) => e.point === "pre-tool").map((e) => e.command)).toEqual(["echo harmless-ran > harmless.txt"]);
    for (const point of ["pre-step", "post-tool", "turn-stopping", "session-end"]) expect(entries.some((e) => e.point === point), point).toBe(true);
  });

  it("BeforeModel reaches the agent-event plugin before every model call of the loop, with Gemini's llm_request", () => {
    const seen = observed(entries, "BeforeModel");
    // The shell call, the answer, and the answer again after hookd's one steer (AfterAgent).
    expect(model.conversations()).toHaveLength(3);
    expect(seen).toHaveLength(3);
    for (const entry of seen) {
      expect(entry).toMatchObject({ dialect: "gemini", session: { sessionId: session, agentId: "gemini" }, payload: { hook_event_name: "BeforeModel", session_id: session, llm_request: { model: "gemini-2.5-flash" } } });
      expect(JSON.stringify(entry.payload?.llm_request)).toContain(PROMPT);
    }
  });

  it("BeforeToolSelection reaches it too, once per model call, with the request", () => {
    const seen = observed(entries, "BeforeToolSelection");
    expect(seen).toHaveLength(3);
    for (const entry of seen) expect(entry).toMatchObject({ dialect: "gemini", payload: { hook_event_name: "BeforeToolSelection", llm_request: { model: "gemini-2.5-flash" } } });
  });

  it("AfterModel reaches it with the model's response chunk (the fake model answers in one chunk)", () => {
    const seen = observed(entries, "AfterModel");
    expect(seen).toHaveLength(3);
    const texts = seen.map((e) => JSON.stringify((e.payload?.llm_response as { candidates?: unknown } | undefined)?.candidates ?? null));
    expect(texts.some((t) => t.includes("DONE"))).toBe(true);
    for (const entry of seen) expect(entry.payload).toMatchObject({ hook_event_name: "AfterModel", llm_request: { model: "gemini-2.5-flash" } });
  });

  it("PreCompress reaches it with its trigger", () => {
    const seen = observed(entries, "PreCompress");
    expect(seen.length).toBeGreaterThan(0);
    for (const entry of seen) expect(entry).toMatchObject({ dialect: "gemini", session: { sessionId: session }, payload: { hook_event_name: "PreCompress", trigger: "auto" } });
  });

  it("Notification does not fire headless: --yolo asks no confirmation", () => {
    expect(observed(entries, "Notification")).toEqual([]);
  });
});
