// The messages every scenario sends, built once: a pre-tool evaluation of a harmless Bash call
// (what an agent sends before each tool call), the daemon's typical answer (what the floor server
// echoes, so the floor moves the same bytes), and a post-tool evaluation for the Python example.
import { resolve } from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { pb } from "@hookd/sdk/internal";

/** The agent's working directory must exist: command hooks run in it. */
export const CWD = resolve(import.meta.dirname, "../..");

export const SESSION = { sessionId: "bench-session", agentId: "bench-agent", cwd: CWD } as const;

/** A realistic call: a shell command of a few dozen bytes, the ids an agent would use. */
export function preToolCall(callId = "toolu_01BenchCall000000000000"): MessageInitShape<typeof pb.ToolCallSchema> {
  return {
    callId,
    rootCallId: callId,
    toolName: "Bash",
    argumentsJson: JSON.stringify({ command: "ls -la src && git status --short", description: "List files and show the working tree status" }),
    sessionId: SESSION.sessionId,
    turn: 1,
    step: 1,
  };
}

export function preToolRequest(agentId: string = SESSION.agentId): pb.EvaluatePreToolRequest {
  return create(pb.EvaluatePreToolRequestSchema, {
    event: { session: { ...SESSION, agentId }, call: preToolCall() },
    agentResolvesAsk: true,
  });
}

/** What the daemon answers when a plugin allowed: the floor server sends these same bytes. */
export const PRE_TOOL_RESPONSE: pb.EvaluatePreToolResponse = create(pb.EvaluatePreToolResponseSchema, {
  decision: { decision: { case: "allow", value: {} } },
  trace: { decidedBy: "bench-policy", failureCause: "", durationUs: 512n },
});

/** What a plugin answers at pre-tool (the relay's second hop). */
export const PLUGIN_PRE_TOOL_RESPONSE: pb.PreToolResponse = create(pb.PreToolResponseSchema, {
  decision: { decision: { case: "allow", value: {} } },
});

/** A successful tool result of a few hundred bytes, with nothing to redact unless `text` has it. */
export function postToolRequest(
  text = Array.from({ length: 8 }, (_, i) => `-rw-r--r-- 1 bench bench ${1000 + i} Nov 29 20:4${i} file-${i}.ts`).join("\n"),
): pb.EvaluatePostToolRequest {
  return create(pb.EvaluatePostToolRequestSchema, {
    event: {
      session: SESSION,
      call: preToolCall(),
      result: { outcome: { case: "success", value: { valueJson: JSON.stringify(text), content: [{ block: { case: "text", value: text } }] } }, contexts: [] },
    },
  });
}

/** Encoded sizes, reported in the environment section of the results. */
export function messageSizes(): Record<string, number> {
  return {
    evaluate_pre_tool_request: toBinary(pb.EvaluatePreToolRequestSchema, preToolRequest()).byteLength,
    evaluate_pre_tool_response: toBinary(pb.EvaluatePreToolResponseSchema, PRE_TOOL_RESPONSE).byteLength,
    evaluate_post_tool_request: toBinary(pb.EvaluatePostToolRequestSchema, postToolRequest()).byteLength,
  };
}
