// What the differential scenarios share: a hooks-file command entry, and the fake model's side of
// a conversation (Claude Code's Write tool takes absolute paths, so some replies need the cwd).
import { join } from "node:path";
import { conversationText } from "../fake-model/server.js";
import type { Conversation, Reply, Script } from "../fake-model/server.js";

export const command = (line: string, timeout?: number): Record<string, unknown> => ({ type: "command", command: line, ...(timeout === undefined ? {} : { timeout }) });
export const text = (reply: string): Reply => ({ kind: "text", text: reply });
export const shell = (line: string): Reply => ({ kind: "shell", command: line });

/** The agent's cwd as Claude Code tells the model (its Write tool takes absolute paths). */
export function cwdOf(conversation: Conversation): string {
  const found = /Primary working directory: (\S+)/.exec(conversationText(conversation));
  if (found?.[1] === undefined) throw new Error("fake model: Claude Code did not say its working directory");
  return found[1];
}

/** A script whose n-th main reply is steps[n](conversation): for steps that need the cwd. */
export function steps(...replies: ((conversation: Conversation) => Reply)[]): Script {
  return (conversation) => {
    if (conversation.tools.length === 0) return text("ok");
    return replies[conversation.toolResults.length]?.(conversation) ?? text("DONE");
  };
}

export const write = (name: string, content: string) => (conversation: Conversation): Reply => ({ kind: "tool", name: "Write", input: { file_path: join(cwdOf(conversation), name), content } });

