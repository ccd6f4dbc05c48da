// PreToolUse and PermissionRequest answers, per dialect. PreToolUse carries hookd's rewrite,
// pre-tool and guard verdict on the call; PermissionRequest the approval waterfall's.
//
// Allow never bypasses the agent's own permissions by default: Claude Code skips its permission
// prompt for a call a hook answered `permissionDecision: "allow"`, so an allow (hookd's default
// or a plugin's) answers no opinion and the agent's rules stay in charge. Only a plugin whose
// config says `bypassAgentPermissions: true` has its allow sent as "allow".
//
// A rewrite reaches each agent in its own form: Claude Code takes `updatedInput` (the whole new
// input) with or without a permissionDecision, so a rewrite alone does not bypass anything. Codex
// takes `updatedInput` only with `permissionDecision: "allow"`, and for its shell tool only with
// a string `command`; a rewrite Codex cannot take is a deny, never the original call run.
import type { ApprovalDecision, JsonValue, Pass, PreToolDecision, ToolCall } from "@hookd/sdk";
import type { AnswerDialect, HookAnswer } from "./answer.js";

const NO_OPINION: HookAnswer = Object.freeze({});

/** The plugin that decided when nobody did (see engine/runners.ts DEFAULT_DECIDER). */
export const DEFAULT_DECIDER = "default";

/** Codex's shell tool, as its hooks name it. */
const CODEX_SHELL = "Bash";

export interface PreToolVerdict {
  readonly decision: PreToolDecision;
  readonly decidedBy: string;
  /** The call as the rewrite chain left it, when a plugin changed its arguments. */
  readonly rewritten?: ToolCall;
  /** The deciding plugin's config allows its allow to bypass the agent's permission rules. */
  readonly bypass: boolean;
}

function output(fields: { [key: string]: JsonValue | undefined }): HookAnswer {
  const specific: { [key: string]: JsonValue } = { hookEventName: "PreToolUse" };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) specific[key] = value;
  return { hookSpecificOutput: specific };
}

/** Why Codex cannot take this rewrite, or undefined when it can. */
function codexRefusal(call: ToolCall): string | undefined {
  if (call.toolName !== CODEX_SHELL) return undefined;
  const args = call.arguments as { readonly [key: string]: JsonValue };
  return typeof args.command === "string" ? undefined : `the rewrite of ${call.toolName} cannot reach Codex: its shell takes only a string "command"`;
}

export function preToolAnswer(verdict: PreToolVerdict, dialect: AnswerDialect): HookAnswer {
  const { decision, decidedBy, rewritten } = verdict;
  const updatedInput = rewritten?.arguments;
  switch (decision.kind) {
    case "deny":
      return output({ permissionDecision: "deny", permissionDecisionReason: decision.reason });
    case "ask":
      if (dialect === "codex") return output({ permissionDecision: "deny", permissionDecisionReason: `approval required (Codex hooks cannot ask): ${decision.reason}` });
      return output({ permissionDecision: "ask", permissionDecisionReason: decision.reason, updatedInput });
    case "allow": {
      const bypass = verdict.bypass && decidedBy !== DEFAULT_DECIDER;
      if (dialect === "codex") {
        if (rewritten === undefined) return NO_OPINION; // Codex refuses an allow without updatedInput
        const refusal = codexRefusal(rewritten);
        if (refusal !== undefined) return output({ permissionDecision: "deny", permissionDecisionReason: refusal });
        return output({ permissionDecision: "allow", permissionDecisionReason: `rewritten by ${(rewritten.rewrittenBy ?? []).join(", ")}`, updatedInput });
      }
      if (!bypass) return updatedInput === undefined ? NO_OPINION : output({ updatedInput });
      return output({ permissionDecision: "allow", permissionDecisionReason: `allowed by ${decidedBy}`, updatedInput });
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
