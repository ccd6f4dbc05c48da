// The agent-neutral view of one model request, and what a script answers with. Each wire adapter
// (anthropic.ts, openai.ts, chat-completions.ts, gemini.ts) reads its API into a Conversation
// and writes a Reply.

export interface Conversation {
  /** Tool names the request offered (empty for the agents' side requests: titles, summaries). */
  readonly tools: readonly string[];
  /** The system prompt / instructions, as text. */
  readonly system: string;
  /** Every user-role text in order (prompts, hook contexts, steering, reminders). */
  readonly userTexts: readonly string[];
  /** The text of every tool result in order (what a hook's deny reason reaches as). */
  readonly toolResults: readonly string[];
  /** Tool calls the model already made in this conversation, by name. */
  readonly toolCalls: readonly string[];
}

export type Reply =
  /** Run a shell command with the agent's own shell tool (Bash, exec_command/shell, run_shell_command, bash). */
  | { readonly kind: "shell"; readonly command: string }
  /** Call a named tool with this input as is. */
  | { readonly kind: "tool"; readonly name: string; readonly input: Record<string, unknown> }
  | { readonly kind: "text"; readonly text: string }
  /** Fail the request: this HTTP status with the wire API's own error body (an agent's API-error path, e.g. Claude Code's StopFailure). */
  | { readonly kind: "error"; readonly status: number; readonly type: string; readonly message: string };

export type Script = (conversation: Conversation) => Reply;

/** Every text of a conversation, joined: for a script that reacts to what it was told. */
export function conversationText(conversation: Conversation): string {
  return [conversation.system, ...conversation.userTexts, ...conversation.toolResults].join("\n");
}

/**
 * The usual scripted turn: the main conversation's n-th reply is steps[n] where n counts the tool
 * results it already holds, so a retried or replayed request gets the same answer; after the
 * steps, and for side requests that offer no tools, a plain text reply.
 */
export function scripted(steps: readonly Reply[], finalText = "DONE"): Script {
  return (conversation) => {
    if (conversation.tools.length === 0) return { kind: "text", text: "ok" };
    return steps[conversation.toolResults.length] ?? { kind: "text", text: finalText };
  };
}

/** The agent's shell tool among the offered ones, and its input for a command. */
export function shellCall(tools: readonly string[], command: string): { name: string; input: Record<string, unknown> } {
  if (tools.includes("Bash")) return { name: "Bash", input: { command, description: "run it" } };
  // Factory Droid's Execute refuses a call without its risk arguments.
  if (tools.includes("Execute")) return { name: "Execute", input: { command, summary: "run it", riskLevelReason: "It writes one file in the working directory.", riskLevel: "low" } };
  if (tools.includes("run_commands")) return { name: "run_commands", input: { commands: [command] } };
  if (tools.includes("run_shell_command")) return { name: "run_shell_command", input: { command } };
  if (tools.includes("exec_command")) return { name: "exec_command", input: { cmd: command } };
  if (tools.includes("shell_command")) return { name: "shell_command", input: { command } };
  if (tools.includes("bash")) return { name: "bash", input: { command, description: "run it" } };
  if (tools.includes("shell")) return { name: "shell", input: { command: ["bash", "-lc", command] } };
  throw new Error(`fake model: no shell tool among ${tools.join(", ")}`);
}
