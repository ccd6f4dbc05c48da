// decideToolPolicy with RETURN_ASK (agents that resolve asks themselves): the ask comes back after
// the guards had their say, and no approval is recorded, since nobody has approved yet.
import { abstain, ask, definePlugin, deny, snapshotJson } from "@hookd/sdk";
import type { ToolCall } from "@hookd/sdk";
import { describe, expect, it } from "vitest";
import { EventBus } from "../src/engine/events.js";
import type { EngineEvent } from "../src/engine/events.js";
import { inProcessListeners } from "../src/plugins/in-process/listeners.js";
import { RETURN_ASK, decideToolPolicy } from "../src/engine/pipeline/index.js";
import { PluginRegistry } from "../src/engine/registry.js";

const session = { sessionId: "s", agentId: "a", cwd: "/" };

function call(command: string): ToolCall {
  const args = snapshotJson({ command });
  return { callId: "c1", rootCallId: "c1", toolName: "Bash", arguments: args.value, argumentsJson: args.text, sessionId: "s", turn: 1, step: 1 };
}

async function decide(command: string) {
  const plugin = definePlugin({
    name: "p",
    points: {
      "pre-tool": () => ask("sudo needs a human"),
      guard: (event) => (String((event.call.arguments as { command: string }).command).includes("rm") ? deny("never rm") : abstain()),
    },
  });
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const env = { registry: new PluginRegistry(inProcessListeners(plugin)), bus, signal: new AbortController().signal, scope: { sessionId: "s", agentId: "a", turn: 1, step: 1 } };
  return { verdict: await decideToolPolicy(env, session, call(command), RETURN_ASK), events };
}

describe("decideToolPolicy with RETURN_ASK", () => {
  it("returns the ask when no guard denies, recording no approval", async () => {
    const { verdict, events } = await decide("sudo ls");
    expect(verdict).toEqual({ kind: "ask", decidedBy: "p", reason: "sudo needs a human", trace: { decidedBy: "p", durationUs: expect.any(Number) as unknown } });
    expect(events.some((e) => e.type === "decision" && e.decidedBy === "approval")).toBe(false);
  });

  it("lets a guard deny before the ask goes back to the agent", async () => {
    const { verdict } = await decide("sudo rm -rf /");
    expect(verdict).toMatchObject({ kind: "deny", phase: "guard", reason: "never rm" });
  });
});
