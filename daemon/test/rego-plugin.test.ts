// `kind: rego` with bundles the real OPA builds (scripts/setup-opa.sh): the entrypoint's decision
// object becomes the point's answer through the daemon's own loader and evaluate service; what the
// policy reads is the typed event as protobuf JSON (and what the agent told about the session); an evaluation error or a verb the point cannot
// take is the plugin's failure (cause listener_error) under its failure policy, never an allow;
// a bundle that is not a Wasm bundle, or lacks the entrypoint, is refused naming the config key;
// a rewritten bundle counts as changed code for a reload.
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { snapshotJson } from "@hookd/sdk";
import type { SessionInfo, ToolCall } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keepAgentPayload } from "../src/agents/agent-payload.js";
import { parseBody } from "../src/agents/body.js";
import { parseConfig } from "../src/config/load.js";
import type { PluginConfig } from "../src/config/schema.js";
import type { EngineEvent } from "../src/engine/events.js";
import { PluginRegistry } from "../src/engine/registry.js";
import { SessionFacts } from "../src/engine/session-facts.js";
import { silentLogger } from "../src/log.js";
import { loadPlugin } from "../src/plugins/load.js";
import type { PluginSource } from "../src/plugins/source.js";
import { WorkerPool } from "../src/plugins/worker/index.js";
import { evaluateServiceOver } from "./support/evaluate-service.js";
import { OPA_SETUP_TIMEOUT_MS, buildBundle, opaBinary } from "./support/opa.js";

const ENTRYPOINT = "hookd/test/decision";
const POLICY = `package hookd.test

# What the policy read, so the test can see the input mapping.
decision := {"decision": "deny", "reason": sprintf("rm in %s by %s (%s)", [input.session.cwd, input.session.agentId, input.call.toolName]), "rule": "no-rm"} if {
	input.point == "pre-tool"
	startswith(input.arguments.command, "rm ")
}

decision := {"decision": "ask", "reason": "a push leaves the machine", "rule": "ask-push"} if {
	input.point == "pre-tool"
	input.arguments.command == "git push"
}

# What the agent's hook payloads told about the session (absent otherwise: no decision).
decision := {"decision": "deny", "reason": sprintf("no writes in %s mode", [input.agent.permissionMode]), "rule": "mode"} if {
	input.point == "pre-tool"
	input.call.toolName == "Write"
}

# The agent's own hook payload, for an event an agent's hook request carried.
decision := {"decision": "deny", "reason": sprintf("%s sent prompt %s", [input.dialect, input.payload.prompt_id]), "rule": "payload"} if {
	input.point == "pre-tool"
	input.call.toolName == "Edit"
}

# A reason where the verb carries none is left out, not an error.
decision := {"decision": "allow", "reason": "reads are fine", "rule": "reads"} if {
	input.point == "pre-tool"
	input.call.toolName == "Read"
}

# Verbs with a message, and block's reason (its feedback).
decision := {"decision": "enter", "message": sprintf("step %d: mind the tests", [input.step]), "rule": "context"} if input.point == "pre-step"

decision := {"decision": "block", "reason": "no secrets in output", "message": "the output was withheld", "rule": "blocker"} if input.point == "post-tool"

# allow is not a verb of the guard point.
decision := {"decision": "allow", "rule": "guard-allows"} if input.point == "guard"

# Two bodies give different values for this call: OPA's conflict error, at evaluation.
decision := {"decision": "allow"} if input.call.toolName == "Conflict"

decision := {"decision": "deny", "reason": "conflict"} if input.call.toolName == "Conflict"
`;

const session: SessionInfo = { sessionId: "s1", agentId: "agent-7", cwd: "/home/dev/project" };
const live = { signal: new AbortController().signal };

function toolCall(toolName: string, args: Record<string, unknown>): ToolCall {
  const snapshot = snapshotJson(args);
  return { callId: "c1", rootCallId: "c1", toolName, arguments: snapshot.value, argumentsJson: snapshot.text, sessionId: session.sessionId, turn: 1, step: 1 };
}

let dir = "";
let opa = "";
let bundle = "";
const sources: PluginSource[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "hookd-rego-"));
  opa = opaBinary();
  bundle = buildBundle(opa, dir, "test", POLICY, ENTRYPOINT);
}, OPA_SETUP_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(sources.map((s) => s.close()));
  if (dir !== "") rmSync(dir, { recursive: true, force: true });
});

function regoEntry(overrides: Partial<Extract<PluginConfig, { kind: "rego" }>> = {}): PluginConfig {
  return { name: "policy", kind: "rego", required: false, bundle, entrypoint: ENTRYPOINT, points: { "pre-tool": {}, guard: {} }, ...overrides };
}

async function load(entry: PluginConfig, sessionFacts?: SessionFacts): Promise<PluginSource> {
  const source = await loadPlugin(entry, { defaultDeadlineMs: 2_000, workerPool: () => new WorkerPool({ size: 1 }), log: silentLogger, ...(sessionFacts === undefined ? {} : { sessionFacts }) });
  sources.push(source);
  return source;
}

async function service(entry: PluginConfig = regoEntry(), facts?: SessionFacts) {
  const source = await load(entry, facts);
  const { evaluate, bus } = evaluateServiceOver(new PluginRegistry(source.listeners()));
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  return { evaluate, events };
}

const decisionAt = (events: readonly EngineEvent[], point: string) => events.find((e) => e.type === "decision" && e.point === point);

describe("a rego plugin decides with its entrypoint's decision object", () => {
  it("deny with its reason, read from the typed event (session, call, parsed arguments)", async () => {
    const { evaluate } = await service();
    const answer = await evaluate.evaluate("pre-tool", { session, call: toolCall("Bash", { command: "rm -rf build" }) }, live);
    expect(answer.decision).toEqual({ kind: "deny", reason: "rm in /home/dev/project by agent-7 (Bash)" });
    expect(answer.trace).toMatchObject({ decidedBy: "policy" });
  });

  it("ask; an undefined entrypoint is no opinion (the point's default decides); an allow with a reason is an allow", async () => {
    const { evaluate } = await service(regoEntry({ points: { "pre-tool": {} } }));
    const asked = await evaluate.evaluate("pre-tool", { session, call: toolCall("Bash", { command: "git push" }) }, { ...live, agentResolvesAsk: true });
    expect(asked.decision).toEqual({ kind: "ask", reason: "a push leaves the machine" });
    const other = await evaluate.evaluate("pre-tool", { session, call: toolCall("Bash", { command: "ls" }) }, live);
    expect(other).toMatchObject({ decision: { kind: "allow" }, trace: { decidedBy: "default" } });
    const read = await evaluate.evaluate("pre-tool", { session, call: toolCall("Read", { file_path: "a.txt" }) }, live);
    expect(read).toMatchObject({ decision: { kind: "allow" }, trace: { decidedBy: "policy" } });
  });

  it("input.agent: what the agent's hook payloads told about the session, when it told anything", async () => {
    const facts = new SessionFacts();
    const { evaluate } = await service(regoEntry({ points: { "pre-tool": {} } }), facts);
    const write = () => evaluate.evaluate("pre-tool", { session, call: toolCall("Write", { file_path: "a.txt" }) }, live);
    expect((await write()).decision).toEqual({ kind: "allow" });
    facts.remember(session, { permissionMode: "bypassPermissions", model: "m" });
    expect((await write()).decision).toEqual({ kind: "deny", reason: "no writes in bypassPermissions mode" });
  });

  it("input.payload and input.dialect: the agent's hook payload as it sent it, for an event its hook request carried", async () => {
    const { evaluate } = await service(regoEntry({ points: { "pre-tool": {} } }));
    const edit = (from: SessionInfo) => evaluate.evaluate("pre-tool", { session: from, call: toolCall("Edit", { file_path: "a.txt" }) }, live);
    // From the gRPC API: no agent payload, so the rule reads nothing and does not decide.
    expect((await edit({ ...session })).decision).toEqual({ kind: "allow" });
    const fromAgent: SessionInfo = { ...session };
    const text = JSON.stringify({ session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Edit", tool_input: { file_path: "a.txt" }, prompt_id: "p-42" });
    keepAgentPayload(fromAgent, { dialect: "claude-code", event: "PreToolUse", body: parseBody(text), text });
    expect((await edit(fromAgent)).decision).toEqual({ kind: "deny", reason: "claude-code sent prompt p-42" });
  });

  it("a message is added to the pre-step batch (never replaces it); block's reason is its feedback", async () => {
    const { evaluate } = await service(regoEntry({ points: { "pre-step": {}, "post-tool": {} } }));
    const prompt = { id: "m1", role: "user" as const, content: [{ type: "text" as const, text: "fix the build" }], source: { kind: "user" as const } };
    const step = await evaluate.evaluate("pre-step", { session, turn: 1, step: 2, messages: [prompt] }, live);
    expect(step.decision).toEqual({
      kind: "enter",
      messages: [prompt, { id: "", role: "user", content: [{ type: "text", text: "step 2: mind the tests" }], source: { kind: "plugin", name: "policy" } }],
    });
    const result = { isError: false as const, value: "AKIA...", content: [{ type: "text" as const, text: "AKIA..." }], contexts: [] };
    const post = await evaluate.evaluate("post-tool", { session, call: toolCall("Bash", { command: "env" }), result }, live);
    expect(post.decision).toEqual({
      kind: "block",
      feedback: "no secrets in output",
      additionalContexts: [{ id: "", role: "user", content: [{ type: "text", text: "the output was withheld" }], source: { kind: "plugin", name: "policy" } }],
    });
  });
});

describe("a rego plugin that fails is its failure under its failure policy, never an allow", () => {
  it("an evaluation error at a gate (fail-closed by default): a deny, cause listener_error", async () => {
    const { evaluate, events } = await service();
    const answer = await evaluate.evaluate("pre-tool", { session, call: toolCall("Conflict", {}) }, live);
    expect(answer.decision.kind).toBe("deny");
    expect(answer.decision).toMatchObject({ reason: expect.stringMatching(/^plugin policy at pre-tool: listener error: evaluating hookd\/test\/decision: /) as string });
    expect(answer.trace).toMatchObject({ decidedBy: "policy", failureCause: "listener_error" });
    expect(decisionAt(events, "pre-tool")).toMatchObject({ decision: "deny", cause: "listener_error" });
  });

  it("under fail-open the failure is passed over and still named", async () => {
    const { evaluate } = await service(regoEntry({ points: { "pre-tool": { failurePolicy: "fail-open" } } }));
    const answer = await evaluate.evaluate("pre-tool", { session, call: toolCall("Conflict", {}) }, live);
    expect(answer).toMatchObject({ decision: { kind: "allow" }, trace: { decidedBy: "default", failureCause: "listener_error" } });
  });

  it("a verb the point cannot take (allow at guard): a deny naming the rule, cause listener_error", async () => {
    const { evaluate, events } = await service();
    // Nothing decides at pre-tool, so the guards run on the allowed call.
    const answer = await evaluate.evaluate("pre-tool", { session, call: toolCall("Bash", { command: "ls" }) }, live);
    expect(answer.decision).toEqual({
      kind: "deny",
      reason: 'plugin policy at guard: listener error: rule guard-allows: decision.kind: a guard can only deny or abstain, not "allow" (failure policy of policy: fail-closed)',
    });
    expect(decisionAt(events, "guard")).toMatchObject({ decision: "deny", cause: "listener_error" });
  });
});

describe("bad input is refused naming the config key", () => {
  const refusal = async (entry: PluginConfig) => load(entry).then(() => "loaded", (error: unknown) => (error as Error).message);

  it("a file that is not gzip, a gzip that is not a tar, a bundle not built for Wasm", async () => {
    const text = join(dir, "text.tar.gz");
    writeFileSync(text, "package hookd.test\n");
    expect(await refusal(regoEntry({ bundle: text }))).toBe(`plugins.policy.bundle: ${text}: not an OPA bundle (expected the .tar.gz of \`opa build -t wasm -e ENTRYPOINT\`): not gzip data`);
    const notTar = join(dir, "not-tar.tar.gz");
    writeFileSync(notTar, gzipSync("x".repeat(2048)));
    expect(await refusal(regoEntry({ bundle: notTar }))).toBe(`plugins.policy.bundle: ${notTar}: not an OPA bundle: the gzip data is not a tar archive`);
    const plain = buildBundle(opa, dir, "plain", POLICY, ENTRYPOINT, false);
    expect(await refusal(regoEntry({ bundle: plain }))).toMatch(/^plugins\.policy\.bundle: .*plain\.tar\.gz: the bundle holds no policy\.wasm: it was not built for Wasm/);
    expect(await refusal(regoEntry({ bundle: join(dir, "absent.tar.gz") }))).toMatch(/^plugins\.policy\.bundle: .*absent\.tar\.gz: cannot be read: ENOENT/);
  });

  it("an entrypoint the bundle does not have: named, with the ones it has", async () => {
    expect(await refusal(regoEntry({ entrypoint: "hookd/test/verdict" }))).toBe(
      `plugins.policy.entrypoint: "hookd/test/verdict" is not an entrypoint of ${bundle} (it has: "hookd/test/decision"); build the bundle with \`opa build -t wasm -e hookd/test/verdict\``,
    );
  });

  it("no points, or the execute point: a config error naming the key", async () => {
    const config = (points: string) => () => parseConfig(`listeners: [{unix: /tmp/x.sock}]\nplugins:\n  - {name: policy, kind: rego, bundle: b.tar.gz, entrypoint: e${points}}\n`, "hookd.yaml", dir);
    expect(config("")).toThrow(/plugins\[0\]\.points: a rego plugin is evaluated at the points named here: name at least one/);
    expect(config(", points: {}")).toThrow(/plugins\[0\]\.points: a rego plugin is evaluated at the points named here/);
    expect(config(", points: {pre-tool: {}}")().plugins[0]).toMatchObject({ kind: "rego", bundle: join(dir, "b.tar.gz") });
    expect(await refusal(regoEntry({ points: { execute: {} } }))).toMatch(/^plugins\.policy\.points\.execute: a rego plugin cannot run at execute/);
  });
});

describe("reload", () => {
  it("a rewritten bundle is changed code (a reload loads it again); an untouched one is not", async () => {
    const copy = join(dir, "reloaded.tar.gz");
    copyFileSync(bundle, copy);
    const source = await load(regoEntry({ bundle: copy }));
    expect(source.codeChanged?.()).toBe(false);
    const next = buildBundle(opa, dir, "next", POLICY.replace("a push leaves the machine", "pushing"), ENTRYPOINT);
    copyFileSync(next, copy);
    expect(source.codeChanged?.()).toBe(true);
  });
});
