// A hookd event to the stdin JSON of a GitHub Copilot CLI command hook, as Copilot 1.0 writes it:
// camelCase, no event name, the time in epoch milliseconds (sessionId, timestamp, cwd), then the
// event's own fields (source, reason, prompt, toolName/toolArgs, toolResult {resultType,
// textResultForLlm}, permissionRequest's hookName/toolInput, agentStop's transcriptPath,
// stopReason and stop_hook_active). Tool arguments are written losslessly. Owns the wire shape only.
import { toJsonText } from "@hookd/sdk";
import type { AgentEventEvent, JsonValue, SessionInfo, ToolCall } from "@hookd/sdk";
import { contentText } from "../answer-text.js";
import { isObject } from "../body.js";
import type { CommandPoint, Firing, PayloadExtras } from "../contract.js";
import type { EventOf } from "../../engine/listener.js";
import { promptOf } from "../prompt.js";

/** hookd's session-start sources in Copilot's words. */
const SOURCE: Readonly<Record<string, string>> = { startup: "new", resume: "resume", clear: "new", compact: "resume", subagent: "new" };

/** The firing for a point's event, or undefined when Copilot fires no hook event for it. */
export function copilotFiring(point: CommandPoint, data: unknown): Firing | undefined {
  switch (point) {
    case "session-start":
      return (data as EventOf<"session-start">).source === "subagent" ? undefined : { event: "sessionStart", data, matchValue: "" };
    case "session-end":
      return { event: "sessionEnd", data, matchValue: "" };
    case "pre-step": {
      const prompt = promptOf(data as EventOf<"pre-step">);
      return prompt === undefined ? undefined : { event: "userPromptSubmitted", data, prompt, matchValue: "" };
    }
    case "rewrite":
    case "pre-tool":
      return { event: "preToolUse", data, matchValue: (data as EventOf<"pre-tool">).call.toolName };
    case "approval":
      return { event: "permissionRequest", data, matchValue: (data as EventOf<"approval">).call.toolName };
    case "post-tool": {
      const post = data as EventOf<"post-tool">;
      // A call a hook denied never ran: Copilot fires neither event for it.
      if (post.result.isError && post.result.code === "denied") return undefined;
      return { event: post.result.isError ? "postToolUseFailure" : "postToolUse", data: post, matchValue: post.call.toolName };
    }
    case "turn-stopping":
      return (data as EventOf<"turn-stopping">).session.parentSessionId === undefined ? { event: "agentStop", data, matchValue: "" } : undefined;
    case "turn-end":
      return undefined;
  }
}

const tool = (call: ToolCall): Record<string, JsonValue> => ({ toolName: call.toolName, toolArgs: call.arguments });

function eventFields(firing: Firing, extras: PayloadExtras): Record<string, JsonValue> {
  switch (firing.event) {
    case "sessionStart":
      return { source: SOURCE[(firing.data as EventOf<"session-start">).source] ?? "new" };
    case "sessionEnd":
      return { reason: "complete" };
    case "userPromptSubmitted":
      return { prompt: firing.prompt ?? "" };
    case "preToolUse":
      return tool((firing.data as EventOf<"pre-tool">).call);
    case "permissionRequest": {
      const { call } = firing.data as EventOf<"approval">;
      return { hookName: "permissionRequest", toolName: call.toolName, toolInput: call.arguments, permissionSuggestions: [] };
    }
    case "postToolUse": {
      const { call, result } = firing.data as EventOf<"post-tool">;
      const text = !result.isError && typeof result.value === "string" ? result.value : contentText(result.content);
      return { ...tool(call), toolResult: { resultType: "success", textResultForLlm: text } };
    }
    case "postToolUseFailure": {
      const { call, result } = firing.data as EventOf<"post-tool">;
      return { ...tool(call), error: result.isError ? result.message : contentText(result.content) };
    }
    case "agentStop":
      return { transcriptPath: extras.transcriptPath ?? "", stopReason: "end_turn", stop_hook_active: (firing.data as EventOf<"turn-stopping">).stopHookActive };
    default:
      return {};
  }
}

const common = (session: SessionInfo, now: Date): Record<string, JsonValue> => ({ sessionId: session.sessionId, timestamp: now.getTime(), cwd: session.cwd });

export function buildCopilotPayload(firing: Firing, extras: PayloadExtras = {}, now: Date = new Date()): string {
  const { session } = firing.data as { session: SessionInfo };
  return toJsonText({ ...common(session, now), ...eventFields(firing, extras) }, "payload");
}

/** An observed event's stdin text: Copilot's common fields, then its payload (which wins). */
export function copilotObservedPayload(event: AgentEventEvent, _extras: PayloadExtras, now: Date = new Date()): string {
  return toJsonText({ ...common(event.session, now), ...(isObject(event.payload) ? event.payload : {}) }, "payload");
}
