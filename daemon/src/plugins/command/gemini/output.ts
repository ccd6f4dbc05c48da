// One Gemini hook run to a result, and the merge of a firing's results, by Gemini 0.61's rules.
// Gemini parses stdout (or stderr when stdout is empty) as JSON whatever the exit code; text that
// is not JSON is a systemMessage at exit 0, a warning at exit 1, and a deny with the text as
// reason at any other exit code. A non-zero exit is a failed hook (hookd: a non-blocking error for
// the failure policy) unless it blocked with a reason. Merge: any deny/block wins over ask;
// continue:false stops; reasons, contexts and systemMessages join in config order; the last
// hook's tool_input wins whole. Pure and total; what had no effect is named in `notes`.
import type { JsonObject } from "@hookd/sdk";
import { LosslessNumber, parseJson } from "@hookd/sdk";
import type { JsonValue } from "@hookd/sdk";
import type { RunResult } from "../runner.js";

export type GeminiErrorKind = "exit" | "crash" | "timeout" | "garbage" | "spawn" | "cancelled";

export interface GeminiResult {
  readonly hook: string;
  readonly status: "ok" | "error";
  readonly decision?: "deny" | "ask";
  readonly reason?: string;
  readonly stop?: { readonly reason?: string };
  readonly systemMessage?: string;
  readonly context?: string;
  readonly toolInput?: JsonObject;
  readonly notes: readonly string[];
  readonly error?: { readonly kind: GeminiErrorKind; readonly message: string };
  readonly exitCode?: number;
  readonly durationMs: number;
}

export interface GeminiMerged {
  readonly decision?: "deny" | "ask";
  readonly reason?: string;
  readonly stop?: { readonly reason?: string };
  readonly contexts: readonly string[];
  readonly systemMessages: readonly string[];
  readonly toolInput?: JsonObject;
  /** The hooks whose answer decided (deny, ask or stop), in config order. */
  readonly by: readonly string[];
  readonly errors: readonly GeminiResult[];
  readonly notes: readonly string[];
}

const isObject = (value: JsonValue | undefined): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof LosslessNumber);

const text = (value: JsonValue | undefined): string | undefined => (typeof value === "string" && value.trim() !== "" ? value.trim() : undefined);

function firstLine(value: string): string {
  const line = value.trim().split("\n")[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

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

export function interpretGeminiRun(hook: string, run: RunResult): GeminiResult {
  const base = { hook, durationMs: run.durationMs, notes: [] };
  const failed = (kind: GeminiErrorKind, message: string, exitCode?: number): GeminiResult => ({ ...base, status: "error", error: { kind, message }, ...(exitCode === undefined ? {} : { exitCode }) });
  switch (run.end) {
    case "spawn_error":
      return failed("spawn", run.message);
    case "cancelled":
      return failed("cancelled", "cancelled before the hook finished");
    case "timeout":
      return failed("timeout", `no answer within ${run.timeoutMs} ms (its process group was killed)`);
    case "signaled":
      return failed("crash", `killed by ${run.signal}`);
    case "exited":
      break;
  }
  const output = outputOf(run);
  const answered = output === undefined ? { ...base, status: "ok" as const, exitCode: run.code } : fromOutput(base, output, run.code);
  if (run.code === 0 || answered.decision === "deny") return answered;
  // A failed hook whose output still counts (Gemini uses it), recorded as the failure it is.
  const detail = run.stderr.trim() === "" ? "" : `: ${firstLine(run.stderr)}`;
  return { ...answered, status: "error", error: { kind: "exit", message: `exited with code ${run.code}${detail}` } };
}

function fromOutput(base: { hook: string; durationMs: number }, output: JsonObject, exitCode: number): GeminiResult {
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
    ...base,
    status: "ok",
    exitCode,
    notes,
    ...(refused ? { decision: "deny" as const } : decision === "ask" ? { decision: "ask" as const } : {}),
    ...(reason === undefined ? {} : { reason }),
    ...(output.continue === false ? { stop: text(output.stopReason) === undefined ? {} : { reason: text(output.stopReason) ?? "" } } : {}),
    ...(systemMessage === undefined ? {} : { systemMessage }),
    ...(context === undefined ? {} : { context }),
    ...(isObject(toolInput) ? { toolInput } : {}),
  };
}

export function mergeGeminiResults(results: readonly GeminiResult[]): GeminiMerged {
  // Gemini uses the output of failed hooks too; only results without an answer add nothing.
  const deny = results.filter((r) => r.decision === "deny");
  const ask = results.filter((r) => r.decision === "ask");
  const stoppers = results.filter((r) => r.stop !== undefined);
  const decision = deny.length > 0 ? "deny" : ask.length > 0 ? "ask" : undefined;
  const reasons = results.flatMap((r) => (r.reason === undefined ? [] : [r.reason]));
  const stopReasons = stoppers.flatMap((r) => (r.stop?.reason === undefined ? [] : [r.stop.reason]));
  const lastInput = results.reduce<JsonObject | undefined>((last, r) => r.toolInput ?? last, undefined);
  const by = (stoppers.length > 0 ? stoppers : decision === "deny" ? deny : ask).map((r) => r.hook);
  return {
    ...(decision === undefined ? {} : { decision }),
    ...(reasons.length === 0 ? {} : { reason: reasons.join("\n") }),
    ...(stoppers.length === 0 ? {} : { stop: stopReasons.length === 0 ? {} : { reason: stopReasons.join("\n") } }),
    contexts: results.flatMap((r) => (r.context === undefined ? [] : [r.context])),
    systemMessages: results.flatMap((r) => (r.systemMessage === undefined ? [] : [r.systemMessage])),
    ...(lastInput === undefined ? {} : { toolInput: lastInput }),
    by,
    errors: results.filter((r) => r.status === "error"),
    notes: results.flatMap((r) => r.notes.map((note) => `${r.hook}: ${note}`)),
  };
}
