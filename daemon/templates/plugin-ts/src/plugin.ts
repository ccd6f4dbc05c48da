// {{name}}: a pre-tool gate. It denies shell commands that force-push or reset a branch hard
// (the model gets the reason), and has no opinion on anything else: `pass` hands the call on
// to the next plugin, or to the agent's own permission rules. Replace the rules with yours.
import { definePlugin, deny, pass } from "@hookd/sdk";
import type { JsonValue, Pass, PreToolDecision, PreToolEvent } from "@hookd/sdk";

export const PLUGIN_NAME = "{{name}}";

/** What this plugin refuses, each with the reason the model is told. */
const RULES: readonly { readonly pattern: RegExp; readonly reason: string }[] = [
  { pattern: /\bgit\s+push\b.*\s(--force|-f)\b/, reason: "force-pushing rewrites shared history" },
  { pattern: /\bgit\s+reset\s+--hard\b/, reason: "a hard reset throws away uncommitted work" },
];

/** The shell command of a tool call's arguments (`command`), if it has one. */
export function commandOf(args: JsonValue): string | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const command = (args as { readonly [key: string]: JsonValue | undefined }).command;
  return typeof command === "string" ? command : undefined;
}

/** The decision for one proposed call: deny a rule's match, pass anything else. */
export function decide(event: PreToolEvent): PreToolDecision | Pass {
  const command = commandOf(event.call.arguments);
  const rule = command === undefined ? undefined : RULES.find((r) => r.pattern.test(command));
  return rule === undefined ? pass() : deny(`${PLUGIN_NAME}: ${rule.reason}`);
}

export default definePlugin({
  name: PLUGIN_NAME,
  version: "0.1.0",
  points: {
    "pre-tool": {
      // Whole-name matchers (globs): only shell tools reach the handler.
      tools: ["Bash", "shell", "exec*"],
      priority: 10,
      // A gate that cannot answer denies rather than silently allowing.
      failurePolicy: "fail-closed",
      handler: decide,
    },
  },
});
