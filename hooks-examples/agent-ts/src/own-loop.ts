// An agent that keeps its own loop and asks hookd at each point (the evaluate calls): before a
// tool runs (pre-tool), after it ran (post-tool, whose result replaces the tool's), and when the
// turn wants to stop (turn-stopping). The "model" is a script; the tools are two harmless
// functions. Every event comes from the SDK's builders, so no id, turn or step is assembled here.
import { events, toolFailure, toolSuccess } from "@hookd/sdk";
import type { HostClient, SessionInfo, ToolCall, ToolResult } from "@hookd/sdk";

/** What the agent printed, one line per decision, so a person (or a test) can follow it. */
export type Say = (line: string) => void;

/** A tool call the scripted model proposes. */
export interface ProposedCall {
  readonly toolName: string;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** Asks the agent's user about a call a plugin wants confirmed; true runs it. */
export type AskUser = (call: ToolCall, question: string) => Promise<boolean>;

/** A success whose text is what the model sees (an agent with its own loop builds that itself). */
const said = (text: string): ToolResult => toolSuccess(text, { content: [{ type: "text", text }] });

/** A string argument's value, or "" (the model may send anything). */
export function stringArg(args: unknown, name: string): string {
  const value = typeof args === "object" && args !== null ? (args as Readonly<Record<string, unknown>>)[name] : undefined;
  return typeof value === "string" ? value : "";
}

const TOOLS: Readonly<Record<string, (args: Readonly<Record<string, unknown>>) => ToolResult>> = {
  echo: (args) => said(stringArg(args, "text")),
  Bash: (args) => said(`(not run: this example never executes commands) ${stringArg(args, "command")}`),
};

/**
 * One turn of `proposed` calls through hookd, as an agent with its own loop runs it. With
 * `agentResolvesAsk`, a plugin's `ask` comes back to the agent, which asks its own user (here
 * `askUser`); without it, the daemon would ask through a hosted session's approval channel, which
 * an agent with its own loop does not have.
 */
export async function runTurn(client: HostClient, session: SessionInfo, turn: number, proposed: readonly ProposedCall[], askUser: AskUser, say: Say): Promise<void> {
  for (const [index, { toolName, arguments: args }] of proposed.entries()) {
    const event = events.preTool(toolName, args, { session, turn, step: index + 1 });
    const { decision, trace } = await client.evaluatePreTool(event, { agentResolvesAsk: true });
    let result: ToolResult;
    if (decision.kind === "deny") {
      say(`${toolName}: denied by ${trace.decidedBy}: ${decision.reason}`);
      result = toolFailure(decision.reason, { code: "denied" });
    } else if (decision.kind === "ask" && !(await askUser(event.call, decision.reason))) {
      say(`${toolName}: asked (${decision.reason}); the user said no`);
      result = toolFailure(`the user declined: ${decision.reason}`, { code: "denied" });
    } else {
      say(`${toolName}: ${decision.kind === "ask" ? "asked; the user said yes" : `allowed by ${trace.decidedBy}`}`);
      result = (TOOLS[toolName] ?? (() => toolFailure(`no tool ${toolName}`, { code: "unknown_tool" })))(args);
    }
    // post-tool may replace what the model sees (a redaction, a block): the model gets `after`.
    const { result: after } = await client.evaluatePostTool({ ...event, result });
    say(`  the model sees: ${text(after)}`);
  }
  const stop = await client.evaluateTurnStopping(events.turnStopping({ session, turn, step: proposed.length + 1 }));
  say(`turn ${turn}: ${stop.decision.kind === "steer" ? "a plugin steered it on" : "stops"}`);
}

function text(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : JSON.stringify(block))).join(" ");
}
