// hookd's plugin for OpenCode: forwards OpenCode's events to hookd over gRPC (the SDK's evaluate
// stream) and applies the answers the way OpenCode takes them: a throw in tool.execute.before
// denies (its text is the tool result the model gets), mutating args rewrites, the tool's output
// and the prompt's text carry plugins' context. Configured by HOOKD_* variables (core/link.ts).
import { events, toolSuccess, userMessage } from "@hookd/sdk";
import type { AgentMessage, ToolCallEvent } from "@hookd/sdk";
import { openLink, settingsFromEnv } from "../../core/link.js";
import type { LinkSettings } from "../../core/link.js";
import { messagesText, resultText } from "../../core/messages.js";
import type { BusEvent, Hooks, Part, Plugin, TextPart } from "./opencode-types.js";
import { observedEvent, sessionOf } from "./forwarded.js";

const AGENT = "opencode";

/** Per OpenCode session: its turn and step counters, and its session-start contexts once known. */
interface SessionState {
  turn: number;
  step: number;
  readonly started: Promise<readonly AgentMessage[]>;
  /** The session-start contexts are given to the model with the first prompt only. */
  contextsGiven: boolean;
}

export const HookdPlugin: Plugin = async ({ directory }) => {
  let settings: LinkSettings;
  try {
    settings = settingsFromEnv();
  } catch (error) {
    // OpenCode would go on without a plugin that failed to load: refusing is the closed default.
    return refusingHooks(error instanceof Error ? error.message : String(error));
  }
  const link = openLink(AGENT, settings, (line) => console.error(line));
  const sessions = new Map<string, SessionState>();

  const start = (sessionId: string, parentSessionId?: string): SessionState => {
    let state = sessions.get(sessionId);
    if (state !== undefined) return state;
    const session = { ...link.session(sessionId, directory), ...(parentSessionId === undefined ? {} : { parentSessionId }) };
    const started = link
      .observe((options) => link.client.evaluateSessionStart(events.sessionStart({ session, source: parentSessionId === undefined ? "startup" : "subagent" }), options))
      .then((evaluation) => evaluation?.contexts ?? []);
    state = { turn: 0, step: 0, started, contextsGiven: false };
    sessions.set(sessionId, state);
    return state;
  };

  const callEvent = (tool: string, sessionId: string, callId: string, args: unknown): ToolCallEvent => {
    const state = start(sessionId);
    return events.preTool(tool, args, { session: link.session(sessionId, directory), callId, turn: Math.max(state.turn, 1), step: state.step });
  };

  const hooks: Hooks = {
    event: async ({ event }) => onBusEvent(event),
    "chat.message": async ({ sessionID }, output) => {
      const state = start(sessionID);
      state.turn += 1;
      state.step = 0;
      const prompt = firstText(output.parts);
      const contexts = state.contextsGiven ? [] : messagesText(await state.started);
      state.contextsGiven = true;
      const session = link.session(sessionID, directory);
      const batch = [userMessage(prompt?.text ?? "")];
      const outcome = await link.gate("the prompt", (options) => link.client.evaluatePreStep(events.preStep(batch, { session, turn: state.turn, step: 1 }), options));
      if (outcome.kind === "refuse") throw new Error(outcome.reason);
      if (outcome.kind === "answered" && outcome.answer.decision.kind === "reject") throw new Error(outcome.answer.decision.reason);
      const added = outcome.kind === "answered" && outcome.answer.decision.kind === "enter" ? messagesText(outcome.answer.decision.messages.slice(batch.length)) : [];
      const extra = [...contexts, ...added];
      if (extra.length === 0) return;
      // OpenCode sends the parts as the user's message: the contexts ride along in its text.
      if (prompt !== undefined) prompt.text = [prompt.text, ...extra].join("\n\n");
    },
    "tool.execute.before": async ({ tool, sessionID, callID }, output) => {
      const state = start(sessionID);
      state.step += 1;
      const proposed = callEvent(tool, sessionID, callID, output.args);
      const rewritten = await link.gate(`the ${tool} call`, (options) => link.client.evaluateRewrite(proposed, options));
      if (rewritten.kind === "refuse") throw new Error(rewritten.reason);
      let effective = proposed;
      if (rewritten.kind === "answered") {
        if (rewritten.answer.outcome.kind === "deny") throw new Error(rewritten.answer.outcome.reason);
        effective = { ...proposed, call: rewritten.answer.outcome.call };
      }
      const gate = await link.gate(`the ${tool} call`, (options) => link.client.evaluatePreTool(effective, { ...options, agentResolvesAsk: true }));
      if (gate.kind === "refuse") throw new Error(gate.reason);
      if (gate.kind === "answered") {
        const { decision } = gate.answer;
        if (decision.kind === "deny") throw new Error(decision.reason);
        // OpenCode's plugins cannot ask its user: a call a plugin wants confirmed does not run.
        if (decision.kind === "ask") throw new Error(`hookd: this call needs approval, which OpenCode's plugins cannot ask for: ${decision.reason}`);
      }
      if (effective !== proposed) replaceArgs(output.args, effective.call.arguments);
    },
    "tool.execute.after": async ({ tool, sessionID, callID, args }, output) => {
      const event = { ...callEvent(tool, sessionID, callID, args ?? {}), result: toolSuccess(output.output, { content: [{ type: "text", text: output.output }] }) };
      const evaluation = await link.observe((options) => link.client.evaluatePostTool(event, options));
      if (evaluation !== undefined) output.output = resultText(evaluation.result);
    },
  };

  const onBusEvent = async (event: BusEvent): Promise<void> => {
    const sessionId = sessionOf(event);
    if (event.type === "session.created") {
      const info = event.properties.info as { readonly id?: unknown; readonly parentID?: unknown } | undefined;
      if (typeof info?.id === "string") start(info.id, typeof info.parentID === "string" ? info.parentID : undefined);
      return;
    }
    if (sessionId === undefined || !observedEvent(event.type)) return;
    const session = link.session(sessionId, directory);
    if (event.type === "session.deleted") {
      sessions.delete(sessionId);
      await link.observe((options) => link.client.evaluateSessionEnd(events.sessionEnd({ session, reason: "closed" }), options));
      return;
    }
    await link.observe((options) => link.client.evaluateAgentEvent(events.agentEvent(event.type, event.properties, { session, dialect: AGENT }), options));
  };

  return hooks;
};

/** A plugin whose settings are wrong refuses every gate event, saying why once. */
function refusingHooks(problem: string): Hooks {
  console.error(`${problem}; every tool call and prompt is refused until it is fixed`);
  const refuse = async (): Promise<void> => {
    throw new Error(`hookd's plugin is misconfigured (${problem}), so this was refused`);
  };
  return { "chat.message": refuse, "tool.execute.before": refuse };
}

function firstText(parts: readonly Part[]): TextPart | undefined {
  return parts.find((part): part is TextPart => part.type === "text" && (part as TextPart).synthetic !== true);
}

/** OpenCode runs the args object it passed: the rewrite is applied to that same object. */
function replaceArgs(args: Record<string, unknown>, replacement: unknown): void {
  if (typeof replacement !== "object" || replacement === null || Array.isArray(replacement)) throw new Error("hookd: a rewrite must leave the tool's arguments an object");
  for (const key of Object.keys(args)) delete args[key];
  Object.assign(args, replacement);
}
