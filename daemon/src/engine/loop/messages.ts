// Message identity and sourcing for one session: every message the loop queues or records is a
// fresh, deep-frozen copy with an explicit source and a session-unique id. Owns ids and copying;
// knows nothing of queues, turns or history order.
import { deepFreeze, text } from "@hookd/sdk";
import type { AgentMessage, ContentBlock, MessageSource, Role } from "@hookd/sdk";

/** What a caller may hand the session as message content. */
export type MessageContent = string | readonly ContentBlock[];

/** Hands out ids unique within one session ("m1", "m2", ...). */
export class MessageIds {
  #next = 1;
  // Made on the first message: an idle session holds no sets (memory per session, bench/README.md).
  #used: Set<string> | undefined;
  #recorded: Set<string> | undefined;

  next(): string {
    const used = (this.#used ??= new Set());
    let id: string;
    do id = `m${this.#next++}`;
    while (used.has(id));
    used.add(id);
    return id;
  }

  /**
   * The id a message is recorded under: its own when set and not yet recorded (so a step plugin
   * listener that rewrites a message keeps its identity), otherwise a fresh one.
   */
  forRecord(id: string): string {
    const recorded = (this.#recorded ??= new Set());
    const chosen = id === "" || recorded.has(id) ? this.next() : id;
    (this.#used ??= new Set()).add(chosen);
    recorded.add(chosen);
    return chosen;
  }
}

function copyContent(content: MessageContent): readonly ContentBlock[] {
  return typeof content === "string" ? [text(content)] : content.map((block) => ({ ...block }));
}

/** A new frozen message with the given source and a fresh id. */
export function sourcedMessage(ids: MessageIds, content: MessageContent, source: MessageSource, role: Role = "user"): AgentMessage {
  return deepFreeze({ id: ids.next(), role, content: copyContent(content), source: { ...source } });
}

/** A frozen copy of a message someone else built (a plugin, the model, the tool pipeline). */
export function copyMessage(message: AgentMessage, overrides: Partial<Pick<AgentMessage, "id" | "role" | "source">> = {}): AgentMessage {
  return deepFreeze({
    id: overrides.id ?? message.id,
    role: overrides.role ?? message.role,
    content: copyContent(message.content),
    source: { ...(overrides.source ?? message.source) },
  });
}

/** A plugin's model-facing message, re-sourced to the plugin that gave it (it cannot speak as the user). */
export function pluginSourced(ids: MessageIds, plugin: string, message: AgentMessage): AgentMessage {
  return copyMessage(message, { id: ids.next(), role: "user", source: { kind: "plugin", name: plugin } });
}
