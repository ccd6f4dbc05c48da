// The hosted loop's finalize boundary: a tool the agent declared with finalizes_content is asked,
// once per call, for its final content with a FinalizeRequest. The pipeline bounds the wait
// (limits.finalizeTimeoutMs) and keeps the candidate's content on anything but usable content;
// this module only sends the request and reads the reply. A reply it cannot use is a Problem.
import { HookdError } from "@hookd/sdk";
import { fromProtoContentBlock, toProtoToolCall, toProtoToolResult } from "@hookd/sdk/internal";
import type { ContentBlock, ToolCall, ToolResult } from "@hookd/sdk";
import type { pb } from "@hookd/sdk/internal";
import type { AwaitedFinalize } from "../engine/pipeline/index.js";
import type { PendingRequests } from "./pending.js";
import type { AgentStream } from "./session-relay.js";

export interface FinalizeChannel {
  /** The stream attached now; undefined while the agent is away (the content is kept). */
  readonly stream: () => AgentStream | undefined;
  readonly pending: PendingRequests;
  readonly problem: (code: string, message: string, requestId: string) => void;
}

/** The pipeline's awaited finalize for one of the agent's tools. */
export function agentFinalize(channel: FinalizeChannel, deadlineMs: number): AwaitedFinalize {
  return { deadlineMs, run: (candidate, call, signal) => askAgent(channel, deadlineMs, candidate, call, signal) };
}

async function askAgent(channel: FinalizeChannel, deadlineMs: number, candidate: ToolResult, call: ToolCall, signal: AbortSignal): Promise<ContentBlock[] | undefined> {
  const stream = channel.stream();
  if (stream === undefined) return undefined;
  const { id, reply } = channel.pending.open<pb.FinalizeReply>("finalize", signal);
  stream.send({ case: "finalizeRequest", value: { requestId: id, call: toProtoToolCall(call), candidate: toProtoToolResult(candidate), deadlineMs } });
  const answer = await reply;
  if (answer.content === undefined) return undefined;
  const blocks: ContentBlock[] = [];
  for (const [index, block] of answer.content.blocks.entries()) {
    const converted = fromProtoContentBlock(block, `finalize_reply.content.blocks[${index}]`);
    if (!converted.ok) {
      channel.problem("INVALID_ARGUMENT", `${converted.error.message}; the content was kept`, id);
      throw new HookdError("invalid_argument", converted.error.message);
    }
    blocks.push(converted.value);
  }
  return blocks;
}
