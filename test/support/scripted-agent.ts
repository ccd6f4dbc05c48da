// A scripted agent for end-to-end tests: its "model" answers each step from a script keyed by the
// prompt text and step number, its tools answer from a table, and every event the daemon sends
// is recorded in order so tests can assert on sequence and isolation.
import { assistantMessage, connectHost } from "@hookd/sdk";
import type { AgentHandlers, HostClient, HostedSession, OpenSessionOptions, ProposedToolCall, SessionEvent, ToolCall, TurnEnd } from "@hookd/sdk";

export interface ScriptedStep {
  /** What the model says; turn-stopping plugins read it. */
  readonly say: string;
  readonly calls?: readonly ProposedToolCall[];
}

/** A model: given the turn's prompt and the step number, what it says and calls (possibly later). */
export type Script = (prompt: string, step: number) => ScriptedStep | Promise<ScriptedStep>;

export interface ScriptedAgent {
  readonly client: HostClient;
  readonly session: HostedSession;
  readonly events: SessionEvent[];
  readonly dispatched: ToolCall[];
  /** Prompt text of each turn, by turn number. */
  readonly prompts: Map<number, string>;
  /** Sends a follow-up; the scripted model answers its turn by this text. */
  prompt(text: string): Promise<TurnEnd>;
}

export interface AgentOptions {
  readonly target: string;
  readonly agentId: string;
  readonly session: Partial<OpenSessionOptions> & { readonly sessionId: string };
  readonly script: Script;
  /** Tool bodies by tool name; default: the command echoed back. */
  readonly tools?: Record<string, (call: ToolCall, signal: AbortSignal) => Promise<unknown>>;
  readonly approve?: AgentHandlers["approve"];
  readonly client?: HostClient;
}

export function openScriptedAgent(options: AgentOptions): ScriptedAgent {
  const client = options.client ?? connectHost(options.target, { agentId: options.agentId });
  const events: SessionEvent[] = [];
  const dispatched: ToolCall[] = [];
  const prompts = new Map<number, string>();
  // Every follow-up gets a turn, in order: bind each prompt to its turn when the turn starts.
  const queue: string[] = [];
  const session = client.openSession(
    { tools: [{ name: "Bash", description: "", inputSchemaJson: "", concurrencySafe: true }, { name: "Slow", description: "", inputSchemaJson: "", concurrencySafe: false }], ...options.session },
    {
      runStep: async ({ turn, step }) => {
        const scripted = await options.script(prompts.get(turn) ?? "", step);
        return { assistant: assistantMessage(scripted.say), toolCalls: scripted.calls ?? [] };
      },
      dispatch: async (call, signal) => {
        dispatched.push(call);
        const body = options.tools?.[call.toolName];
        return body ? body(call, signal) : { echoed: call.arguments };
      },
      ...(options.approve ? { approve: options.approve } : {}),
      onEvent: (event) => {
        if (event.type === "turn-started") prompts.set(event.turn, queue.shift() ?? "");
        events.push(event);
      },
    },
  );
  const prompt = (text: string): Promise<TurnEnd> => {
    queue.push(text);
    return session.followUp(text);
  };
  return { client, session, events, dispatched, prompts, prompt };
}

/** The tool-result events of a session, in order. */
export function toolResults(events: readonly SessionEvent[]): Extract<SessionEvent, { type: "tool-result" }>[] {
  return events.filter((e): e is Extract<SessionEvent, { type: "tool-result" }> => e.type === "tool-result");
}

/** The text of every context message the session received, in order. */
export function contextTexts(events: readonly SessionEvent[]): string[] {
  return events.flatMap((e) => (e.type === "context" ? e.messages.flatMap((m) => m.content.flatMap((b) => (b.type === "text" ? [b.text] : []))) : []));
}
