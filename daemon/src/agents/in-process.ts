// An agent whose hooks are in-process code (OpenCode's plugins, pi's extensions): hookd ships a
// package that runs inside it and sends its events over gRPC, so the agent has an event table
// and tool kinds but no hook requests, answers or hooks file. What the contract asks for those
// refuses clearly, naming the package to use instead.
import { HookdError } from "@hookd/sdk";
import { fieldError } from "@hookd/sdk/internal";
import type { AgentDialect, EventSpec } from "./contract.js";
import type { ToolTable } from "./tool-kinds.js";

export interface InProcessAgent {
  readonly name: string;
  readonly title: string;
  /** The package in this repository that speaks for the agent (integrations/<agent>/). */
  readonly integration: string;
  /** Every event the package forwards, and the point it drives. */
  readonly events: { readonly [event: string]: EventSpec };
  readonly tools: ToolTable;
}

export function inProcessAgent(spec: InProcessAgent): AgentDialect {
  const use = `${spec.title}'s hooks are in-process code: its events reach hookd over gRPC through ${spec.integration}`;
  const noHookRequests = (): never => {
    throw fieldError("hook_event_name", `${use}, not as hook requests`);
  };
  const unreachable = (what: string) => (): never => {
    throw new Error(`${spec.name}: no ${what} (${use})`);
  };
  return {
    name: spec.name,
    title: spec.title,
    integration: spec.integration,
    readRequest: noHookRequests,
    answers: { sessionStart: noHookRequests, preStep: noHookRequests, preTool: noHookRequests, approval: noHookRequests, postTool: noHookRequests, stop: noHookRequests, notice: noHookRequests },
    fit: (answer) => ({ answer, dropped: [] }),
    forwarded: noHookRequests,
    commandHooks: {
      parse: (_value, source) => {
        throw new HookdError("invalid_plugin", `${source}: ${spec.title} has no hooks file for the command kind to run (${use})`);
      },
      events: spec.events,
      eventsAtPoint: {},
      firing: () => undefined,
      payload: unreachable("hook payloads"),
      observedPayload: unreachable("hook payloads"),
      env: () => ({}),
      interpret: unreachable("hook output"),
      applyInput: (_args, input) => input,
      reasonSeparator: "\n",
      defaultFailurePolicy: "fail-closed",
      // No hooks file: nothing of the agent's runs here to block.
      blockedWithoutReason: "",
    },
    tools: spec.tools,
  };
}
