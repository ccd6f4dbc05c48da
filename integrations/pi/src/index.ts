// hookd's extension for pi: forwards pi's events to hookd over gRPC (the SDK's evaluate stream)
// and applies the answers the way pi takes them: tool_call returns {block, reason} to deny and
// mutates event.input to rewrite, tool_result patches the content the model gets, input is
// transformed to carry prompt and session context, agent_before_settle continues once on a
// steer. Configured by HOOKD_* variables (core/link.ts).
import { events, toolFailure, toolSuccess, userMessage } from "@hookd/sdk";
import type { AgentMessage, SessionInfo, SessionSource } from "@hookd/sdk";
import { openLink, settingsFromEnv } from "../../core/link.js";
import type { LinkSettings } from "../../core/link.js";
import { blocksText, messagesText, resultText } from "../../core/messages.js";
import { OBSERVED_EVENTS } from "./forwarded.js";
import type { ExtensionAPI, ExtensionContext, ToolCallEvent } from "./pi-types.js";

const AGENT = "pi";

const SOURCES: Readonly<Record<string, SessionSource>> = { startup: "startup", reload: "resume", new: "clear", resume: "resume", fork: "startup" };

/** Per pi session: turn and step counters, session-start contexts, the steer in progress. */
interface SessionState {
  turn: number;
  step: number;
  started: Promise<readonly AgentMessage[]>;
  contextsGiven: boolean;
  /** A stop hookd steered and pi continued: the next settle is that continuation's. */
  steered: number;
  stopActive: boolean;
}

export default function hookd(pi: ExtensionAPI): void {
  let settings: LinkSettings;
  try {
    settings = settingsFromEnv();
  } catch (error) {
    // pi would go on without an extension that failed to load: refusing is the closed default.
    refuseAll(pi, error instanceof Error ? error.message : String(error));
    return;
  }
  const link = openLink(AGENT, settings, (line) => console.error(line));
  const sessions = new Map<string, SessionState>();
  const sessionOf = (ctx: ExtensionContext): SessionInfo => link.session(ctx.sessionManager.getSessionId(), ctx.cwd);

  const stateOf = (ctx: ExtensionContext, source: SessionSource = "startup"): SessionState => {
    const session = sessionOf(ctx);
    let state = sessions.get(session.sessionId);
    if (state !== undefined) return state;
    const started = link.observe((options) => link.client.evaluateSessionStart(events.sessionStart({ session, source }), options)).then((evaluation) => evaluation?.contexts ?? []);
    state = { turn: 0, step: 0, started, contextsGiven: false, steered: 0, stopActive: false };
    sessions.set(session.sessionId, state);
    return state;
  };

  const callEvent = (ctx: ExtensionContext, toolName: string, callId: string, args: unknown) => {
    const state = stateOf(ctx);
    return events.preTool(toolName, args, { session: sessionOf(ctx), callId, turn: Math.max(state.turn, 1), step: state.step });
  };

  pi.on("session_start", async (event, ctx) => {
    stateOf(ctx, SOURCES[event.reason] ?? "startup");
  });

  pi.on("session_shutdown", async (_event, ctx) => {
    const session = sessionOf(ctx);
    sessions.delete(session.sessionId);
    await link.observe((options) => link.client.evaluateSessionEnd(events.sessionEnd({ session, reason: "closed" }), options));
    link.close();
  });

  pi.on("input", async (event, ctx) => {
    const state = stateOf(ctx);
    state.turn += 1;
    state.step = 0;
    state.stopActive = false;
    const contexts = state.contextsGiven ? [] : messagesText(await state.started);
    state.contextsGiven = true;
    const batch = [userMessage(event.text)];
    const outcome = await link.gate("the prompt", (options) => link.client.evaluatePreStep(events.preStep(batch, { session: sessionOf(ctx), turn: state.turn, step: 1 }), options));
    if (outcome.kind === "refuse") return refused(outcome.reason);
    if (outcome.kind === "answered" && outcome.answer.decision.kind === "reject") return refused(outcome.answer.decision.reason);
    const added = outcome.kind === "answered" && outcome.answer.decision.kind === "enter" ? messagesText(outcome.answer.decision.messages.slice(batch.length)) : [];
    const extra = [...contexts, ...added];
    return extra.length === 0 ? { action: "continue" } : { action: "transform", text: [event.text, ...extra].join("\n\n") };
  });

  pi.on("tool_call", async (event: ToolCallEvent, ctx) => {
    const state = stateOf(ctx);
    state.step += 1;
    const proposed = callEvent(ctx, event.toolName, event.toolCallId, event.input);
    const what = `the ${event.toolName} call`;
    const rewritten = await link.gate(what, (options) => link.client.evaluateRewrite(proposed, options));
    if (rewritten.kind === "refuse") return { block: true, reason: rewritten.reason };
    let effective = proposed;
    if (rewritten.kind === "answered") {
      if (rewritten.answer.outcome.kind === "deny") return { block: true, reason: rewritten.answer.outcome.reason };
      effective = { ...proposed, call: rewritten.answer.outcome.call };
    }
    const gate = await link.gate(what, (options) => link.client.evaluatePreTool(effective, { ...options, agentResolvesAsk: true }));
    if (gate.kind === "refuse") return { block: true, reason: gate.reason };
    if (gate.kind === "answered") {
      const { decision } = gate.answer;
      if (decision.kind === "deny") return { block: true, reason: decision.reason };
      // Headless pi has no user to ask: a call a plugin wants confirmed does not run.
      if (decision.kind === "ask") return { block: true, reason: `hookd: this call needs approval, which pi's extension does not ask for: ${decision.reason}` };
    }
    if (effective !== proposed) replaceInput(event.input, effective.call.arguments);
    return undefined;
  });

  pi.on("tool_result", async (event, ctx) => {
    const shown = blocksText(event.content.flatMap((block) => (block.type === "text" && typeof block.text === "string" ? [{ type: "text" as const, text: block.text }] : [])));
    const result = event.isError ? toolFailure(shown, { content: [{ type: "text", text: shown }] }) : toolSuccess(shown, { content: [{ type: "text", text: shown }] });
    const evaluation = await link.observe((options) => link.client.evaluatePostTool({ ...callEvent(ctx, event.toolName, event.toolCallId, event.input), result }, options));
    if (evaluation === undefined) return undefined;
    return { content: [{ type: "text", text: resultText(evaluation.result) }], isError: evaluation.result.isError };
  });

  pi.on("agent_before_settle", async (event, ctx) => {
    const state = stateOf(ctx);
    const stop = events.turnStopping({ session: sessionOf(ctx), turn: Math.max(state.turn, 1), step: state.step + 1, stopHookActive: state.stopActive, steeredContinuations: state.steered });
    const evaluation = await link.observe((options) => link.client.evaluateTurnStopping(stop, options));
    if (evaluation?.decision.kind !== "steer") return undefined;
    state.steered += 1;
    state.stopActive = true;
    // A custom message reaches the model as the user's; pi continues once with it.
    return { entries: [...event.entries, { type: "custom_message", customType: "hookd", content: messagesText(evaluation.decision.messages).join("\n\n"), display: false }], continue: true };
  });

  for (const name of OBSERVED_EVENTS) {
    pi.on(name, async (event, ctx) => {
      await link.observe((options) => link.client.evaluateAgentEvent(events.agentEvent(name, JSON.parse(JSON.stringify(event ?? {})) as unknown, { session: sessionOf(ctx), dialect: AGENT }), options));
    });
  }
}

function refused(reason: string): { readonly action: "handled" } {
  console.error(reason);
  return { action: "handled" };
}

/** An extension whose settings are wrong refuses every gate event, saying why once. */
function refuseAll(pi: ExtensionAPI, problem: string): void {
  console.error(`${problem}; every tool call and prompt is refused until it is fixed`);
  const reason = `hookd's extension is misconfigured (${problem}), so this was refused`;
  pi.on("input", async () => ({ action: "handled" }));
  pi.on("tool_call", async () => ({ block: true, reason }));
}

/** pi runs the input object it passed: the rewrite is applied to that same object. */
function replaceInput(input: Record<string, unknown>, replacement: unknown): void {
  if (typeof replacement !== "object" || replacement === null || Array.isArray(replacement)) throw new Error("hookd: a rewrite must leave the tool's input an object");
  for (const key of Object.keys(input)) delete input[key];
  Object.assign(input, replacement);
}
