// An agent whose loop the daemon runs (the hosted loop, HookHost.Session): the agent supplies the
// model step, the tools' bodies and its user's answer to an approval; hookd runs every point in
// between (pre-step, rewrite, pre-tool, approval, guard, execute, post-tool, tool-result,
// turn-stopping) and reports each tool's final result.
import { assistantMessage, toolSuccess } from "@hookd/sdk";
import type { HostClient, ProposedToolCall, TurnEnd } from "@hookd/sdk";
import { stringArg } from "./own-loop.js";
import type { Say } from "./own-loop.js";

/** One hosted turn: the scripted model proposes `calls` at step 1 and answers "done" at step 2. */
export async function hostedTurn(client: HostClient, sessionId: string, prompt: string, calls: readonly ProposedToolCall[], approve: boolean, say: Say): Promise<TurnEnd> {
  const session = client.openSession(
    { sessionId, cwd: process.cwd(), tools: [{ name: "Bash", description: "a shell command (never run by this example)", inputSchemaJson: "", concurrencySafe: true }] },
    {
      runStep: async ({ step }) => (step === 1 ? { assistant: assistantMessage("Let me do that."), toolCalls: calls } : { assistant: assistantMessage("Done."), toolCalls: [] }),
      dispatch: async (call) => toolSuccess(`(not run) ${stringArg(call.arguments, "command")}`),
      // Asked only when a plugin said `ask` and no approval plugin resolved it.
      approve: async ({ call, reason }) => {
        say(`${call.toolName}: asked (${reason}); the user says ${approve ? "yes" : "no"}`);
        return approve ? "allowed-once" : "rejected";
      },
      onEvent: (event) => {
        if (event.type !== "tool-result") return;
        const outcome = event.result.isError ? `refused by ${event.trace.decidedBy}` : `ran (decided by ${event.trace.decidedBy})`;
        say(`${event.call.toolName} ${JSON.stringify(event.call.arguments)}: ${outcome}`);
      },
    },
  );
  try {
    await session.opened;
    return await session.followUp(prompt);
  } finally {
    await session.close();
  }
}
