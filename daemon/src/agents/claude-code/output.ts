// One hook run to one HookResult, by the agents' output contract. Exit 0: stdout that starts with
// `{` is the JSON answer (plain stdout is context for SessionStart and UserPromptSubmit, and so is
// stdout there that starts with `{` but is not JSON, as the agents treat it); exit 2:
// a block with stderr as the reason; any other exit, a signal, a timeout or unusable JSON: a
// non-blocking error (the failure policy decides what it stands for). Total: never throws, and
// what could not be used is named in `notes` and kept raw for the audit.
import { z } from "zod";
import { parseJson } from "@hookd/sdk";
import type { JsonValue } from "@hookd/sdk";
import type { HookErrorKind, HookResult, HookSpec, PermissionDecision } from "../contract.js";
import { firstLine, runFailure } from "../../processes/hook-run.js";
import type { RunResult } from "../../processes/hook-run.js";

/**
 * Claude Code blocks on exit 2 with an empty stderr (or `decision: "block"` without a reason)
 * using a default reason; Codex counts either as a hook error.
 */
export interface OutputFacts {
  readonly blockNeedsReason: boolean;
  /** The agent's own reason for a block that gave none (the hook's name stays in the audit). */
  readonly blockedWithoutReason: string;
}

/** What Claude Code itself reports for an exit 2 with an empty stderr. */
export const NO_STDERR = "No stderr output";

const hookSpecific = z.looseObject({
  hookEventName: z.string({ error: "expected a string" }).optional(),
  permissionDecision: z.enum(["allow", "deny", "ask"], { error: 'expected "allow", "deny" or "ask"' }).optional(),
  permissionDecisionReason: z.string({ error: "expected a string" }).optional(),
  additionalContext: z.string({ error: "expected a string" }).optional(),
  updatedInput: z.record(z.string(), z.unknown(), { error: "expected an object" }).optional(),
  // PostToolUse: what the model sees in place of the tool's output (MCP tools: the older field).
  updatedToolOutput: z.unknown().optional(),
  updatedMCPToolOutput: z.unknown().optional(),
  decision: z
    .looseObject({
      behavior: z.enum(["allow", "deny"], { error: 'expected "allow" or "deny"' }),
      message: z.string({ error: "expected a string" }).optional(),
      updatedInput: z.unknown().optional(),
      updatedPermissions: z.unknown().optional(),
      interrupt: z.boolean({ error: "expected true or false" }).optional(),
    })
    .optional(),
});

const hookJson = z.looseObject({
  continue: z.boolean({ error: "expected true or false" }).optional(),
  stopReason: z.string({ error: "expected a string" }).optional(),
  suppressOutput: z.boolean({ error: "expected true or false" }).optional(),
  systemMessage: z.string({ error: "expected a string" }).optional(),
  decision: z.enum(["block", "approve"], { error: 'expected "block" or "approve"' }).optional(),
  reason: z.string({ error: "expected a string" }).optional(),
  hookSpecificOutput: hookSpecific.optional(),
});
type HookJson = z.infer<typeof hookJson>;

/** Events where plain stdout of a successful hook is context for the model. */
const PLAIN_STDOUT_IS_CONTEXT: ReadonlySet<string> = new Set(["SessionStart", "UserPromptSubmit"]);
/** Events whose hookSpecificOutput may carry additionalContext. */
const TAKES_CONTEXT: ReadonlySet<string> = new Set(["SessionStart", "SubagentStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PostToolUseFailure"]);

const nonEmpty = (text: string | undefined): string | undefined => {
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === "" ? undefined : trimmed;
};

/** `{ [key]: value }`, or `{}` when the value is undefined. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}


interface Base {
  readonly hook: string;
  readonly event: string;
  readonly facts: OutputFacts;
}

/** Interprets a finished run of `hook`. */
export function interpretClaudeRun(facts: OutputFacts, run: RunResult, hook: Pick<HookSpec, "id" | "event">): HookResult {
  const base: Base = { hook: hook.id, event: hook.event, facts };
  const raw = { hook: base.hook, event: base.event, durationMs: run.durationMs, stdout: run.stdout, stderr: run.stderr, contexts: [], notes: [] };
  const failed = (kind: HookErrorKind, message: string, exitCode?: number): HookResult => ({
    ...raw,
    status: "error",
    error: { kind, message },
    ...(exitCode === undefined ? {} : { exitCode }),
  });
  const failure = runFailure(run, "s");
  if (failure !== undefined || run.end !== "exited") return failed(failure?.kind ?? "crash", failure?.message ?? "");
  if (run.code === 2) {
    const reason = nonEmpty(run.stderr);
    if (reason !== undefined) return { ...raw, status: "ok", block: reason, exitCode: 2 };
    if (base.facts.blockNeedsReason) return failed("exit", "exited with code 2 but wrote no reason to stderr", 2);
    return { ...raw, status: "ok", block: NO_STDERR, exitCode: 2 };
  }
  if (run.code !== 0) return failed("exit", `exited with code ${run.code}${run.stderr.trim() === "" ? "" : `: ${firstLine(run.stderr)}`}`, run.code);
  const stdout = run.stdout.trim();
  if (stdout === "") return { ...raw, status: "ok", exitCode: 0 };
  if (!stdout.startsWith("{")) {
    return PLAIN_STDOUT_IS_CONTEXT.has(base.event) ? { ...raw, status: "ok", exitCode: 0, contexts: [stdout] } : { ...raw, status: "ok", exitCode: 0 };
  }
  let value: unknown;
  try {
    // Losslessly: an updatedInput's numbers reach the tool digit for digit.
    value = parseJson(stdout);
  } catch (error) {
    if (PLAIN_STDOUT_IS_CONTEXT.has(base.event)) return { ...raw, status: "ok", exitCode: 0, contexts: [stdout] };
    return failed("garbage", `stdout starts with "{" but is not valid JSON: ${(error as Error).message}`, 0);
  }
  const parsed = hookJson.safeParse(value);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const field = (issue?.path ?? []).map(String).join(".") || "(output)";
    return failed("garbage", `stdout JSON: ${field}: ${issue?.message ?? "invalid"}`, 0);
  }
  return fromJson(base, parsed.data, raw);
}

function fromJson(base: Base, json: HookJson, raw: Omit<HookResult, "status">): HookResult {
  const { event } = base;
  const notes: string[] = [];
  const contexts: string[] = [];
  let permission: PermissionDecision | undefined;
  let permissionReason: string | undefined;
  let block: string | undefined;
  let updatedInput: JsonValue | undefined;
  let updatedOutput: JsonValue | undefined;
  let approval: HookResult["approval"];

  const defaultReason = base.facts.blockedWithoutReason;
  if (json.decision !== undefined) {
    const reason = nonEmpty(json.reason);
    if (event === "PreToolUse") {
      permission = json.decision === "block" ? "deny" : "allow";
      permissionReason = reason;
    } else if (json.decision === "block") {
      if (reason === undefined && base.facts.blockNeedsReason) {
        return { ...raw, status: "error", exitCode: 0, error: { kind: "garbage", message: `decision "block" without a non-empty reason` } };
      }
      block = reason ?? defaultReason;
    } else {
      notes.push(`decision "approve" has no effect at ${event}`);
    }
  }

  const specific = json.hookSpecificOutput;
  if (specific !== undefined) {
    if (specific.hookEventName !== event) {
      notes.push(`hookSpecificOutput ignored: its hookEventName ${JSON.stringify(specific.hookEventName ?? null)} is not ${JSON.stringify(event)}`);
    } else {
      if (specific.permissionDecision !== undefined || specific.permissionDecisionReason !== undefined) {
        if (event !== "PreToolUse") {
          notes.push(`hookSpecificOutput.permissionDecision has no effect at ${event}`);
        } else if (specific.permissionDecision !== undefined) {
          // The hook-specific decision supersedes the deprecated top-level one, reason and all.
          permission = specific.permissionDecision;
          permissionReason = nonEmpty(specific.permissionDecisionReason);
        } else {
          permissionReason = nonEmpty(specific.permissionDecisionReason) ?? permissionReason;
        }
      }
      const context = nonEmpty(specific.additionalContext);
      if (context !== undefined) {
        if (TAKES_CONTEXT.has(event)) contexts.push(context);
        else notes.push(`hookSpecificOutput.additionalContext has no effect at ${event}`);
      }
      if (specific.updatedInput !== undefined) {
        if (event === "PreToolUse") updatedInput = specific.updatedInput as JsonValue;
        else notes.push(`hookSpecificOutput.updatedInput has no effect at ${event}`);
      }
      const output = specific.updatedToolOutput ?? specific.updatedMCPToolOutput;
      if (output !== undefined) {
        if (event === "PostToolUse") updatedOutput = output as JsonValue;
        else notes.push(`hookSpecificOutput.${specific.updatedToolOutput === undefined ? "updatedMCPToolOutput" : "updatedToolOutput"} has no effect at ${event}`);
      }
      if (specific.decision !== undefined) {
        if (event !== "PermissionRequest") {
          notes.push(`hookSpecificOutput.decision has no effect at ${event}`);
        } else {
          approval = { behavior: specific.decision.behavior, ...optional("message", nonEmpty(specific.decision.message)) };
          // The call was sealed before it was asked about: an approval answers yes or no, it cannot change the call.
          if (specific.decision.updatedInput !== undefined) notes.push("hookSpecificOutput.decision.updatedInput ignored: an approval cannot change a sealed call (rewrite it at PreToolUse)");
          if (specific.decision.updatedPermissions !== undefined) notes.push("hookSpecificOutput.decision.updatedPermissions ignored: hookd keeps no permission rules");
          if (specific.decision.interrupt === true) notes.push("hookSpecificOutput.decision.interrupt ignored: a denial ends the call, not the turn");
        }
      }
    }
  }
  if (json.suppressOutput === true) notes.push("suppressOutput has no effect in hookd (there is no transcript to hide it from)");
  return {
    ...raw,
    status: "ok",
    exitCode: 0,
    contexts,
    notes,
    ...(block === undefined ? {} : { block }),
    ...(permission === undefined ? {} : { permission }),
    ...(permissionReason === undefined ? {} : { permissionReason }),
    ...(json.continue === false ? { stop: optional("reason", nonEmpty(json.stopReason)) } : {}),
    ...optional("systemMessage", nonEmpty(json.systemMessage)),
    ...(updatedInput === undefined ? {} : { updatedInput }),
    ...(updatedOutput === undefined ? {} : { updatedOutput }),
    ...(approval === undefined ? {} : { approval }),
  };
}
