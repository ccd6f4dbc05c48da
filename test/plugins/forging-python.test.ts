// A real Python gRPC plugin, run by a real `hookd serve` as a managed plugin, tries to speak as
// the user (and as another plugin) at every point where a plugin contributes messages; it also
// answers the approval point. Driven through the SDK agent client, both as a hosted loop and
// through the evaluate API: every forged message reaches the agent sourced to the plugin's
// configured name, the claimed prompt handed back unchanged keeps its user source, and approval
// approves, rejects, passes to the agent's approver, times out, and never bypasses the guards.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { assistantMessage, connectHost, snapshotJson, toolSuccess, userMessage } from "@hookd/sdk";
import type { AgentHandlers, AgentMessage, HostClient, SessionEvent, SessionInfo, ToolCall } from "@hookd/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, startDaemon } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";

const PLUGIN = "forger-configured"; // the config's name; the plugin's manifest calls itself "forger"
const PYTHON = join(REPO, ".venv/bin/python");
const PYTHONPATH = join(REPO, "sdk-python/src");
const byPlugin = { kind: "plugin", name: PLUGIN };

let daemon: DaemonProcess;
let client: HostClient;

beforeAll(async () => {
  if (!existsSync(PYTHON)) throw new Error(`${PYTHON} is missing: run \`npm run setup:polyglot\``);
  execFileSync(PYTHON, ["-c", "import grpc, grpc_health.v1.health, hookd_plugin.stubs"], { env: { ...process.env, PYTHONPATH }, stdio: "pipe" });
  daemon = await startDaemon({
    config: {
      plugins: [
        {
          name: PLUGIN,
          kind: "managed",
          command: PYTHON,
          args: [join(REPO, "test/fixtures/plugins/forging_plugin.py")],
          env: { PYTHONPATH, PYTHONUNBUFFERED: "1" },
          required: true,
          startTimeoutMs: 30_000,
        },
      ],
      limits: { approvalTimeoutMs: 300 },
    },
    timeoutMs: 40_000,
  });
  client = connectHost(daemon.target, { agentId: "agent-f" });
}, 60_000);

afterAll(async () => {
  client?.close();
  await daemon?.stop();
});

const textOf = (m: AgentMessage): string => m.content.map((b) => (b.type === "text" ? b.text : "")).join("");

interface Run {
  readonly steps: AgentMessage[][];
  readonly events: SessionEvent[];
  readonly dispatched: string[];
}

/** A hosted session whose model calls Bash with each `;`-separated command after "run:" at step 1, then stops. */
function hosted(sessionId: string, approve?: AgentHandlers["approve"]) {
  const run: Run = { steps: [], events: [], dispatched: [] };
  let prompt = "";
  const session = client.openSession(
    { sessionId, tools: [{ name: "Bash", description: "", inputSchemaJson: "", concurrencySafe: true }] },
    {
      runStep: async ({ step, messages }) => {
        run.steps.push([...messages]);
        const script = prompt.indexOf("run:");
        if (step === 1 && script >= 0) {
          const commands = prompt.slice(script + 4).split(";").map((c) => c.trim());
          return { assistant: assistantMessage("running"), toolCalls: commands.map((command, i) => ({ callId: `${sessionId}-${i + 1}`, toolName: "Bash", arguments: { command } })) };
        }
        // After the tools of a "forge" prompt: ask to be steered once, then stop.
        return { assistant: assistantMessage(run.steps.length === 2 && prompt.startsWith("forge") ? "steer-me" : "done"), toolCalls: [] };
      },
      dispatch: async (call) => {
        run.dispatched.push(String((call.arguments as { command: string }).command));
        return toolSuccess("ran", { contexts: [userMessage("a context the tool itself produced")] });
      },
      ...(approve === undefined ? {} : { approve }),
      onEvent: (event) => run.events.push(event),
    },
  );
  return {
    run,
    session,
    prompt: (text: string) => {
      prompt = text;
      return session.followUp(text);
    },
  };
}

const results = (run: Run) => run.events.flatMap((e) => (e.type === "tool-result" ? [e] : []));
const contexts = (run: Run) => run.events.flatMap((e) => (e.type === "context" ? e.messages : []));

describe("authorship through the hosted loop", () => {
  it("sources every forged message to the plugin; the claimed prompt keeps its user source", async () => {
    const agent = hosted("s-forge");
    const end = await agent.prompt("forge run: exec-answer; echo hi; block");
    expect(end.reason).toBe("completed");

    // Step 1's batch: the session-start injections, the prompt, and what pre-step enter added.
    const first = agent.run.steps[0] ?? [];
    const prompt = first.find((m) => textOf(m).startsWith("forge"));
    expect(prompt?.source).toEqual({ kind: "user" });
    const forged = first.filter((m) => m !== prompt);
    expect(forged.map(textOf).sort()).toEqual(["pre-step as someone else", "pre-step as the user", "session-start as someone else", "session-start as the user"]);
    for (const message of forged) expect(message, textOf(message)).toMatchObject({ role: "user", source: byPlugin });

    // Contexts after the batch: execute's answer and post-tool accept/block contexts are the
    // plugin's; the tool's own context (passed along by the plugin's pass) keeps its source.
    const appended = contexts(agent.run);
    const bySource = (want: string) => appended.filter((m) => textOf(m) === want).map((m) => m.source);
    expect(bySource("execute as the user")).toEqual([byPlugin]);
    // Accepted twice (the answered call and the dispatched one); the blocked call has its own.
    expect(bySource("post-tool as the user")).toEqual([byPlugin, byPlugin]);
    expect(bySource("post-tool as someone else")).toEqual([byPlugin, byPlugin]);
    expect(bySource("block as the user")).toEqual([byPlugin]);
    expect(bySource("a context the tool itself produced")).toEqual([{ kind: "user" }]);
    expect(results(agent.run).map((r) => r.result.isError)).toEqual([false, false, true]);
    expect(agent.run.dispatched).toEqual(["echo hi", "block"]);

    // The turn-stopping steer continued the turn, sourced to the plugin.
    const steered = agent.run.steps.flat().filter((m) => textOf(m) === "turn-stopping as the user");
    expect(steered.map((m) => m.source)).toEqual([byPlugin]);
    await agent.session.close();
  });
});

describe("approval through the hosted loop", () => {
  it("approves, rejects, and lets the guard deny after an approval, without asking the agent", async () => {
    const asked: string[] = [];
    const agent = hosted("s-approve", async ({ call }) => (asked.push(call.callId), "rejected"));
    await agent.prompt("run: ask-approve; ask-reject; ask-guard");
    const [approved, rejected, guarded] = results(agent.run);
    expect(approved?.result.isError).toBe(false);
    expect(approved?.trace.decidedBy).toBe(PLUGIN);
    expect(rejected?.result).toMatchObject({ isError: true, code: "denied", message: "python says no" });
    expect(rejected?.trace.decidedBy).toBe(PLUGIN);
    expect(guarded?.result).toMatchObject({ isError: true, code: "denied", message: "the guard says no" });
    expect(agent.run.dispatched).toEqual(["ask-approve"]);
    expect(asked).toEqual([]);
    await agent.session.close();
  });

  it("passes to the agent's approver when the plugin passes; no approver and no answer in time are denials that say so", async () => {
    const yes = hosted("s-agent-yes", async () => "allowed-once");
    await yes.prompt("run: ask-pass");
    expect(results(yes.run)[0]?.result.isError).toBe(false);
    expect(results(yes.run)[0]?.trace.decidedBy).toBe("approval");
    expect(yes.run.dispatched).toEqual(["ask-pass"]);

    const none = hosted("s-agent-none");
    await none.prompt("run: ask-pass");
    const [noApprover] = results(none.run);
    expect(noApprover?.result.isError && noApprover.result.message).toMatch(/the agent has no approver/);
    expect(noApprover?.result.isError && noApprover.result.message).not.toMatch(/cancelled/);

    const silent = hosted("s-agent-silent", ({ signal }) => new Promise((_, fail) => signal.addEventListener("abort", () => fail(new Error("gone")), { once: true })));
    await silent.prompt("run: ask-pass");
    const [late] = results(silent.run);
    expect(late?.result.isError && late.result.message).toMatch(/^no approval answer in time/);
    expect(silent.run.dispatched).toEqual([]);
    await Promise.all([yes.session.close(), none.session.close(), silent.session.close()]);
  });
});

describe("the evaluate API", () => {
  const session: SessionInfo = { sessionId: "eval-f", agentId: "agent-f", cwd: "/" };
  const call = (command: string): ToolCall => {
    const args = snapshotJson({ command });
    return { callId: `e-${command}`, rootCallId: `e-${command}`, toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: session.sessionId, turn: 1, step: 1 };
  };

  it("re-sources forged messages at session-start, pre-step, post-tool and turn-stopping; the prompt keeps its source", async () => {
    const started = await client.evaluateSessionStart({ session, source: "startup", tools: [] });
    expect(started.contexts.map((m) => m.source)).toEqual([byPlugin, byPlugin]);

    const prompt: AgentMessage = { id: "p1", role: "user", content: [{ type: "text", text: "forge this" }], source: { kind: "user" } };
    const step = await client.evaluatePreStep({ session, turn: 1, step: 1, messages: [prompt] });
    expect(step.decision.kind).toBe("enter");
    const entered = step.decision.kind === "enter" ? step.decision.messages : [];
    expect(entered.map((m) => m.source)).toEqual([{ kind: "user" }, byPlugin, byPlugin]);
    expect(entered[0]).toEqual(prompt);

    const reviewed = await client.evaluatePostTool({ session, call: call("echo hi"), result: toolSuccess("ok") });
    const added = reviewed.decision.kind === "accept" ? (reviewed.decision.additionalContexts ?? []) : [];
    expect(added.map((m) => m.source)).toEqual([byPlugin, byPlugin]);
    expect(reviewed.result.contexts.map((m) => m.source)).toEqual([byPlugin, byPlugin]);

    const stop = await client.evaluateTurnStopping({ session, turn: 1, step: 2, stopHookActive: false, steeredContinuations: 0, lastAssistantMessage: assistantMessage("steer-me") });
    expect(stop.decision.kind === "steer" ? stop.decision.messages.map((m) => m.source) : []).toEqual([byPlugin]);
  });

  it("EvaluateApproval answers approve, reject or pass; EvaluatePreTool with agentResolvesAsk runs approval first", async () => {
    const asking = (command: string) => ({ session, call: call(command), reason: "python asks", askedBy: PLUGIN });
    expect(await client.evaluateApproval(asking("ask-approve"))).toMatchObject({ decision: { kind: "approve" }, trace: { decidedBy: PLUGIN } });
    expect(await client.evaluateApproval(asking("ask-reject"))).toMatchObject({ decision: { kind: "reject", reason: "python says no" }, trace: { decidedBy: PLUGIN } });
    expect(await client.evaluateApproval(asking("ask-pass"))).toMatchObject({ decision: { kind: "pass" }, trace: { decidedBy: "default" } });

    const preTool = (command: string) => client.evaluatePreTool({ session, call: call(command) }, { agentResolvesAsk: true });
    expect(await preTool("ask-approve")).toMatchObject({ decision: { kind: "allow" }, trace: { decidedBy: PLUGIN } });
    expect(await preTool("ask-reject")).toMatchObject({ decision: { kind: "deny", reason: "python says no" } });
    expect(await preTool("ask-guard")).toMatchObject({ decision: { kind: "deny", reason: "the guard says no" } });
    expect(await preTool("ask-pass")).toMatchObject({ decision: { kind: "ask", reason: "python asks" } });
  });
});
