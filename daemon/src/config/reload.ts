// What a config reload cannot apply to a running daemon: the top-level settings bound at start
// (listeners, servers, tracing, the worker pool, the state directory, the message size limit). A change to them is logged by
// the daemon and takes effect at the next restart.
import { isDeepStrictEqual } from "node:util";
import type { Config } from "./schema.js";

/** Top-level settings a reload cannot apply to a running process; a change is logged, not applied. */
export function restartOnlyChanges(current: Config, next: Config): string[] {
  const keys = ["listeners", "admin", "metrics", "console", "tracing", "http", "workers", "state"] as const;
  const changed: string[] = keys.filter((key) => !isDeepStrictEqual(current[key], next[key]));
  if (current.limits.maxMessageBytes !== next.limits.maxMessageBytes) changed.push("limits.maxMessageBytes");
  // The instance id names this process in every record it writes: it stays until the restart.
  if (current.instance.id !== next.instance.id) changed.push("instance.id");
  return changed;
}
