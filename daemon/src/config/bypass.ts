// Which plugins' allow may bypass an agent's own permission rules over the agents' hooks: those
// whose entry says `bypassAgentPermissions: true`. Read from the config in force at each call, so
// a reload that changes an entry applies to the next hook.
import type { Config } from "./schema.js";

export function agentPermissionBypass(config: () => Pick<Config, "plugins">): (plugin: string) => boolean {
  return (plugin) => config().plugins.some((entry) => entry.name === plugin && entry.bypassAgentPermissions === true);
}
