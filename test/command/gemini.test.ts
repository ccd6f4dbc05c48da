// The Gemini CLI dialect end to end: the HTTP endpoint (x-hookd-dialect: gemini) and the
// `hookd hook --dialect gemini` forwarder (the built node entry and its C twin), answered through
// EvaluateService by in-process plugins at rewrite, pre-tool, pre-step, post-tool, turn-stopping,
// session-start and session-end. Request bodies are the payloads the real Gemini CLI 0.61.0 sent
// (test/fixtures/gemini-0.61-payloads.json); the last block drives the REAL binary
// (@google/gemini-cli at the version scripts/setup-agents.sh pins) headless against a fake Gemini API on
// 127.0.0.1 and proves a denied `rm -rf` never ran and the model received hookd's reason.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { accept, ask, definePlugin, deny, enter, inject, messageText, pass, patch, pluginMessage, reject, steer, userMessage } from "@hookd/sdk";
import type { SessionEndEvent, TurnEndEvent } from "@hookd/sdk";
import { PluginRegistry } from "../../daemon/src/engine/registry.js";
import { startHookHttpServer } from "../../daemon/src/http/index.js";
import { evaluateServiceOver } from "../../daemon/test/support/evaluate-service.js";
import type { HookHttpServer } from "../../daemon/src/http/index.js";
import { createLogger } from "../../daemon/src/log.js";
import { inProcessListeners } from "../../daemon/src/plugins/in-process/listeners.js";
import { agentBin } from "../agents/support/agents.js";
import { startFakeGeminiApi } from "../support/fake-gemini-api.js";
import { workspace } from "./support.js";
import type { Workspace } from "./support.js";

const root = resolve(import.meta.dirname, "../..");
const FORWARDER = join(root, "daemon/dist/forward/main.js");
const C_SOURCE = join(root, "daemon/src/forward/hookd-hook.c");
const FIXTURES = JSON.parse(readFileSync(join(root, "test/fixtures/gemini-0.61-payloads.json"), "utf8")) as { events: Record<string, Record<string, unknown>> };

const commandOf = (args: unknown): string => {
  const command = (args as { command?: unknown }).command;
  return typeof command === "string" ? command : "";
};

const ended: SessionEndEvent[] = [];
const turnEnds: TurnEndEvent[] = [];
const observed: string[] = [];
const guard = definePlugin({
  name: "guard",
  points: {
    "pre-tool": (event) => {
      const command = commandOf(event.call.arguments);
      if (command.includes("rm -rf")) return deny("destructive command refused by hookd");
      return command.includes("git push") ? ask("pushing needs a human") : pass();
    },
    "pre-step": (event) => {
      const prompt = event.messages.map(messageText).join("\n");
      return prompt.includes("forbidden") ? reject("that prompt is not allowed") : enter([...event.messages, pluginMessage("guard", "prompt context from hookd")]);
    },
    "post-tool": () => accept({ additionalContexts: [pluginMessage("guard", "post-tool context from hookd")] }),
    "turn-stopping": (event) => {
      const last = messageText(event.lastAssistantMessage ?? { content: [] });
      // "STEER ONCE" steers only a first stop: Gemini's prompt_response on a retry still holds it.
      const steers = last.includes("STEER ME") || (last.includes("STEER ONCE") && !event.stopHookActive);
      return steers ? steer([userMessage("keep going")]) : pass();
    },
    "session-start": () => inject([pluginMessage("guard", "hookd policy v1 is active")]),
    "session-end": (event) => void ended.push(event),
    "turn-end": (event) => void turnEnds.push(event),
    "agent-event": { tools: ["PreCompress", "Before*"], handler: (event) => void observed.push(`${event.dialect}:${event.eventName}`) },
  },
});
const rewriter = definePlugin({
  name: "rewriter",
  points: { rewrite: (event) => (commandOf(event.call.arguments).startsWith("echo orig") ? patch({ command: commandOf(event.call.arguments).replace("echo orig", "echo rewritten") }) : pass()) },
});

let ws: Workspace;
let http: HookHttpServer;
let cForwarder: string;

beforeAll(async () => {
  if (!existsSync(FORWARDER)) throw new Error(`${FORWARDER} is missing: run npm run build`);
  ws = workspace();
  cForwarder = ws.file("hookd-hook");
  execFileSync("cc", ["-std=c99", "-O2", "-Wall", "-Werror", "-o", cForwarder, C_SOURCE]);
  const registry = new PluginRegistry([...inProcessListeners(guard), ...inProcessListeners(rewriter)]);
  const { evaluate } = evaluateServiceOver(registry);
  http = await startHookHttpServer({ listen: "127.0.0.1:0", evaluate, log: createLogger({ write: () => {} }) });
}, 60_000);

afterAll(async () => {
  await http?.close();
  ws?.cleanup();
});

/** A captured payload of the real binary, with some fields replaced. */
const payload = (event: string, fields: Record<string, unknown> = {}) => JSON.stringify({ ...FIXTURES.events[event], ...fields });

async function post(body: string, path = "/hooks"): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${http.address}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-hookd-dialect": "gemini" }, body });
  return { status: response.status, json: await response.json() };
}

function forward(which: "node" | "c", args: readonly string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const [file, argv] = which === "node" ? [process.execPath, [FORWARDER, ...args]] : [cForwarder, [...args]];
    const child = spawn(file, argv, { stdio: ["pipe", "pipe", "pipe"], env: { PATH: process.env.PATH ?? "" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.on("error", () => {});
    child.stdin.end(stdin);
  });
}

describe("HTTP endpoint, Gemini dialect (payloads of the real Gemini CLI 0.61)", () => {
  it("BeforeTool: a denied rm -rf is decision deny with hookd's reason; a harmless call is no opinion", async () => {
    expect(await post(payload("BeforeTool", { tool_input: { command: "rm -rf /tmp/victim", description: "clean" } }))).toEqual({
      status: 200,
      json: { decision: "deny", reason: "destructive command refused by hookd" },
    });
    expect(await post(payload("BeforeTool"), "/hooks/BeforeTool")).toEqual({ status: 200, json: {} });
  });

  it("BeforeTool: a rewrite answers the whole effective arguments as tool_input (Gemini 0.61 builds the call from them alone)", async () => {
    expect(await post(payload("BeforeTool", { tool_input: { command: "echo orig > x.txt", description: "keep me" } }))).toEqual({
      status: 200,
      json: { hookSpecificOutput: { hookEventName: "BeforeTool", tool_input: { command: "echo rewritten > x.txt", description: "keep me" } } },
    });
  });

  it("BeforeTool: an ask forces Gemini's own confirmation (decision ask), after hookd's approval plugins passed", async () => {
    expect(await post(payload("BeforeTool", { tool_input: { command: "git push origin main" } }))).toEqual({
      status: 200,
      json: { decision: "ask", reason: "pushing needs a human", systemMessage: "pushing needs a human" },
    });
  });

  it("BeforeAgent: context is additionalContext; a rejected prompt is decision deny, and the turn ends blocked", async () => {
    expect(await post(payload("BeforeAgent"))).toEqual({ status: 200, json: { hookSpecificOutput: { hookEventName: "BeforeAgent", additionalContext: "prompt context from hookd" } } });
    expect(await post(payload("BeforeAgent", { session_id: "g-rejected", prompt: "do the forbidden thing" }))).toEqual({ status: 200, json: { decision: "deny", reason: "that prompt is not allowed" } });
    expect(turnEnds.filter((event) => event.session.sessionId === "g-rejected")).toMatchObject([{ outcome: "blocked", detail: "that prompt is not allowed" }]);
  });

  it("AfterTool: post-tool context is additionalContext (Gemini appends it to the tool result)", async () => {
    expect(await post(payload("AfterTool"))).toEqual({ status: 200, json: { hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: "post-tool context from hookd" } } });
  });

  it("AfterAgent: a steer is decision deny with the steering text (Gemini retries with it), then the cap", async () => {
    const stop = (active: boolean) => post(payload("AfterAgent", { session_id: "g-cap", prompt_response: "STEER ME", stop_hook_active: active }));
    expect((await stop(false)).json).toEqual({ decision: "deny", reason: "keep going" });
    expect((await stop(true)).json).toEqual({ decision: "deny", reason: "keep going" });
    expect((await stop(true)).json).toEqual({ systemMessage: expect.stringContaining("continuation cap") as unknown });
    expect((await post(payload("AfterAgent", { session_id: "g-done" }))).json).toEqual({});
    // A stop nobody steered ends the turn, as for every agent; the capped one says why.
    expect(turnEnds.filter((event) => event.session.sessionId === "g-cap").map((event) => event.outcome)).toEqual(["continuation_cap"]);
    expect(turnEnds.filter((event) => event.session.sessionId === "g-done").map((event) => event.outcome)).toEqual(["completed"]);
  });

  it("SessionStart injects; SessionEnd reaches the session-end plugins with the agent's reason", async () => {
    expect(await post(payload("SessionStart"))).toEqual({ status: 200, json: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "hookd policy v1 is active" } } });
    expect(await post(payload("SessionEnd", { session_id: "g-end" }))).toEqual({ status: 200, json: {} });
    expect(ended.find((event) => event.session.sessionId === "g-end")).toMatchObject({ reason: "closed", detail: "the agent ended the session (exit)", session: { agentId: "gemini" } });
  });

  it("observe-only events answer no opinion and reach agent-event plugins by name; bad bodies are 400 naming the field", async () => {
    observed.length = 0;
    for (const event of ["BeforeModel", "AfterModel", "BeforeToolSelection", "PreCompress", "Notification"]) expect(await post(payload(event))).toEqual({ status: 200, json: {} });
    // Subscribed to PreCompress and Before*: AfterModel and Notification reach nobody.
    expect(observed).toEqual(["gemini:BeforeModel", "gemini:BeforeToolSelection", "gemini:PreCompress"]);
    expect(await post(payload("BeforeTool", { tool_name: undefined }))).toEqual({ status: 400, json: { error: "tool_name: required" } });
    expect(await post(payload("BeforeTool", { tool_input: [1] }))).toEqual({ status: 400, json: { error: "tool_input: expected an object" } });
    // A SessionEnd reason Gemini may add later is still the session's end, as for every agent.
    ended.length = 0;
    expect(await post(payload("SessionEnd", { session_id: "g-later", reason: "crash" }))).toEqual({ status: 200, json: {} });
    expect(ended.find((event) => event.session.sessionId === "g-later")).toMatchObject({ reason: "closed", detail: "the agent ended the session (crash)" });
    // Claude Code's names are not Gemini's.
    expect(await post(payload("BeforeTool", { hook_event_name: "PreToolUse" }))).toMatchObject({ status: 400, json: { error: expect.stringMatching(/^hook_event_name: expected a Gemini CLI hook event/) as unknown } });
  });
});

describe.each(["node", "c"] as const)("hookd hook --dialect gemini (%s forwarder)", (which) => {
  it("prints Gemini's deny for a denied rm -rf on stdout with exit 0", async () => {
    const out = await forward(which, ["--dialect", "gemini", "--url", http.address], payload("BeforeTool", { tool_input: { command: "rm -rf ~" } }));
    expect(out).toEqual({ code: 0, stdout: `${JSON.stringify({ decision: "deny", reason: "destructive command refused by hookd" })}\n`, stderr: "" });
  });

  it("prints {} for a harmless call; fails open (exit 1) or closed (exit 2: Gemini's block) when hookd is down", async () => {
    expect(await forward(which, ["--dialect", "gemini", "--url", http.address, "--event", "BeforeTool"], payload("BeforeTool"))).toEqual({ code: 0, stdout: "{}\n", stderr: "" });
    const down = await forward(which, ["--dialect", "gemini", "--url", "http://127.0.0.1:1"], payload("BeforeTool"));
    expect(down).toMatchObject({ code: 1, stdout: "" });
    expect((await forward(which, ["--dialect", "gemini", "--url", "http://127.0.0.1:1", "--fail-closed"], payload("BeforeTool"))).code).toBe(2);
  });
});

// ---- the real binary ----------------------------------------------------------------------

/** The pinned Gemini CLI, from the real-agent lane's cache (scripts/setup-agents.sh installs it on first use). */
const geminiBin = (): string => agentBin("gemini");

/** Runs `gemini -p` in a fresh home whose user settings send every typed event through `hook`. */
async function runGemini(hook: string, script: Parameters<typeof startFakeGeminiApi>[0], prompt: string) {
  const api = await startFakeGeminiApi(script);
  const home = ws.file(`home-${Math.random().toString(36).slice(2)}`);
  const project = join(home, "project");
  mkdirSync(join(home, ".gemini"), { recursive: true });
  mkdirSync(project);
  const hooks = Object.fromEntries(["SessionStart", "BeforeAgent", "BeforeTool", "AfterTool", "AfterAgent", "SessionEnd"].map((event) => [event, [{ hooks: [{ type: "command", command: `${hook} --dialect gemini --url ${http.address}` }] }]]));
  writeFileSync(join(home, ".gemini/settings.json"), JSON.stringify({ hooks, security: { auth: { selectedType: "gemini-api-key" } } }));
  const env = { PATH: process.env.PATH ?? "", HOME: home, GEMINI_API_KEY: "fake", GOOGLE_GEMINI_BASE_URL: api.url, GEMINI_CLI_TRUST_WORKSPACE: "true", NO_COLOR: "1" };
  const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(geminiBin(), ["-p", prompt, "--yolo"], { cwd: project, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
  await api.close();
  return { ...result, api, project };
}

describe.each([
  ["node", () => `${process.execPath} ${FORWARDER}`],
  ["c", () => cForwarder],
] as const)("the real Gemini CLI through hookd hook (%s forwarder)", (_which, hook) => {
  it("a denied rm -rf never runs and the model receives hookd's reason; prompt and post-tool context arrive", async () => {
    const victim = ws.file(`victim-${_which}`);
    mkdirSync(victim);
    writeFileSync(join(victim, "keep.txt"), "precious");
    const run = await runGemini(hook(), [[{ functionCall: { name: "run_shell_command", args: { command: `rm -rf ${victim}`, description: "clean up" } } }]], "clean up please");
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(join(victim, "keep.txt"))).toBe(true);
    expect(run.api.functionResponses().some((text) => text.includes("destructive command refused by hookd"))).toBe(true);
    expect(JSON.stringify(run.api.requests[0])).toContain("prompt context from hookd");
    // SessionStart's context arrived too (headless: prepended to the first prompt).
    expect(JSON.stringify(run.api.requests[0])).toContain("hookd policy v1 is active");
    // Gemini does not wait for SessionEnd hooks, but the forwarder it started still reports it.
    await vi.waitFor(() => expect(ended.some((event) => event.detail === "the agent ended the session (exit)" && event.session.cwd === run.project)).toBe(true), { timeout: 15_000, interval: 50 });
  }, 120_000);

  it("a rewrite is applied by Gemini itself: the command that ran is the rewritten one", async () => {
    const run = await runGemini(hook(), [[{ functionCall: { name: "run_shell_command", args: { command: "echo orig > out.txt", description: "write" } } }]], "write it");
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(join(run.project, "out.txt"), "utf8").trim()).toBe("rewritten");
    expect(run.api.functionResponses().some((text) => text.includes("post-tool context from hookd"))).toBe(true);
  }, 120_000);

  it("a stop steer continues the turn once: AfterAgent's deny makes Gemini retry with the steering text", async () => {
    const run = await runGemini(hook(), [[{ text: "STEER ONCE" }]], "finish the job");
    expect(run.code, run.stderr).toBe(0);
    // Request 1: the prompt; request 2: the retry carrying hookd's steering text; then it stops.
    expect(run.api.requests).toHaveLength(2);
    expect(JSON.stringify(run.api.requests[1])).toContain("keep going");
    expect(run.stdout).toContain("All done.");
    // The steered stop did not end the turn; the one after it did, once.
    expect(turnEnds.filter((event) => event.session.cwd === run.project).map((event) => event.outcome)).toEqual(["completed"]);
  }, 120_000);
});
