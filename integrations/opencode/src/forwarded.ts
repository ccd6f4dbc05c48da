// What of OpenCode reaches hookd: the plugin hooks this plugin implements, which bus events it
// forwards (the `event` hook sees every one, most of them streaming updates nobody guards on),
// and the session an event belongs to. Kept out of index.ts: OpenCode calls every export there.
import type { BusEvent } from "./opencode-types.js";

/** The plugin hooks the plugin implements, besides `event`. */
export const PLUGIN_HOOKS: readonly string[] = ["chat.message", "tool.execute.before", "tool.execute.after"];

/** session.created drives session-start and session.deleted session-end; the rest are observed as they are. */
export const FORWARDED_BUS_EVENTS: readonly string[] = [
  "session.created",
  "session.deleted",
  "session.idle",
  "session.error",
  "session.compacted",
  "permission.asked",
  "permission.replied",
  "file.edited",
  "command.executed",
  "todo.updated",
];

const FORWARDED = new Set(FORWARDED_BUS_EVENTS);

export const observedEvent = (type: string): boolean => FORWARDED.has(type);

/** The event's session id: `sessionID`, or `info.id` for the session.* events that carry the session. */
export function sessionOf(event: BusEvent): string | undefined {
  const { sessionID, info } = event.properties as { readonly sessionID?: unknown; readonly info?: { readonly id?: unknown } };
  if (typeof sessionID === "string") return sessionID;
  return typeof info?.id === "string" ? info.id : undefined;
}
