// One Copilot CLI command hook run to a result, by Copilot 1.0's rules: exit 0 parses stdout as
// JSON (text that is not a JSON object is ignored); exit 2 denies at preToolUse and
// permissionRequest (stderr the reason), and at preToolUse any other non-zero exit denies too;
// elsewhere a non-zero exit, a signal or a timeout is a non-blocking error (Copilot lets the
// event go on). Fields: permissionDecision/permissionDecisionReason/modifiedArgs (preToolUse),
// additionalContext, decision "block" + reason (userPromptSubmitted, agentStop, subagentStop),
// behavior/message (permissionRequest). Pure and total; what had no effect is named in `notes`.
import { LosslessNumber, parseJson } from "@hookd/sdk";
import type { JsonObject, JsonValue } from "@hookd/sdk";
import type { HookErrorKind, HookResult, HookSpec } from "../contract.js";
import { firstLine, runFailure } from "../../processes/hook-run.js";
import type { RunResult } from "../../processes/hook-run.js";

/** What a block without a reason says (Copilot prefixes a denial with "Denied by preToolUse hook: "). */
export const COPILOT_NO_REASON = "blocked by a hook";

const BLOCKS: ReadonlySet<string> = new Set(["userPromptSubmitted", "agentStop", "subagentStop"]);
const CONTEXTS: ReadonlySet<string> = new Set(["sessionStart", "userPromptSubmitted", "postToolUse", "postToolUseFailure"]);

const isObject = (value: JsonValue | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);
const text = (value: JsonValue | undefined): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

function parsedStdout(stdout: string): JsonObject | undefined {
  const raw = stdout.trim();
  if (!raw.startsWith("{")) return undefined;
  try {
    const parsed = parseJson(raw);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function fromJson(event: string, output: JsonObject): Omit<HookResult, "hook" | "event" | "status" | "durationMs"> {
  const notes: string[] = [];
  const result: { -readonly [K in keyof HookResult]?: HookResult[K] } = {};
  const context = text(output.additionalContext);
  if (context !== undefined && CONTEXTS.has(event)) result.contexts = [context];
  else if (context !== undefined) notes.push(`additionalContext has no effect at ${event}`);
  const decision = output.permissionDecision;
  if (decision !== undefined) {
    if (event === "preToolUse" && (decision === "allow" || decision === "deny" || decision === "ask")) {
      result.permission = decision;
      const reason = text(output.permissionDecisionReason);
      if (reason !== undefined) result.permissionReason = reason;
    } else notes.push(`permissionDecision ${JSON.stringify(decision)} has no effect at ${event}`);
  }
  if (output.modifiedArgs !== undefined) {
    if (event === "preToolUse" && isObject(output.modifiedArgs)) result.updatedInput = output.modifiedArgs;
    else notes.push(`modifiedArgs has no effect at ${event}${isObject(output.modifiedArgs) ? "" : " (not an object)"}`);
  }
  if (output.decision === "block") {
    if (BLOCKS.has(event)) result.block = text(output.reason) ?? COPILOT_NO_REASON;
    else notes.push(`decision "block" has no effect at ${event}`);
  }
  const behavior = output.behavior;
  if (behavior === "allow" || behavior === "deny") {
    if (event === "permissionRequest") result.approval = { behavior, ...(text(output.message) === undefined ? {} : { message: text(output.message) ?? "" }) };
    else notes.push(`behavior has no effect at ${event}`);
  }
  if (output.modifiedResult !== undefined) notes.push("modifiedResult is not applied by hookd's command kind");
  if (output.modifiedPrompt !== undefined) notes.push("modifiedPrompt has no effect (Copilot applies it for SDK hooks only)");
  return { contexts: result.contexts ?? [], notes, ...result };
}

export function interpretCopilotRun(run: RunResult, hook: Pick<HookSpec, "id" | "event">): HookResult {
  const base = { hook: hook.id, event: hook.event, durationMs: run.durationMs, contexts: [], notes: [] };
  const failed = (kind: HookErrorKind, message: string): HookResult => ({ ...base, status: "error", error: { kind, message } });
  const failure = runFailure(run, "s");
  if (failure !== undefined || run.end !== "exited") return failed(failure?.kind ?? "crash", failure?.message ?? "");
  const raw = { exitCode: run.code, stdout: run.stdout, stderr: run.stderr };
  if (run.code !== 0) {
    // Never the hook's place in the file: that is hookd's name for it, for the audit only.
    const reason = firstLine(run.stderr) || `the hook exited with code ${run.code}`;
    if (hook.event === "preToolUse") return { ...base, ...raw, status: "ok", permission: "deny", permissionReason: reason };
    if (hook.event === "permissionRequest" && run.code === 2) return { ...base, ...raw, status: "ok", approval: { behavior: "deny", message: reason } };
    return { ...failed("exit", `exited with code ${run.code}${run.stderr.trim() === "" ? "" : `: ${firstLine(run.stderr)}`}`), ...raw };
  }
  const output = parsedStdout(run.stdout);
  const notes = output === undefined && run.stdout.trim() !== "" ? ["stdout is not a JSON object: ignored"] : [];
  const read = output === undefined ? { contexts: [], notes } : fromJson(hook.event, output);
  return { ...base, ...raw, ...read, notes: [...notes, ...read.notes], status: "ok" };
}
