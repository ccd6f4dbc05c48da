// Which hook event one firing of a hookd point is, and what its matchers are matched against:
// session-start is SubagentStart for a subagent's session; turn-stopping is SubagentStop in a
// subagent; post-tool is PostToolUse after a success and PostToolUseFailure after a failure (a
// denial is neither, as the agents fire neither); turn-end is StopFailure only when the turn
// ended in an error, and (Codex) Interrupt when it was cancelled; pre-step is UserPromptSubmit only when the batch carries a user prompt.
// Pure; owns the mapping, not the running.
import type { EventOf } from "../../engine/listener.js";
import type { CommandPoint } from "./decide.js";
import type { Dialect } from "./dialect.js";
import { endReasonOf, promptOf } from "./payload.js";
import type { PayloadInput } from "./payload.js";

export interface Firing {
  readonly input: PayloadInput;
  /** What the event's matchers are matched against ("" when the event has no matcher). */
  readonly matchValue: string;
}

/** The firing for a point's event, or undefined when no hook event fires for it. */
export function firingOf(point: CommandPoint, data: EventOf<CommandPoint>, dialect: Dialect): Firing | undefined {
  switch (point) {
    case "session-start": {
      const event = data as EventOf<"session-start">;
      if (event.source === "subagent") return { input: { event: "SubagentStart", data: event }, matchValue: event.session.agentType ?? "" };
      return { input: { event: "SessionStart", data: event }, matchValue: event.source };
    }
    case "pre-step": {
      const event = data as EventOf<"pre-step">;
      // Only a step carrying a user prompt is a UserPromptSubmit (not a tool continuation).
      const prompt = promptOf(event);
      return prompt === undefined ? undefined : { input: { event: "UserPromptSubmit", data: event, prompt }, matchValue: "" };
    }
    case "rewrite":
    case "pre-tool": {
      const event = data as EventOf<"pre-tool">;
      return { input: { event: "PreToolUse", data: event }, matchValue: event.call.toolName };
    }
    case "approval": {
      const event = data as EventOf<"approval">;
      return { input: { event: "PermissionRequest", data: event }, matchValue: event.call.toolName };
    }
    case "post-tool": {
      const event = data as EventOf<"post-tool">;
      if (!event.result.isError) return { input: { event: "PostToolUse", data: event }, matchValue: event.call.toolName };
      if (event.result.code === "denied") return undefined;
      return { input: { event: "PostToolUseFailure", data: event }, matchValue: event.call.toolName };
    }
    case "turn-stopping": {
      const event = data as EventOf<"turn-stopping">;
      if (event.session.parentSessionId !== undefined) return { input: { event: "SubagentStop", data: event }, matchValue: event.session.agentType ?? "" };
      return { input: { event: "Stop", data: event }, matchValue: "" };
    }
    case "session-end": {
      const event = data as EventOf<"session-end">;
      return { input: { event: "SessionEnd", data: event }, matchValue: endReasonOf(dialect, event.reason) };
    }
    case "turn-end": {
      const event = data as EventOf<"turn-end">;
      if (event.outcome === "error") return { input: { event: "StopFailure", data: event }, matchValue: "unknown" };
      return event.outcome === "cancelled" && dialect === "codex" ? { input: { event: "Interrupt", data: event }, matchValue: "" } : undefined;
    }
  }
}

/** The key of one call in one session, for what a PreToolUse run hands on to later points. */
export function callKey(data: { readonly session: { readonly sessionId: string }; readonly call: { readonly callId: string } }): string {
  return `${data.session.sessionId}\u0000${data.call.callId}`;
}

/** A bounded map: the oldest entry goes first, so a call that never reaches its next point cannot leak. */
export class CallMemo<V> {
  readonly #entries = new Map<string, V>();
  constructor(readonly max = 4096) {}

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) {
      const [oldest] = this.#entries.keys();
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  /** The entry, removed. */
  take(key: string): V | undefined {
    const value = this.#entries.get(key);
    this.#entries.delete(key);
    return value;
  }
}
