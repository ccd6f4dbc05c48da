// One Gemini hook run to a result, by Gemini 0.61's rules.
// Gemini parses stdout (or stderr when stdout is empty) as JSON whatever the exit code; text that
// is not JSON is a systemMessage at exit 0, a warning at exit 1, and a deny with the text as
// reason at any other exit code. A non-zero exit is a failed hook (hookd: a non-blocking error for
// the failure policy) unless it blocked with a reason; Gemini still uses a failed hook's output.
// A deny is BeforeTool's permission and every other event's block; tool_input is BeforeTool's
// updatedInput, merged over the arguments. Pure and total; what had no effect is named in `notes`.
import type { JsonObject } from "@hookd/sdk";
import { LosslessNumber, parseJson } from "@hookd/sdk";
import type { JsonValue } from "@hookd/sdk";
import type { HookErrorKind, HookResult, HookSpec } from "../contract.js";
import { firstLine, runFailure } from "../../processes/hook-run.js";
import type { RunResult } from "../../processes/hook-run.js";

/** What one Gemini hook answered, before it is read as the event's result. */
interface GeminiAnswer {
  readonly decision?: "deny" | "ask";
  readonly reason?: string;
  readonly stop?: { readonly reason?: string };
  readonly systemMessage?: string;
  readonly context?: string;
  readonly toolInput?: JsonObject;
  readonly notes: readonly string[];
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);

const text = (value: JsonValue | undefined): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);


/** The JSON Gemini would read from a run, or the answer its plain text stands for. */
function outputOf(run: Extract<RunResult, { end: "exited" }>): JsonObject | undefined {
  const raw = run.stdout.trim() || run.stderr.trim();
  if (raw === "") return undefined;
  try {
    let parsed = parseJson(raw);
    if (typeof parsed === "string") parsed = parseJson(parsed);
    if (isObject(parsed)) return parsed;
  } catch {
    // Not JSON: plain text, below.
  }
  if (run.code === 0) return { systemMessage: raw };
  if (run.code === 1) return { systemMessage: `Warning: ${raw}` };
  return { decision: "deny", reason: raw };
}

export function interpretGeminiRun(run: RunResult, hook: Pick<HookSpec, "id" | "event">): HookResult {
  const base = { hook: hook.id, event: hook.event, durationMs: run.durationMs, contexts: [], notes: [], answersWhenFailed: true };
  const failed = (kind: HookErrorKind, message: string): HookResult => ({ ...base, status: "error", error: { kind, message } });
  const failure = runFailure(run, "ms");
  if (failure !== undefined || run.end !== "exited") return failed(failure?.kind ?? "crash", failure?.message ?? "");
  const output = outputOf(run);
  const answer = output === undefined ? { notes: [] } : fromOutput(output);
  const result: HookResult = { ...base, ...asResult(hook, answer), status: "ok", exitCode: run.code, stdout: run.stdout, stderr: run.stderr };
  if (run.code === 0 || answer.decision === "deny") return result;
  // A failed hook whose output still counts (Gemini uses it), recorded as the failure it is.
  const detail = run.stderr.trim() === "" ? "" : `: ${firstLine(run.stderr)}`;
  return { ...result, status: "error", error: { kind: "exit", message: `exited with code ${run.code}${detail}` } };
}

/** What Gemini CLI itself says for a block without a reason (its getEffectiveReason). */
export const GEMINI_NO_REASON = "No reason provided";

/** A Gemini answer as the event's result: a deny is BeforeTool's permission and any other event's block. */
function asResult(hook: Pick<HookSpec, "id" | "event">, answer: GeminiAnswer): Omit<HookResult, "hook" | "event" | "status" | "durationMs"> {
  const tool = hook.event === "BeforeTool";
  const notes = [...answer.notes];
  if (answer.toolInput !== undefined && !tool) notes.push(`hookSpecificOutput.tool_input has no effect at ${hook.event}`);
  if (answer.decision === "ask" && !tool) notes.push(`decision "ask" has no effect at ${hook.event}`);
  return {
    contexts: answer.context === undefined ? [] : [answer.context],
    notes,
    ...(tool && answer.decision !== undefined ? { permission: answer.decision, ...(answer.reason === undefined ? {} : { permissionReason: answer.reason }) } : {}),
    ...(!tool && answer.decision === "deny" ? { block: answer.reason ?? GEMINI_NO_REASON } : {}),
    ...(answer.stop === undefined ? {} : { stop: answer.stop }),
    ...(answer.systemMessage === undefined ? {} : { systemMessage: answer.systemMessage }),
    ...(tool && answer.toolInput !== undefined ? { updatedInput: answer.toolInput } : {}),
  };
}

function fromOutput(output: JsonObject): GeminiAnswer {
  const notes: string[] = [];
  const decision = output.decision;
  const refused = decision === "deny" || decision === "block";
  if (decision !== undefined && !refused && decision !== "ask" && decision !== "allow" && decision !== "approve") notes.push(`decision ${JSON.stringify(decision)} has no effect`);
  const specific = isObject(output.hookSpecificOutput) ? output.hookSpecificOutput : undefined;
  const toolInput = specific?.tool_input;
  if (toolInput !== undefined && !isObject(toolInput)) notes.push("hookSpecificOutput.tool_input ignored: not an object");
  for (const key of ["llm_request", "llm_response", "toolConfig", "clearContext", "tailToolCallRequest"]) {
    if (specific?.[key] !== undefined) notes.push(`hookSpecificOutput.${key} has no effect in hookd`);
  }
  const reason = text(output.reason);
  const context = text(specific?.additionalContext);
  const systemMessage = text(output.systemMessage);
  return {
    notes,
    ...(refused ? { decision: "deny" as const } : decision === "ask" ? { decision: "ask" as const } : {}),
    ...(reason === undefined ? {} : { reason }),
    ...(output.continue === false ? { stop: text(output.stopReason) === undefined ? {} : { reason: text(output.stopReason) ?? "" } } : {}),
    ...(systemMessage === undefined ? {} : { systemMessage }),
    ...(context === undefined ? {} : { context }),
    ...(isObject(toolInput) ? { toolInput } : {}),
  };
}
