// Which plugins' allow may bypass an agent's own permission rules over the agents' hooks: each
// entry's effective `bypassAgentPermissions`. Read from the config in force at each call, so a
// reload that changes an entry applies to the next hook.
import type { Config } from "./schema.js";

type PluginEntry = Config["plugins"][number];

/**
 * The entry's own value, else its kind's default: a `command` plugin's hooks were written for the
 * agent, so their allow means what it means there (the prompt is skipped); every other kind's
 * allow leaves the agent's rules in charge.
 */
export function bypassesByDefault(entry: Pick<PluginEntry, "kind" | "bypassAgentPermissions">): boolean {
  return entry.bypassAgentPermissions ?? entry.kind === "command";
}

export function agentPermissionBypass(config: () => Pick<Config, "plugins">): (plugin: string) => boolean {
  return (plugin) => config().plugins.some((entry) => entry.name === plugin && bypassesByDefault(entry));
}
