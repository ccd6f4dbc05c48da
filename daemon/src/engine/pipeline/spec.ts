// What the pipeline knows of a tool: its name, whether its dispatch may overlap others, and the
// definition-owned hooks (presentation, value check, final content). Also the core-dispatch
// callback type. Owns these shapes and the default presentation; runs none of the phases.
import { HookdError, toJsonText } from "@hookd/sdk";
import type { ContentBlock, JsonValue, ToolCall, ToolResult } from "@hookd/sdk";

export interface ToolSpec {
  readonly name: string;
  /** Calls of this tool may be dispatched while other concurrency-safe calls of the step run. */
  readonly concurrencySafe: boolean;
  /** What the model sees of a success, computed from the canonical value. Default: see presentValue. */
  readonly present?: (value: JsonValue) => readonly ContentBlock[];
  /** Throws when the canonical value is not one this tool may produce. */
  readonly validateValue?: (value: JsonValue) => void;
  /**
   * The tool's last-mile content boundary: synchronous, total, run exactly once per call on the
   * normalized candidate (success or failure). Returns replacement content, or undefined to keep
   * it. Cannot change isError, the error identity, contexts or metadata.
   */
  readonly finalizeContent?: (result: ToolResult, call: ToolCall) => readonly ContentBlock[] | undefined;
  /**
   * The same boundary when it lives across a wire (the hosted loop asks the agent): awaited under
   * its own deadline, not the turn's signal, so a cancelled call still reaches it. It stays total:
   * a rejection, a timeout or unusable content keeps the candidate's content. Used only when
   * finalizeContent is absent.
   */
  readonly finalizeAwaited?: AwaitedFinalize;
}

export interface AwaitedFinalize {
  /** Milliseconds the pipeline waits before keeping the content; `signal` aborts then. */
  readonly deadlineMs: number;
  /** Resolves to replacement content, or undefined to keep it. */
  readonly run: (result: ToolResult, call: ToolCall, signal: AbortSignal) => Promise<unknown>;
}

/** The tools visible to a call; read once per call, when it is sealed. */
export type ToolLookup = (toolName: string) => ToolSpec | undefined;

/**
 * Core dispatch: runs the agent's tool body. Resolves to the canonical value, or to a whole
 * ToolResult (any object whose `isError` is a boolean is read as one, so a body can return
 * failures, presentation and deferred contexts). Rejecting is a tool error.
 */
export type Dispatch = (call: ToolCall, signal: AbortSignal) => Promise<unknown>;

/** What a Dispatch throws for a tool it does not know: the result is an unknown_tool failure. */
export function unknownTool(toolName: string): HookdError<{ readonly toolName: string }> {
  return new HookdError("unknown_tool", `unknown tool ${JSON.stringify(toolName)}`, { details: { toolName } });
}

/** The default presentation: a string is one text block; anything else its canonical JSON text. */
export function presentValue(value: JsonValue): readonly ContentBlock[] {
  return [{ type: "text", text: typeof value === "string" ? value : toJsonText(value) }];
}

/** A lookup over a fixed list of specs. */
export function toolLookup(specs: readonly ToolSpec[]): ToolLookup {
  const byName = new Map(specs.map((spec) => [spec.name, spec]));
  return (toolName) => byName.get(toolName);
}
