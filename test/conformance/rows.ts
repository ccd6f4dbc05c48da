// The conformance scenario table: one row per behaviour, run unchanged against the TypeScript,
// Python and Go conformance plugins (test/conformance/plugins, whose headers list the scenarios).
// A row names its point, its input (the scenario the plugins key on), the failure policy (which
// daemon), and the expected typed decision, decider, failure cause and audited outcome. The
// driver is suite.ts.
import { pluginMessage, snapshotJson, text, userMessage } from "@hookd/sdk";
import type { AgentDialect, AgentMessage, FailurePolicy, JsonValue, PostToolDecision, PreStepDecision, PreToolDecision, ToolResult } from "@hookd/sdk";
import { expect } from "vitest";

export const pluginName = (lang: string): string => `conformance-${lang}`;

/** Non-empty text: the failure-policy refusals word their reason as the daemon likes. */
export const someText = expect.stringMatching(/\S/) as unknown as string;
/** A refusal of a rewrite must say which plugin failed. */
const naming = (lang: string): string => expect.stringContaining(pluginName(lang)) as string;

export const TOOL_OUTPUT: ToolResult = { isError: false, value: "tool output", content: [text("tool output")], contexts: [] };

/** 2^63-1 and -2^63: a double rounds both; every hop (TypeScript, Python, Go, daemon) must not. */
export const INT64_MAX = 9223372036854775807n;
export const INT64_MIN = -9223372036854775808n;

interface RowBase {
  /** The scenario (tool points), the first message's text (pre-step) or the last assistant message's text (turn-stopping). */
  readonly input: string;
  readonly policy: FailurePolicy;
  /**
   * Who the trace must name: the plugin, or "default" when every plugin passed (fail-open counts
   * as a pass); "nobody" at a notification whose evaluation carries no trace.
   */
  readonly decidedBy: "plugin" | "default" | "nobody";
  /** The trace's failure cause; absent when the plugin answered. */
  readonly cause?: string;
  /** The call kills the plugin: afterwards the restarted plugin must answer again. */
  readonly restart?: true;
}
/** Rows of tool points: the call's arguments are `{ scenario: input, ...arguments }`. */
interface ToolRowBase extends RowBase {
  readonly arguments?: Readonly<Record<string, JsonValue>>;
}
export interface PreToolRow extends ToolRowBase {
  readonly point: "pre-tool";
  /** The ask goes to the approval waterfall first (the plugin passes there), then back to the agent. */
  readonly agentResolvesAsk?: true;
  decision(lang: string): PreToolDecision;
}
export interface PostToolRow extends ToolRowBase {
  readonly point: "post-tool";
  decision(lang: string): PostToolDecision;
  /** The result as the model should see it after the decision. */
  result(lang: string): ToolResult;
}
export interface PreStepRow extends RowBase {
  readonly point: "pre-step";
  decision(lang: string): PreStepDecision;
}
/** What a rewrite evaluation comes to: the effective call, or the refusal of a failed rewrite. */
export type RewriteOutcome =
  | { readonly kind: "call"; readonly arguments: JsonValue; readonly originalArgumentsJson: string | null; readonly rewrittenBy: readonly string[] }
  | { readonly kind: "deny"; readonly reason: string };
export interface RewriteRow extends ToolRowBase {
  readonly point: "rewrite";
  decision(lang: string): RewriteOutcome;
}
export interface ApprovalRow extends ToolRowBase {
  readonly point: "approval";
  decision(lang: string): { readonly kind: string; readonly reason?: string };
}
export interface TurnStoppingRow extends RowBase {
  readonly point: "turn-stopping";
  decision(lang: string): { readonly kind: "steer"; readonly messages: readonly AgentMessage[] } | { readonly kind: "pass" };
}
/** A notification that answers nothing: the row asserts what the plugin recorded it received. */
export interface RecordedRow extends RowBase {
  readonly point: "session-end" | "turn-end";
  readonly decidedBy: "nobody";
  /** The session is a subagent's (lineage: parentSessionId and agentType). */
  readonly subagent?: true;
  /** The plugin's record, besides point, sessionId and agentId. */
  decision(lang: string): Readonly<Record<string, JsonValue>>;
}
/**
 * agent-event: an agent's own event, sent with `input` as its name. The plugins subscribe with
 * the manifest matcher "Conformance*", so a row whose name it does not match calls nobody.
 */
export interface AgentEventRow extends RowBase {
  readonly point: "agent-event";
  readonly decidedBy: "nobody";
  readonly subagent?: true;
  readonly dialect: AgentDialect;
  /** The payload as the agent sent it. */
  readonly payloadJson: string;
  /** The plugin's record (besides point, sessionId and agentId), or undefined when it must not be called. */
  decision(lang: string): Readonly<Record<string, JsonValue>> | undefined;
}
export type Row = PreToolRow | PostToolRow | PreStepRow | RewriteRow | ApprovalRow | TurnStoppingRow | RecordedRow | AgentEventRow;
export type PointOfRow = Row["point"];

const contextFrom = (lang: string): AgentMessage => pluginMessage(pluginName(lang), `conformance: context from ${lang}`);
/** What a plugin contributed, sourced (by the daemon) to the plugin whatever source it wrote. */
const authoredBy = (lang: string, said: string): AgentMessage => pluginMessage(pluginName(lang), said);
export const claimed = (input: string): AgentMessage[] => [userMessage(input)];
/** A result with at least these fields. */
const resultWith = (fields: Readonly<Record<string, unknown>>): ToolResult => expect.objectContaining(fields) as ToolResult;
/** A refusal turns the result into a failure; its wording is the daemon's. */
const refusedResult = resultWith({ isError: true });

/** The arguments a tool row's call carries. */
export const argumentsOf = (row: { readonly input: string; readonly arguments?: Readonly<Record<string, JsonValue>> }): Record<string, JsonValue> => ({
  scenario: row.input,
  ...row.arguments,
});
/** A rewrite that left the call as the agent proposed it. */
const unchanged = (row: { readonly input: string; readonly arguments?: Readonly<Record<string, JsonValue>> }): RewriteOutcome => ({
  kind: "call",
  arguments: argumentsOf(row),
  originalArgumentsJson: null,
  rewrittenBy: [],
});
const rewritten = (lang: string, row: { readonly input: string; readonly arguments?: Readonly<Record<string, JsonValue>> }, effective: JsonValue): RewriteOutcome => ({
  kind: "call",
  arguments: effective,
  originalArgumentsJson: snapshotJson(argumentsOf(row)).text,
  rewrittenBy: [pluginName(lang)],
});

const PATCHED = { input: "patch", arguments: { drop: 1, nested: { kept: 1 } } } as const;
const BIG = { input: "big-int", arguments: { n: INT64_MAX, neg: INT64_MIN, ratio: 0.5 } } as const;
const REDACTED = "redact: the deploy key is SECRET-1234, keep it out of the model";

export const ROWS: readonly Row[] = [
  // pre-tool: the plugin decides
  { point: "pre-tool", input: "allow", policy: "fail-closed", decidedBy: "plugin", decision: () => ({ kind: "allow" }) },
  { point: "pre-tool", input: "deny", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "deny", reason: `conformance: denied by ${l}` }) },
  { point: "pre-tool", input: "ask", policy: "fail-closed", decidedBy: "plugin", agentResolvesAsk: true, decision: (l) => ({ kind: "ask", reason: `conformance: asked by ${l}` }) },
  { point: "pre-tool", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => ({ kind: "allow" }) },
  // pre-tool: faults, under both policies
  { point: "pre-tool", input: "hang", policy: "fail-closed", decidedBy: "plugin", cause: "deadline_exceeded", decision: () => ({ kind: "deny", reason: someText }) },
  { point: "pre-tool", input: "hang", policy: "fail-open", decidedBy: "default", cause: "deadline_exceeded", decision: () => ({ kind: "allow" }) },
  { point: "pre-tool", input: "crash", policy: "fail-closed", decidedBy: "plugin", cause: "crashed", restart: true, decision: () => ({ kind: "deny", reason: someText }) },
  { point: "pre-tool", input: "crash", policy: "fail-open", decidedBy: "default", cause: "crashed", restart: true, decision: () => ({ kind: "allow" }) },
  { point: "pre-tool", input: "garbage", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: () => ({ kind: "deny", reason: someText }) },
  { point: "pre-tool", input: "garbage", policy: "fail-open", decidedBy: "default", cause: "invalid_answer", decision: () => ({ kind: "allow" }) },
  { point: "pre-tool", input: "wrong-variant", policy: "fail-closed", decidedBy: "plugin", cause: "wrong_point", decision: () => ({ kind: "deny", reason: someText }) },
  { point: "pre-tool", input: "wrong-variant", policy: "fail-open", decidedBy: "default", cause: "wrong_point", decision: () => ({ kind: "allow" }) },
  // post-tool: the plugin decides
  {
    point: "post-tool", input: "block", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "block", feedback: `conformance: blocked by ${l}` }),
    result: (l) => resultWith({ isError: true, code: "blocked", content: [text(`conformance: blocked by ${l}`)] }),
  },
  {
    point: "post-tool", input: "replace", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "accept", content: [text(`conformance: replaced by ${l}`)] }),
    result: (l) => ({ ...TOOL_OUTPUT, content: [text(`conformance: replaced by ${l}`)] }),
  },
  {
    point: "post-tool", input: "value", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "accept", value: { replacedBy: l } }),
    result: (l) => resultWith({ isError: false, value: { replacedBy: l } }),
  },
  {
    point: "post-tool", input: "context", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "accept", additionalContexts: [contextFrom(l)] }),
    result: (l) => ({ ...TOOL_OUTPUT, contexts: [contextFrom(l)] }),
  },
  { point: "post-tool", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => ({ kind: "accept" }), result: () => TOOL_OUTPUT },
  // post-tool: forgery (a context claiming the user as its source is the plugin's)
  {
    point: "post-tool", input: "forge-context", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "accept", additionalContexts: [authoredBy(l, `conformance: forged by ${l}`)] }),
    result: (l) => ({ ...TOOL_OUTPUT, contexts: [authoredBy(l, `conformance: forged by ${l}`)] }),
  },
  // post-tool: faults
  { point: "post-tool", input: "invalid", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  { point: "post-tool", input: "invalid", policy: "fail-open", decidedBy: "default", cause: "invalid_answer", decision: () => ({ kind: "accept" }), result: () => TOOL_OUTPUT },
  { point: "post-tool", input: "hang", policy: "fail-closed", decidedBy: "plugin", cause: "deadline_exceeded", decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  { point: "post-tool", input: "crash", policy: "fail-closed", decidedBy: "plugin", cause: "crashed", restart: true, decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  { point: "post-tool", input: "garbage", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  { point: "post-tool", input: "wrong-variant", policy: "fail-closed", decidedBy: "plugin", cause: "wrong_point", decision: () => ({ kind: "block", feedback: someText }), result: () => refusedResult },
  // pre-step: the plugin decides
  { point: "pre-step", input: "inject the plugin's context", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "enter", messages: [...claimed("inject the plugin's context"), contextFrom(l)] }) },
  { point: "pre-step", input: "reject this step", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "reject", reason: `conformance: rejected by ${l}` }) },
  { point: "pre-step", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => ({ kind: "enter", messages: claimed("pass") }) },
  // pre-step: prompt rewrite. `enter` returns the whole batch; a message whose content the plugin
  // changed reaches the model as changed, sourced to the plugin.
  { point: "pre-step", input: REDACTED, policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "enter", messages: [authoredBy(l, REDACTED.replace("SECRET-1234", "[redacted]"))] }) },
  { point: "pre-step", input: "rewrite my prompt", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "enter", messages: [authoredBy(l, `conformance: prompt rewritten by ${l}`)] }) },
  // pre-step: forgery (a message the plugin sourced to another plugin is its own)
  {
    point: "pre-step", input: "forge a message from someone else", policy: "fail-closed", decidedBy: "plugin",
    decision: (l) => ({ kind: "enter", messages: [...claimed("forge a message from someone else"), authoredBy(l, `conformance: forged by ${l}`)] }),
  },
  // pre-step: faults
  { point: "pre-step", input: "hang", policy: "fail-closed", decidedBy: "plugin", cause: "deadline_exceeded", decision: () => ({ kind: "reject", reason: someText }) },
  { point: "pre-step", input: "hang", policy: "fail-open", decidedBy: "default", cause: "deadline_exceeded", decision: () => ({ kind: "enter", messages: claimed("hang") }) },
  { point: "pre-step", input: "garbage", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: () => ({ kind: "reject", reason: someText }) },
  { point: "pre-step", input: "wrong-variant", policy: "fail-closed", decidedBy: "plugin", cause: "wrong_point", decision: () => ({ kind: "reject", reason: someText }) },
  // rewrite: the plugin changes the arguments (or passes); the call records both
  { point: "rewrite", input: "replace", policy: "fail-closed", decidedBy: "plugin", decision: (l) => rewritten(l, { input: "replace" }, { scenario: "replace", rewrittenBy: l }) },
  { point: "rewrite", ...PATCHED, policy: "fail-closed", decidedBy: "plugin", decision: (l) => rewritten(l, PATCHED, { scenario: "patch", nested: { kept: 1, added: true }, patchedBy: l }) },
  { point: "rewrite", ...BIG, policy: "fail-closed", decidedBy: "plugin", decision: (l) => rewritten(l, BIG, { ...argumentsOf(BIG), rewrittenBy: l }) },
  { point: "rewrite", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => unchanged({ input: "pass" }) },
  // rewrite: faults. Fail-closed denies naming the plugin; fail-open keeps the agent's arguments.
  { point: "rewrite", input: "non-object", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: (l) => ({ kind: "deny", reason: naming(l) }) },
  { point: "rewrite", input: "non-object", policy: "fail-open", decidedBy: "default", cause: "invalid_answer", decision: () => unchanged({ input: "non-object" }) },
  { point: "rewrite", input: "patch-non-object", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: (l) => ({ kind: "deny", reason: naming(l) }) },
  { point: "rewrite", input: "invalid-json", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: (l) => ({ kind: "deny", reason: naming(l) }) },
  { point: "rewrite", input: "invalid-json", policy: "fail-open", decidedBy: "default", cause: "invalid_answer", decision: () => unchanged({ input: "invalid-json" }) },
  { point: "rewrite", input: "hang", policy: "fail-closed", decidedBy: "plugin", cause: "deadline_exceeded", decision: (l) => ({ kind: "deny", reason: naming(l) }) },
  { point: "rewrite", input: "hang", policy: "fail-open", decidedBy: "default", cause: "deadline_exceeded", decision: () => unchanged({ input: "hang" }) },
  { point: "rewrite", input: "crash", policy: "fail-closed", decidedBy: "plugin", cause: "crashed", restart: true, decision: (l) => ({ kind: "deny", reason: naming(l) }) },
  { point: "rewrite", input: "garbage", policy: "fail-closed", decidedBy: "plugin", cause: "invalid_answer", decision: (l) => ({ kind: "deny", reason: naming(l) }) },
  { point: "rewrite", input: "wrong-variant", policy: "fail-closed", decidedBy: "plugin", cause: "wrong_point", decision: (l) => ({ kind: "deny", reason: naming(l) }) },
  // approval: resolving an ask before the agent's own approver
  { point: "approval", input: "approve", policy: "fail-closed", decidedBy: "plugin", decision: () => ({ kind: "approve" }) },
  { point: "approval", input: "reject", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "reject", reason: `conformance: rejected by ${l}` }) },
  { point: "approval", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => ({ kind: "pass" }) },
  // turn-stopping: steering, and forged steering (sourced as the user) that is the plugin's
  { point: "turn-stopping", input: "steer", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "steer", messages: [authoredBy(l, `conformance: steered by ${l}`)] }) },
  { point: "turn-stopping", input: "forge-steer", policy: "fail-closed", decidedBy: "plugin", decision: (l) => ({ kind: "steer", messages: [authoredBy(l, `conformance: steered by ${l}`)] }) },
  { point: "turn-stopping", input: "pass", policy: "fail-closed", decidedBy: "default", decision: () => ({ kind: "pass" }) },
  // session-end and turn-end: the plugin received exactly the event (what it recorded)
  { point: "session-end", input: "session-end", policy: "fail-closed", decidedBy: "nobody", decision: () => ({ reason: "cleared", detail: "conformance: the history was cleared", turns: 2, parentSessionId: "", agentType: "" }) },
  {
    point: "session-end", input: "subagent session-end", policy: "fail-closed", decidedBy: "nobody", subagent: true,
    decision: () => ({ reason: "closed", detail: "conformance: the subagent finished", turns: 1, parentSessionId: "conformance-parent", agentType: "conformance-subagent" }),
  },
  { point: "turn-end", input: "turn-end", policy: "fail-closed", decidedBy: "nobody", decision: () => ({ turn: 3, outcome: "blocked", detail: "conformance: a pre-step plugin rejected", steps: 2, parentSessionId: "", agentType: "" }) },  // agent-event: observers subscribed by event name receive the envelope, the payload digit for digit
  {
    point: "agent-event", input: "ConformanceCompact", policy: "fail-closed", decidedBy: "nobody", dialect: "claude-code",
    payloadJson: `{"hook_event_name":"ConformanceCompact","tokens":${INT64_MAX},"note":"caf\u00e9 \ud83d\ude00"}`,
    decision: () => ({ dialect: "claude-code", eventName: "ConformanceCompact", payloadJson: `{"hook_event_name":"ConformanceCompact","tokens":${INT64_MAX},"note":"café 😀"}`, parentSessionId: "", agentType: "" }),
  },
  {
    point: "agent-event", input: "ConformanceModel", policy: "fail-open", decidedBy: "nobody", dialect: "gemini", subagent: true,
    payloadJson: `[${INT64_MIN},1.5,null,{"nested":{"deep":true}}]`,
    decision: () => ({ dialect: "gemini", eventName: "ConformanceModel", payloadJson: `[${INT64_MIN},1.5,null,{"nested":{"deep":true}}]`, parentSessionId: "conformance-parent", agentType: "conformance-subagent" }),
  },
  // The manifest's matcher is a whole-name glob: a name it does not match reaches nobody.
  { point: "agent-event", input: "PreCompact", policy: "fail-closed", decidedBy: "nobody", dialect: "codex", payloadJson: "{}", decision: () => undefined },
  { point: "agent-event", input: "XConformance", policy: "fail-closed", decidedBy: "nobody", dialect: "codex", payloadJson: "{}", decision: () => undefined },
];

/**
 * A gate plugin configured without points whose process exits before it serves. Fail-closed
 * never silently opens: the daemon still fails the gate point under the plugin's policy (its
 * config's override, else the point's fail-closed default).
 */
export interface UnreachableRow {
  readonly point: "pre-tool" | "pre-step";
  readonly policy: FailurePolicy;
  readonly decidedBy: "plugin" | "default";
  readonly decision: PreToolDecision | PreStepDecision;
}
export const UNREACHABLE_INPUT = "allow";
export const UNREACHABLE_ROWS: readonly UnreachableRow[] = [
  { point: "pre-tool", policy: "fail-closed", decidedBy: "plugin", decision: { kind: "deny", reason: someText } },
  { point: "pre-tool", policy: "fail-open", decidedBy: "default", decision: { kind: "allow" } },
  { point: "pre-step", policy: "fail-closed", decidedBy: "plugin", decision: { kind: "reject", reason: someText } },
];
