// Which hook event one firing of a hookd point is, and what its matchers are matched against:
// session-start is SubagentStart for a subagent's session; turn-stopping is SubagentStop in a
// subagent; post-tool is PostToolUse after a success and PostToolUseFailure after a failure (a
// denial is neither, as the agents fire neither); turn-end is StopFailure only when the turn
// ended in an error, and Interrupt when it was cancelled (Codex; Claude Code 2.1.337, matched on
// who stopped it: hookd's cancelled turn was stopped by its client, "user"); pre-step is UserPromptSubmit
// only when the batch carries a user prompt. Pure; owns the mapping, not the running.
import type { EventOf } from "../../engine/listener.js";
import type { CommandPoint, Firing } from "../contract.js";
import { promptOf } from "../prompt.js";
import type { PayloadFacts } from "./payload.js";

/** Where the agents that fire Claude Code's events differ. */
export interface FiringFacts {
  readonly payload: PayloadFacts;
  /** A cancelled turn fires Interrupt (Codex, Claude Code). */
  readonly interruptOnCancel: boolean;
}

/** The firing for a point's event, or undefined when no hook event fires for it. */
export function claudeFiring(facts: FiringFacts, point: CommandPoint, data: unknown): Firing | undefined {
  switch (point) {
    case "session-start": {
      const event = data as EventOf<"session-start">;
      if (event.source === "subagent") return { event: "SubagentStart", data: event, matchValue: event.session.agentType ?? "" };
      return { event: "SessionStart", data: event, matchValue: event.source };
    }
    case "pre-step": {
      const event = data as EventOf<"pre-step">;
      // Only a step carrying a user prompt is a UserPromptSubmit (not a tool continuation).
      const prompt = promptOf(event);
      return prompt === undefined ? undefined : { event: "UserPromptSubmit", data: event, prompt, matchValue: "" };
    }
    case "rewrite":
    case "pre-tool": {
      const event = data as EventOf<"pre-tool">;
      return { event: "PreToolUse", data: event, matchValue: event.call.toolName };
    }
    case "approval": {
      const event = data as EventOf<"approval">;
      return { event: "PermissionRequest", data: event, matchValue: event.call.toolName };
    }
    case "post-tool": {
      const event = data as EventOf<"post-tool">;
      if (!event.result.isError) return { event: "PostToolUse", data: event, matchValue: event.call.toolName };
      if (event.result.code === "denied") return undefined;
      return { event: "PostToolUseFailure", data: event, matchValue: event.call.toolName };
    }
    case "turn-stopping": {
      const event = data as EventOf<"turn-stopping">;
      if (event.session.parentSessionId !== undefined) return { event: "SubagentStop", data: event, matchValue: event.session.agentType ?? "" };
      return { event: "Stop", data: event, matchValue: "" };
    }
    case "session-end": {
      const event = data as EventOf<"session-end">;
      return { event: "SessionEnd", data: event, matchValue: facts.payload.endReason(event.reason) };
    }
    case "turn-end": {
      const event = data as EventOf<"turn-end">;
      if (event.outcome === "error") return { event: "StopFailure", data: event, matchValue: "unknown" };
      return event.outcome === "cancelled" && facts.interruptOnCancel ? { event: "Interrupt", data: event, matchValue: "user" } : undefined;
    }
  }
}

