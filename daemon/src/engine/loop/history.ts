// The session history: every model-visible message in the order it was recorded, each a frozen
// copy under a session-unique id. Append-only; readers get a frozen snapshot. Owns recording
// and ids at record time; knows nothing of why a message is recorded.
import type { AgentMessage } from "@hookd/sdk";
import { copyMessage } from "./messages.js";
import type { MessageIds } from "./messages.js";

export class History {
  readonly #ids: MessageIds;
  readonly #messages: AgentMessage[] = [];
  #snapshot: readonly AgentMessage[] | undefined;

  constructor(ids: MessageIds) {
    this.#ids = ids;
  }

  /** Records messages in order and returns the recorded (frozen, id-bearing) copies. */
  record(messages: readonly AgentMessage[], overrides: Partial<Pick<AgentMessage, "role" | "source">> = {}): readonly AgentMessage[] {
    const recorded = messages.map((message) => copyMessage(message, { ...overrides, id: this.#ids.forRecord(message.id) }));
    if (recorded.length > 0) {
      this.#messages.push(...recorded);
      this.#snapshot = undefined;
    }
    return Object.freeze(recorded);
  }

  /** The whole history, frozen. The same array until the next record. */
  snapshot(): readonly AgentMessage[] {
    this.#snapshot ??= Object.freeze(this.#messages.slice());
    return this.#snapshot;
  }
}
