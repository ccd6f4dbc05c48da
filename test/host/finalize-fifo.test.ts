// The hosted loop's finalize boundary, its context FIFO and session-start delivery, end to end:
// a real `hookd serve`, an in-process policy plugin, and agents on the SDK client. Finalize is
// counted per call id at the agent (one FinalizeRequest is one call of the tool's finalize).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assistantMessage, connectHost, pluginMessage, text, toolSuccess } from "@hookd/sdk";
import type { AgentMessage, AgentTool, FinalizeInput, HostClient, HostedSession, ProposedToolCall, SessionEvent, ToolCall, ToolResult } from "@hookd/sdk";
import { closeClient, createClient, pb } from "@hookd/sdk/internal";
import { startDaemon, writePluginModule } from "../support/daemon-process.js";
import type { DaemonProcess } from "../support/daemon-process.js";
import { RawSession } from "../support/raw-session.js";
import { contextTexts, toolResults } from "../support/scripted-agent.js";

const POLICY = `
import { accept, ask, block, definePlugin, deny, inject, pass, pluginMessage, abstain } from "@hookd/sdk";
const command = (e) => String(e.call.arguments.command ?? "");
export default definePlugin({
  name: "policy",
  points: {
    "session-start": (e) => inject([pluginMessage("policy", "house rules for " + e.session.sessionId)]),
    "pre-tool": (e) => {
      const c = command(e);
      if (c === "deny") return deny("denied by policy");
      if (c === "ask") return ask("needs a human");
      if (c === "throw-pre") throw new Error("pre-tool listener broke");
      return pass();
    },
    guard: (e) => (command(e) === "guard" ? deny("guarded") : abstain()),
    "post-tool": (e) => {
      const c = command(e);
      if (c === "throw-post") throw new Error("post-tool listener broke");
      if (c === "block") return block("blocked by review", [pluginMessage("policy", "blocker's context " + e.call.callId)]);
      return accept({ additionalContexts: [pluginMessage("policy", "reviewed " + e.call.callId)] });
    },
  },
});
`;

const FINALIZE_TIMEOUT_MS = 1_500;
let daemon: DaemonProcess;

beforeAll(async () => {
  const module = await writePluginModule("policy", POLICY);
  daemon = await startDaemon({
    config: { plugins: [{ name: "policy", kind: "in-process", module }], limits: { approvalTimeoutMs: 10_000, finalizeTimeoutMs: FINALIZE_TIMEOUT_MS } },
  });
});

afterAll(async () => {
  await daemon?.stop();
});

interface Agent {
  readonly client: HostClient;
  readonly session: HostedSession;
  readonly events: SessionEvent[];
  /** Every FinalizeRequest the agent answered, in order. */
  readonly finalized: FinalizeInput[];
  /** The messages of every step request, in order. */
  readonly steps: (readonly AgentMessage[])[];
  end(): Promise<void>;
}

type Finalize = NonNullable<AgentTool["finalize"]>;
type Body = (call: ToolCall, session: HostedSession) => Promise<unknown>;

const firstText = (result: ToolResult): string => (result.content[0]?.type === "text" ? result.content[0].text : "");

/** Replaces the content with a marked copy of its first text block. */
const marking: Finalize = ({ candidate }) => [text(`[final] ${firstText(candidate)}`)];

/**
 * An agent whose model calls Bash once per `;`-separated command of the prompt, then stops. The
 * Bash tool declares `finalize`; `bodies` answer by command (default: the command echoed).
 */
function openAgent(sessionId: string, options: { finalize?: Finalize; bodies?: Record<string, Body>; onEvent?: (event: SessionEvent) => void } = {}): Agent {
  const client = connectHost(daemon.target, { agentId: `agent-${sessionId}` });
  const events: SessionEvent[] = [];
  const finalized: FinalizeInput[] = [];
  const steps: (readonly AgentMessage[])[] = [];
  const finalize = options.finalize ?? marking;
  const bash: AgentTool = {
    name: "Bash",
    description: "",
    inputSchemaJson: "",
    concurrencySafe: true,
    finalize: (input) => {
      finalized.push(input);
      return finalize(input);
    },
  };
  const session: HostedSession = client.openSession(
    { sessionId, tools: [bash] },
    {
      runStep: async ({ step, messages }) => {
        steps.push(messages);
        // The prompt is the last message of a turn's first batch.
        const last = messages.at(-1)?.content[0];
        const prompt = step === 1 && last?.type === "text" ? last.text : "";
        if (!prompt.startsWith("run:")) return { assistant: assistantMessage("done"), toolCalls: [] };
        const commands = prompt.slice(4).split(";").map((c) => c.trim());
        const toolCalls: ProposedToolCall[] = commands.map((command, i) => ({ callId: `call-${i + 1}`, toolName: "Bash", arguments: { command } }));
        return { assistant: assistantMessage("running"), toolCalls };
      },
      dispatch: async (call) => {
        const command = String((call.arguments as { command?: unknown }).command);
        if (command === "tool-throws") throw new Error("the tool body broke");
        const body = options.bodies?.[command];
        return body === undefined ? toolSuccess({ ran: command }, { metadata: { ranBy: "bash" } }) : body(call, session);
      },
      approve: async () => "rejected",
      onEvent: (event) => {
        events.push(event);
        options.onEvent?.(event);
      },
    },
  );
  return {
    client,
    session,
    events,
    finalized,
    steps,
    end: async () => {
      await session.close();
      client.close();
    },
  };
}

/** How many FinalizeRequests each call id got. */
function countByCall(finalized: readonly FinalizeInput[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { call } of finalized) counts[call.callId] = (counts[call.callId] ?? 0) + 1;
  return counts;
}

describe("finalize over the hosted loop", () => {
  it("runs exactly once per call on every path: allow, deny, ask rejected, guard deny, throwing listeners, throwing tool, post-tool block", async () => {
    const agent = openAgent("fin-paths");
    const commands = ["ls", "deny", "ask", "guard", "throw-pre", "tool-throws", "block", "throw-post"];
    const end = await agent.session.followUp(`run: ${commands.join("; ")}`);
    expect(end).toMatchObject({ reason: "completed", steps: 2 });

    const ids = commands.map((_, i) => `call-${i + 1}`);
    expect(countByCall(agent.finalized)).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
    const results = toolResults(agent.events);
    expect(results.map((r) => r.call.callId)).toEqual(ids);
    // What each path normalized to, before finalize: the candidate the agent was sent.
    const candidates = new Map(agent.finalized.map((f) => [f.call.callId, f.candidate]));
    const expected: Record<string, { isError: boolean; code?: string; message?: string }> = {
      "call-1": { isError: false },
      "call-2": { isError: true, code: "denied", message: "denied by policy" },
      "call-3": { isError: true, code: "denied" },
      "call-4": { isError: true, code: "denied", message: "guarded" },
      "call-5": { isError: true, code: "listener_error" },
      "call-6": { isError: true, code: "tool_error", message: "the tool body broke" },
      "call-7": { isError: true, code: "blocked", message: "blocked by review" },
      "call-8": { isError: true, code: "listener_error" },
    };
    for (const { call, result } of results) {
      const candidate = candidates.get(call.callId);
      expect(candidate, call.callId).toMatchObject(expected[call.callId] ?? {});
      // The model sees the finalized content; everything else is the candidate's.
      expect(result.content, call.callId).toEqual([text(`[final] ${firstText(candidate as ToolResult)}`)]);
      expect({ ...result, content: [] }, call.callId).toEqual({ ...candidate, content: [] });
    }
    expect(results[0]?.result).toMatchObject({ isError: false, metadata: { ranBy: "bash" } });
    // The history (the next step's view) agrees: contexts of accepted calls, the blocker's own.
    // Denials and a thrown tool are still reviewed; listener failures bypass the review.
    const reviewed = ["call-1", "call-2", "call-3", "call-4", "call-6"].map((id) => `reviewed ${id}`);
    expect(contextTexts(agent.events)).toEqual([...reviewed, "blocker's context call-7"]);
    await agent.end();
  });

  it("keeps the candidate's content when finalize is slower than limits.finalizeTimeoutMs", async () => {
    const agent = openAgent("fin-slow", {
      // Answers only once its deadline passed: the daemon has kept the content by then.
      finalize: ({ signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve([text("too late")]), { once: true })),
    });
    await agent.session.followUp("run: ls");
    expect(agent.finalized.map((f) => [f.call.callId, f.deadlineMs])).toEqual([["call-1", FINALIZE_TIMEOUT_MS]]);
    const [result] = toolResults(agent.events);
    expect(result?.result).toEqual(agent.finalized[0]?.candidate);
    expect(firstText(result?.result as ToolResult)).toBe('{"ran":"ls"}');
    // The late answer was never sent, so the daemon reported nothing.
    expect(agent.session.problems).toEqual([]);
    await agent.end();
  });

  it("keeps the content when finalize throws, and when it answers something that is not content", async () => {
    const thrower = openAgent("fin-throws", {
      finalize: () => {
        throw new Error("finalize broke");
      },
    });
    await thrower.session.followUp("run: ls; deny");
    expect(countByCall(thrower.finalized)).toEqual({ "call-1": 1, "call-2": 1 });
    for (const { call, result } of toolResults(thrower.events)) {
      expect(result, call.callId).toEqual(thrower.finalized.find((f) => f.call.callId === call.callId)?.candidate);
    }
    await thrower.end();

    // A finalize trying to rewrite the outcome (a whole result) or answering an invalid block.
    const rewriter = openAgent("fin-unusable", {
      finalize: ({ call }) =>
        (call.callId === "call-1"
          ? { isError: true, code: "forged", name: "x", message: "forged", content: [text("forged")], contexts: [] }
          : [{ type: "bogus" }]) as unknown as readonly [],
    });
    await rewriter.session.followUp("run: ls; deny");
    const results = toolResults(rewriter.events);
    expect(results.map((r) => [r.result.isError, r.result.isError ? r.result.code : "", firstText(r.result)])).toEqual([
      [false, "", '{"ran":"ls"}'],
      [true, "denied", "Error: denied by policy"],
    ]);
    expect(rewriter.session.problems.map((p) => [p.origin, p.requestId !== undefined, p.message.includes("the content was kept")])).toEqual([
      ["agent", true, true],
      ["agent", true, true],
    ]);
    await rewriter.end();
  });

  it("reaches finalize once for a call whose turn was cancelled mid-dispatch", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const agent = openAgent("fin-cancel", {
      bodies: {
        hold: async (_call, session) => {
          await session.cancel("stop");
          await held;
          return "late";
        },
      },
    });
    const end = agent.session.followUp("run: hold");
    await expect(end).resolves.toMatchObject({ reason: "cancelled" });
    release();
    expect(countByCall(agent.finalized)).toEqual({ "call-1": 1 });
    expect(agent.finalized[0]?.candidate).toMatchObject({ isError: true, code: "cancelled" });
    await agent.end();
  });
});

describe("one context FIFO in arrival order", () => {
  it("puts an injection made while call 1 executes before call 1's contexts, then call 2's; results stay adjacent", async () => {
    const agent = openAgent("fifo", {
      bodies: {
        first: async (_call, session) => {
          await session.inject("injected during call-1");
          return "first done";
        },
      },
      finalize: () => undefined,
    });
    await agent.session.followUp("run: first; second");
    const kinds = agent.events.filter((e) => e.type === "tool-result" || e.type === "context").map((e) => e.type);
    expect(kinds).toEqual(["tool-result", "tool-result", "context"]);
    expect(contextTexts(agent.events)).toEqual(["injected during call-1", "reviewed call-1", "reviewed call-2"]);
    // The injection went into the batch's FIFO, not the continuation's batch.
    expect(agent.steps[1]).toEqual([]);
    await agent.end();
  });

  it("puts an injection made after call 1 committed (while call 2 executes) between their contexts", async () => {
    let committed!: () => void;
    const firstCommitted = new Promise<void>((resolve) => (committed = resolve));
    const agent = openAgent("fifo-between", {
      bodies: {
        second: async (_call, session) => {
          await firstCommitted; // call 1's ToolResultNotice is sent when it commits
          await session.inject("injected during call-2");
          return "second done";
        },
      },
      onEvent: (event) => {
        if (event.type === "tool-result" && event.call.callId === "call-1") committed();
      },
      finalize: () => undefined,
    });
    await agent.session.followUp("run: first; second");
    expect(contextTexts(agent.events)).toEqual(["reviewed call-1", "injected during call-2", "reviewed call-2"]);
    await agent.end();
  });

  it("keeps an accepted call's deferred contexts before its decision contexts, and only the blocker's on a block", async () => {
    const deferredContext = (call: ToolCall): Promise<unknown> =>
      Promise.resolve(toolSuccess("body", { contexts: [pluginMessage("body", `deferred ${call.callId}`)] }));
    const agent = openAgent("fifo-deferred", { bodies: { nested: deferredContext, block: deferredContext }, finalize: () => undefined });
    await agent.session.followUp("run: nested; block");
    expect(contextTexts(agent.events)).toEqual(["deferred call-1", "reviewed call-1", "blocker's context call-2"]);
    await agent.end();
  });
});

describe("session-start contexts", () => {
  it("are delivered once, at the head of the first step's batch; SessionOpened carries none", async () => {
    const agent = openAgent("start-once", { finalize: () => undefined });
    const opened = await agent.session.opened;
    expect(opened.contexts).toEqual([]);
    await agent.session.followUp("say hi");
    await agent.session.followUp("say hi again");
    const stepTexts = agent.steps.map((messages) => messages.map((m) => (m.content[0]?.type === "text" ? m.content[0].text : "")));
    expect(stepTexts).toEqual([["house rules for start-once", "say hi"], ["say hi again"]]);
    expect(agent.steps[0]?.[0]?.source).toEqual({ kind: "plugin", name: "policy" });
    await agent.end();
  });

  it("are not in the SessionOpened frame on the wire (an older SDK reading it would duplicate them)", async () => {
    const host = createClient(pb.HookHost, daemon.target);
    try {
      const raw = new RawSession(host, "raw-agent");
      await raw.open("start-raw");
      const opened = await raw.expect("opened");
      expect(opened.contexts).toEqual([]);
      await raw.send({ case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: "hello" } }] } });
      await raw.expect("turnStarted");
      const step = await raw.expect("stepRequest");
      expect(step.messages.map((m) => (m.content[0]?.block.case === "text" ? m.content[0].block.value : ""))).toEqual(["house rules for start-raw", "hello"]);
      await raw.replyStep(step.requestId);
      await raw.expect("turnEnded");
      await raw.close();
    } finally {
      closeClient(host);
    }
  });
});
