// The user's prompt in a pre-step batch, as the agents' prompt events carry it.
import { messageText } from "@hookd/sdk";
import type { PreStepEvent } from "@hookd/sdk";

/** The prompt of a pre-step batch: its user-authored messages' text; undefined when there is none. */
export function promptOf(event: PreStepEvent): string | undefined {
  const texts = event.messages.filter((m) => m.role === "user" && m.source.kind === "user").map(messageText);
  return texts.length === 0 ? undefined : texts.join("\n\n");
}
