// The merge of every matched hook's result for one firing: a pure function of the results in
// config order (never completion order), so the outcome and its audit are deterministic however
// the concurrent hooks finished. Precedence, strongest first:
//   1. `continue: false` from any hook: stop (stopReasons joined);
//   2. PreToolUse: deny > ask > allow (exit 2 and `decision: "block"` count as deny, the
//      deprecated `decision: "approve"` as allow); PermissionRequest: any deny (behavior "deny",
//      exit 2, `decision: "block"`) wins over allow; other events: any block;
//   3. PreToolUse updatedInput (and PostToolUse updatedToolOutput) folds in config order: the
//      last hook IN THE FILE that rewrote wins, never the last to finish (the agents race here;
//      users file it as a bug);
//   4. contexts and systemMessages accumulate in config order.
// Reasons of the winning rank are joined with a blank line. Non-blocking errors are collected
// for the failure policy; they never change the merge (unless the agent uses a failed hook's
// answer all the same, as Gemini CLI does). The event's role (pre-tool, approval, other) comes
// from the agent's event table.
import type { JsonValue, PointName } from "@hookd/sdk";
import type { AgentDialect, HookResult, PermissionDecision } from "../../agents/contract.js";

/** What the merge needs to know of the agent. */
export interface MergeRules {
  /** The point the event fires at: pre-tool merges permissions, approval approvals, others blocks. */
  readonly point: PointName;
  /** The reasons of one rank are joined with this. */
  readonly reasonSeparator: string;
  /** An updatedInput counts only beside an allow (Codex). */
  readonly updatedInputNeedsAllow?: boolean;
}

export interface Verdict<D extends string = string> {
  readonly decision: D;
  /** The winning rank's reasons, joined by a blank line; undefined when none gave one. */
  readonly reason: string | undefined;
  /** The hooks that gave the winning answer, in config order. */
  readonly by: readonly string[];
}

export interface Merged {
  readonly event: string;
  readonly stop?: Verdict<"stop">;
  /** PreToolUse only. */
  readonly permission?: Verdict<PermissionDecision>;
  /** Events other than PreToolUse and PermissionRequest: exit 2 or `decision: "block"`. */
  readonly block?: Verdict<"block">;
  /** PermissionRequest only. */
  readonly approval?: Verdict<"allow" | "deny">;
  /** PreToolUse only: the arguments the file's hooks rewrote the call to, and who. */
  readonly updatedInput?: { readonly input: JsonValue; readonly by: string };
  /** PostToolUse only: the output the file's hooks gave in place of the tool's (the last in the file that did), and who. */
  readonly updatedOutput?: { readonly output: JsonValue; readonly by: string };
  readonly contexts: readonly { readonly hook: string; readonly text: string }[];
  readonly systemMessages: readonly string[];
  /** Hooks that failed (non-blocking errors), in config order. */
  readonly errors: readonly HookResult[];
  /** What hooks sent that had no effect, prefixed with the hook. */
  readonly notes: readonly string[];
}

/** The merge rules of one of the agent's events. */
export function mergeRulesOf(agent: AgentDialect, event: string): MergeRules {
  const hooks = agent.commandHooks;
  return { point: hooks.events[event]?.point ?? "agent-event", reasonSeparator: hooks.reasonSeparator, ...(hooks.updatedInputNeedsAllow === true ? { updatedInputNeedsAllow: true } : {}) };
}

const RANK: Readonly<Record<PermissionDecision, number>> = { deny: 3, ask: 2, allow: 1 };

function verdict<D extends string>(decision: D, entries: readonly { hook: string; reason: string | undefined }[], separator: string): Verdict<D> {
  const reasons = entries.flatMap((entry) => (entry.reason === undefined ? [] : [entry.reason]));
  return { decision, reason: reasons.length === 0 ? undefined : reasons.join(separator), by: entries.map((entry) => entry.hook) };
}

/** What one PreToolUse result stands for: its permission, with exit 2 / block as deny. */
function permissionOf(result: HookResult): { decision: PermissionDecision; reason: string | undefined } | undefined {
  if (result.block !== undefined) return { decision: "deny", reason: result.block };
  if (result.permission !== undefined) return { decision: result.permission, reason: result.permissionReason };
  return undefined;
}

/** What one PermissionRequest result stands for. */
function approvalOf(result: HookResult): { decision: "allow" | "deny"; reason: string | undefined } | undefined {
  if (result.block !== undefined) return { decision: "deny", reason: result.block };
  if (result.approval !== undefined) return { decision: result.approval.behavior, reason: result.approval.message };
  return undefined;
}

/** The fold of PreToolUse rewrites in config order; notes name those the dialect ignores. */
function foldInput(ok: readonly HookResult[], rules: MergeRules, notes: string[]): Merged["updatedInput"] {
  let folded: Merged["updatedInput"];
  for (const result of ok) {
    if (result.updatedInput === undefined) continue;
    if (rules.updatedInputNeedsAllow === true && result.permission !== "allow") {
      notes.push(`${result.hook}: hookSpecificOutput.updatedInput ignored: Codex applies it only beside permissionDecision "allow"`);
      continue;
    }
    if (result.permission === "deny" || result.block !== undefined) continue;
    folded = { input: result.updatedInput, by: result.hook };
  }
  return folded;
}

export function mergeResults(event: string, results: readonly HookResult[], rules: MergeRules): Merged {
  const ok = results.filter((result) => result.status === "ok" || result.answersWhenFailed === true);
  const sep = rules.reasonSeparator;
  const notes = results.flatMap((result) => result.notes.map((note) => `${result.hook}: ${note}`));
  const stoppers = ok.flatMap((result) => (result.stop === undefined ? [] : [{ hook: result.hook, reason: result.stop.reason }]));
  let permission: Verdict<PermissionDecision> | undefined;
  let block: Verdict<"block"> | undefined;
  let approval: Verdict<"allow" | "deny"> | undefined;
  let updatedInput: Merged["updatedInput"];
  if (rules.point === "pre-tool") updatedInput = foldInput(ok, rules, notes);
  let updatedOutput: Merged["updatedOutput"];
  for (const result of ok) if (result.updatedOutput !== undefined) updatedOutput = { output: result.updatedOutput, by: result.hook };
  if (rules.point === "approval") {
    const answers = ok.flatMap((result) => {
      const answer = approvalOf(result);
      return answer === undefined ? [] : [{ hook: result.hook, ...answer }];
    });
    const top = answers.some((a) => a.decision === "deny") ? "deny" : answers.length > 0 ? "allow" : undefined;
    if (top !== undefined) approval = verdict(top, answers.filter((a) => a.decision === top), sep);
  } else if (rules.point === "pre-tool") {
    const answers = ok.flatMap((result) => {
      const answer = permissionOf(result);
      return answer === undefined ? [] : [{ hook: result.hook, ...answer }];
    });
    const top = answers.reduce<PermissionDecision | undefined>((best, a) => (best === undefined || RANK[a.decision] > RANK[best] ? a.decision : best), undefined);
    if (top !== undefined) permission = verdict(top, answers.filter((a) => a.decision === top), sep);
  } else {
    const blockers = ok.flatMap((result) => (result.block === undefined ? [] : [{ hook: result.hook, reason: result.block }]));
    if (blockers.length > 0) block = verdict("block", blockers, sep);
  }
  return {
    event,
    ...(stoppers.length === 0 ? {} : { stop: verdict("stop", stoppers, sep) }),
    ...(permission === undefined ? {} : { permission }),
    ...(block === undefined ? {} : { block }),
    ...(approval === undefined ? {} : { approval }),
    ...(updatedInput === undefined ? {} : { updatedInput }),
    ...(updatedOutput === undefined ? {} : { updatedOutput }),
    contexts: ok.flatMap((result) => result.contexts.map((text) => ({ hook: result.hook, text }))),
    systemMessages: ok.flatMap((result) => (result.systemMessage === undefined ? [] : [result.systemMessage])),
    errors: results.filter((result) => result.status === "error"),
    notes,
  };
}
