// Which hook event one firing of a hookd point is, for any agent, from the names its event table
// gives, and what its matchers are matched against: session-start is the subagent start event in a
// subagent's session; post-tool is the success or the failure event (a denial is neither: the
// agents fire nothing for a call that never ran); turn-stopping is the subagent stop event in a
// subagent; turn-end fires only for a failed turn, or a cancelled one where the agent has an event
// for it (Codex, Claude Code 2.1.337: Interrupt); pre-step only when the batch carries a user prompt. Pure; owns the mapping, not the running.
import type { SessionEndReason } from "@hookd/sdk";
import type { EventOf } from "../engine/listener.js";
import type { CommandPoint, Firing } from "./contract.js";
import { promptOf } from "./prompt.js";

/** An agent's event names for hookd's points; an absent one is an event the agent does not have. */
export interface FiringNames {
  readonly sessionStart: string;
  readonly subagentStart?: string;
  readonly prompt: string;
  readonly tool: string;
  readonly approval?: string;
  readonly postTool: string;
  readonly postToolFailure: string;
  readonly stop: string;
  readonly subagentStop?: string;
  readonly sessionEnd: string;
  /** What a session-end matcher is matched against, for hookd's reason. */
  readonly endReason: (reason: SessionEndReason) => string;
  readonly stopFailure?: string;
  readonly interrupt?: string;
}

/** The firing for a point's event, or undefined when no hook event fires for it. */
export function firingOf(names: FiringNames, point: CommandPoint, data: unknown): Firing | undefined {
  switch (point) {
    case "session-start": {
      const event = data as EventOf<"session-start">;
      if (event.source === "subagent" && names.subagentStart !== undefined) return { event: names.subagentStart, data: event, matchValue: event.session.agentType ?? "" };
      return { event: names.sessionStart, data: event, matchValue: event.source };
    }
    case "pre-step": {
      const prompt = promptOf(data as EventOf<"pre-step">);
      return prompt === undefined ? undefined : { event: names.prompt, data, prompt, matchValue: "" };
    }
    case "rewrite":
    case "pre-tool":
      return { event: names.tool, data, matchValue: (data as EventOf<"pre-tool">).call.toolName };
    case "approval":
      return names.approval === undefined ? undefined : { event: names.approval, data, matchValue: (data as EventOf<"approval">).call.toolName };
    case "post-tool": {
      const { call, result } = data as EventOf<"post-tool">;
      if (result.isError && result.code === "denied") return undefined;
      return { event: result.isError ? names.postToolFailure : names.postTool, data, matchValue: call.toolName };
    }
    case "turn-stopping": {
      const { session } = data as EventOf<"turn-stopping">;
      if (session.parentSessionId !== undefined && names.subagentStop !== undefined) return { event: names.subagentStop, data, matchValue: session.agentType ?? "" };
      return { event: names.stop, data, matchValue: "" };
    }
    case "session-end":
      return { event: names.sessionEnd, data, matchValue: names.endReason((data as EventOf<"session-end">).reason) };
    case "turn-end": {
      const { outcome } = data as EventOf<"turn-end">;
      if (outcome === "error") return names.stopFailure === undefined ? undefined : { event: names.stopFailure, data, matchValue: "unknown" };
      // hookd's cancelled turn was stopped by its client: "user", what an Interrupt matcher on `source` sees.
      return outcome === "cancelled" && names.interrupt !== undefined ? { event: names.interrupt, data, matchValue: "user" } : undefined;
    }
  }
}
