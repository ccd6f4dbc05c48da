// Claude Code's PreToolUse and PermissionRequest answers. PreToolUse carries hookd's rewrite,
// pre-tool and guard verdict on the call; PermissionRequest the approval waterfall's.
//
// Allow never bypasses the agent's own permissions by default: Claude Code skips its permission
// prompt for a call a hook answered `permissionDecision: "allow"`, so an allow (hookd's default
// or a plugin's) answers no opinion and the agent's rules stay in charge. Only a plugin whose
// config says `bypassAgentPermissions: true` has its allow sent as "allow". A rewrite is
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
