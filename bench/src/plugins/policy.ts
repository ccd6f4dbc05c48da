// bench-policy: the plugin every TypeScript scenario runs, in-process, in the worker pool and
// out of process (serve-policy.ts): a pre-tool gate that denies a few dangerous shell commands and
// otherwise allows (or, for the fan-out scenario, passes so that every plugin is consulted).
// Its work per call is a few regex tests: the bench measures hosting, not policy.
import { allow, definePlugin, deny, pass } from "@hookd/sdk";
import type { PluginDefinition, PreToolEvent } from "@hookd/sdk";

const DANGEROUS: readonly RegExp[] = [/\brm\s+-[a-zA-Z]*r[a-zA-Z]*\s+\/(\s|$)/, /\bmkfs(\.\w+)?\b/, /\b(curl|wget)\b[^|]*\|\s*(ba|z)?sh\b/, /\bdd\b[^;]*\bof=\/dev\//];

function commandOf(event: PreToolEvent): string {
  const args = event.call.arguments;
  if (typeof args !== "object" || args === null || Array.isArray(args)) return "";
  const command = (args as Record<string, unknown>)["command"];
  return typeof command === "string" ? command : "";
}

export interface PolicyOptions {
  readonly name: string;
  /** What a harmless command gets: an explicit allow (this plugin decides) or pass. */
  readonly harmless: "allow" | "pass";
}

export function createPolicy(options: PolicyOptions): PluginDefinition {
  return definePlugin({
    name: options.name,
    version: "1.0.0",
    sideEffectFree: true,
    points: {
      "pre-tool": {
        tools: ["Bash"],
        handler: (event) => {
          const command = commandOf(event);
          const rule = DANGEROUS.find((pattern) => pattern.test(command));
          if (rule !== undefined) return deny(`${options.name}: matches ${rule.source}`);
          return options.harmless === "allow" ? allow() : pass();
        },
      },
    },
  });
}

export default createPolicy({ name: "bench-policy", harmless: "allow" });
