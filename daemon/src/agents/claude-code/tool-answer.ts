// Claude Code's PreToolUse and PermissionRequest answers. PreToolUse carries hookd's rewrite,
// pre-tool and guard verdict on the call; PermissionRequest the approval waterfall's.
//
// Claude Code skips its permission prompt for a call a hook answered `permissionDecision:
// "allow"`, so an allow answers no opinion (the agent's rules stay in charge) unless the deciding
// plugin's effective `bypassAgentPermissions` is true (config/bypass.ts: a command plugin's by
// default, as its hooks' allow means that natively); hookd's own default allow never. A rewrite is
// `updatedInput` (the whole new input), with or without a permissionDecision, so a rewrite alone
// bypasses nothing.
import type { ApprovalDecision, JsonValue, Pass } from "@hookd/sdk";
import { NO_OPINION } from "../answer-text.js";
import type { HookAnswer, PreToolVerdict } from "../contract.js";

/** The plugin that decided when nobody did (see engine/runners.ts DEFAULT_DECIDER). */
export const DEFAULT_DECIDER = "default";

export function preToolOutput(fields: { [key: string]: JsonValue | undefined }): HookAnswer {
  const specific: { [key: string]: JsonValue } = { hookEventName: "PreToolUse" };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) specific[key] = value;
  return { hookSpecificOutput: specific };
}

/** The arguments a rewrite gave the call, when a plugin rewrote it. */
export function rewrittenInput(verdict: PreToolVerdict): JsonValue | undefined {
  return (verdict.effective.rewrittenBy ?? []).length > 0 ? verdict.effective.arguments : undefined;
}

export function preToolAnswer(verdict: PreToolVerdict): HookAnswer {
  const { decision, decidedBy } = verdict;
  const updatedInput = rewrittenInput(verdict);
  switch (decision.kind) {
    case "deny":
      return preToolOutput({ permissionDecision: "deny", permissionDecisionReason: decision.reason });
    case "ask":
      return preToolOutput({ permissionDecision: "ask", permissionDecisionReason: decision.reason, updatedInput });
    case "allow": {
      const bypass = verdict.bypass && decidedBy !== DEFAULT_DECIDER;
      if (!bypass) return updatedInput === undefined ? NO_OPINION : preToolOutput({ updatedInput });
      return preToolOutput({ permissionDecision: "allow", permissionDecisionReason: `allowed by ${decidedBy}`, updatedInput });
    }
  }
}

/** PermissionRequest: an approve allows this call, a reject denies it with the reason, a pass leaves the agent's own prompt. */
export function approvalAnswer(decision: ApprovalDecision | Pass): HookAnswer {
  switch (decision.kind) {
    case "approve":
      return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "allow" } } };
    case "reject":
      return { hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: decision.reason } } };
    case "pass":
      return NO_OPINION;
  }
}
