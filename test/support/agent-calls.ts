// Evaluate calls a test makes as a named agent over a daemon's HookHost (its id in
// x-hookd-agent, its own session), for tests of what the daemon admits per agent.
import type { TypedClient, pb } from "@hookd/sdk/internal";

/** EvaluatePreTool for a Bash call of `command`, as `agent` in its session `<agent>-s`. */
export function preToolAs(host: TypedClient<typeof pb.HookHost>, agent: string, callId: string, command: string) {
  return host.evaluatePreTool(
    {
      event: {
        session: { sessionId: `${agent}-s`, agentId: agent, cwd: "/" },
        call: { callId, rootCallId: callId, toolName: "Bash", argumentsJson: JSON.stringify({ command }), sessionId: `${agent}-s`, turn: 1, step: 1 },
      },
    },
    { metadata: { "x-hookd-agent": agent }, timeoutMs: 30_000 },
  );
}
