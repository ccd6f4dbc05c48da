// What hookd knows about one agent, as one contract every agent folder implements: its event
// table, how its hook payload is read into a hookd event and how a decision is written back as
// its answer, its hooks-file format, how its command hooks' output is read and merged, what a
// forwarder prints, and its tool kinds. The mechanisms (the HTTP endpoint, the forwarders, the
// command kind, the lifecycle dispatcher) read only this; none of them names an agent.
import type { AgentEventEvent, AgentMessage, ApprovalDecision, FailurePolicy, JsonObject, JsonValue, Pass, PointName, PostToolDecision, PreStepDecision, PreToolDecision, SessionInfo, ToolCall, ToolResult, TurnStoppingDecision, UserNotice } from "@hookd/sdk";
import type { EventOf } from "../engine/listener.js";
import type { HookErrorKind, RunResult } from "../processes/hook-run.js";
import type { Body } from "./body.js";
import type { ToolTable } from "./tool-kinds.js";

export type { Body } from "./body.js";

/** The JSON an agent's hook prints (or the endpoint answers). Plain data; `{}` is no opinion. */
export type HookAnswer = { readonly [key: string]: unknown };

/** The points a command hook can fire at with an answer (agent-event has its own observer). */
export type CommandPoint = "session-start" | "pre-step" | "rewrite" | "pre-tool" | "approval" | "post-tool" | "turn-stopping" | "session-end" | "turn-end";

/** What the agent said about the session that no typed event has a field for. */
export interface PassThrough {
  readonly transcriptPath?: string;
  readonly permissionMode?: string;
  readonly model?: string;
}

/** The points an agent's hook request can drive, besides the generic agent-event. */
type RequestPoint = "session-start" | "pre-step" | "pre-tool" | "approval" | "post-tool" | "turn-stopping" | "session-end" | "turn-end";

/**
 * An agent's hook request read into the hookd event of the point it drives (pre-tool: the rewrite
 * chain, then pre-tool on the effective call); an event without a typed point keeps its whole
 * payload, lossless, for the generic point.
 */
export type TypedRequest =
  | { readonly [P in RequestPoint]: { readonly point: P; readonly data: EventOf<P> } & (P extends "pre-step" ? { readonly prompt: string } : unknown) }[RequestPoint]
  | { readonly point: "agent-event"; readonly payload: Body };

/** `event` is the agent's own event name (hook_event_name). */
export type HookRequest = TypedRequest & { readonly event: string; readonly session: SessionInfo; readonly passThrough: PassThrough };

export interface RequestContext {
  readonly agentId: string;
  /** The event the URL or a header names, if any: it must agree with hook_event_name. */
  readonly expectedEvent?: string;
  /** Steered continuations this session already had, given the stop's stop_hook_active. */
  readonly steeredContinuations: (sessionId: string, stopHookActive: boolean) => number;
}

/** hookd's verdict on a proposed call: the rewrite chain's result and pre-tool's decision. */
export interface PreToolVerdict {
  readonly decision: PreToolDecision;
  readonly decidedBy: string;
  /** The call as the agent proposed it. */
  readonly proposed: ToolCall;
  /** The call as the rewrite chain left it (the proposed one when nobody rewrote it). */
  readonly effective: ToolCall;
  /** The deciding plugin's config lets its allow bypass the agent's own permission rules. */
  readonly bypass: boolean;
}

/** hookd's evaluation results to the agent's answer, one writer per point an agent waits on. */
export interface AnswerWriter {
  readonly sessionStart: (contexts: readonly AgentMessage[], event: string) => HookAnswer;
  readonly preStep: (decision: PreStepDecision) => HookAnswer;
  readonly preTool: (verdict: PreToolVerdict) => HookAnswer;
  readonly approval: (decision: ApprovalDecision | Pass) => HookAnswer;
  readonly postTool: (decision: PostToolDecision, result: ToolResult, call: ToolCall, decidedBy: string, event: string) => HookAnswer;
  readonly stop: (decision: TurnStoppingDecision | Pass, capped: boolean) => HookAnswer;
  /** Any point's answer with what the plugins said to the user (a message, a stop request), in the agent's fields. */
  readonly notice: (answer: HookAnswer, notice: UserNotice) => HookAnswer;
}

export interface FittedAnswer {
  readonly answer: HookAnswer;
  /** The fields removed, as paths ("hookSpecificOutput.updatedToolOutput"). */
  readonly dropped: readonly string[];
}

/** What a forwarding command prints for an answer, and its exit code (0: stdout, 2: stderr). */
export interface ForwardedOutput {
  readonly exitCode: 0 | 2;
  readonly text: string;
}

/** What the agent told hookd about a session beyond SessionInfo (the request's PassThrough), passed to hooks when known. */
export type PayloadExtras = PassThrough;

/** One hook of a hooks file, as the agent would run it. */
export interface HookSpec {
  /** Where the hook sits in the file, e.g. "PreToolUse[0].hooks[1]": its name in logs and audits. */
  readonly id: string;
  readonly event: string;
  readonly command: string;
  /** The timeout the agent would give it. */
  readonly timeoutMs: number;
  /** Whether a timeout was written in the file (a longer one than hookd's budget is warned about). */
  readonly ownTimeout: boolean;
  /** The hook's own environment additions. */
  readonly env: Readonly<Record<string, string>>;
  /** The agent's de-duplication key: hooks with the same key run once per firing. */
  readonly key: string;
}

export interface HookGroup {
  readonly event: string;
  readonly index: number;
  /** The matcher as written (absent when the group has none). */
  readonly matcher: string | undefined;
  readonly matches: (input: string) => boolean;
  /** The group's hooks run one after another, each seeing what the previous one changed. */
  readonly sequential: boolean;
  readonly hooks: readonly HookSpec[];
}

export interface HooksModel {
  readonly dialect: string;
  /** Groups per event, in file order: events with a typed point and those run at agent-event alike. */
  readonly groups: { readonly [event: string]: readonly HookGroup[] };
  /** What is accepted but never run, one line each (shown by `hookd check`). */
  readonly notes: readonly string[];
}

export type PermissionDecision = "allow" | "deny" | "ask";

export type { HookErrorKind } from "../processes/hook-run.js";

/** One hook run read by its agent's output contract. */
export interface HookResult {
  readonly hook: string;
  readonly event: string;
  /** ok: the hook answered (possibly nothing); error: a non-blocking error, see `error`. */
  readonly status: "ok" | "error";
  /** The agent uses this failed hook's answer all the same (Gemini CLI does). */
  readonly answersWhenFailed?: boolean;
  /** A block of the event (exit 2, `decision: "block"` / "deny"): the reason, never empty. */
  readonly block?: string;
  /** The pre-tool event only: the permission asked for. */
  readonly permission?: PermissionDecision;
  readonly permissionReason?: string;
  /** `continue: false`: the agent must stop; stopReason when given. */
  readonly stop?: { readonly reason?: string };
  readonly systemMessage?: string;
  readonly contexts: readonly string[];
  /** The pre-tool event only: the hook's new tool input (whole or a patch, as the agent applies it). */
  readonly updatedInput?: JsonValue;
  /** The post-tool event only: the tool output the hook gave in place of the tool's (what the model sees instead). */
  readonly updatedOutput?: JsonValue;
  /** The approval event only: allow or deny, and its message. */
  readonly approval?: { readonly behavior: "allow" | "deny"; readonly message?: string };
  /** Fields the hook sent that had no effect, one line each. */
  readonly notes: readonly string[];
  readonly error?: { readonly kind: HookErrorKind; readonly message: string };
  readonly exitCode?: number;
  readonly durationMs: number;
  /** Raw output (bounded by the runner), for the audit. */
  readonly stdout?: string;
  readonly stderr?: string;
}

/** Where an event's hooks run and what their matchers are matched against. */
export interface EventSpec {
  /** The point the event fires at; "agent-event" for an event without a typed point. */
  readonly point: PointName;
  /**
   * What a group's matcher is matched against: "tool" (the tool name), "trigger" (a firing's own
   * match value), "field:<name>" (an observed payload's field), "file-name" (the base name of
   * `file_path`), "tool-calls" (any of `tool_calls[].tool_name`), "none" (every hook runs).
   */
  readonly matchOn: string;
  /** The matcher's syntax: "names" (an exact name or list, else a regex) or "regex". */
  readonly names?: boolean;
}

/** One firing of a hook event: the event, its hookd data, the text a matcher is matched against. */
export interface Firing {
  readonly event: string;
  readonly data: unknown;
  /** The pre-step event's prompt. */
  readonly prompt?: string;
  /** What the event's matchers are matched against ("" when the event has no matcher). */
  readonly matchValue: string;
}

/** How an agent's command hooks are written, run and read. */
export interface CommandHooks {
  /** Validates a parsed hooks file. Throws HookdError("invalid_plugin") naming the bad entry. */
  readonly parse: (value: unknown, source: string) => HooksModel;
  /** The event each of the agent's hook events is, and where it runs. */
  readonly events: { readonly [event: string]: EventSpec };
  /** The hook events that may fire at a point, in the order a firing picks among them. */
  readonly eventsAtPoint: Partial<Record<PointName, readonly string[]>>;
  /** The firing for a point's event, or undefined when the agent fires no hook event for it. */
  readonly firing: (point: CommandPoint, data: unknown) => Firing | undefined;
  /** The stdin text of one firing. */
  readonly payload: (firing: Firing, extras: PayloadExtras) => string;
  /** The stdin text of an observed event: the agent's own payload, its common fields filled in. */
  readonly observedPayload: (event: AgentEventEvent, extras: PayloadExtras) => string;
  /** The environment the agent gives its hooks (project dir and the like). */
  readonly env: (cwd: string, session: SessionInfo) => Readonly<Record<string, string>>;
  /** `${VAR}` references in a command the agent substitutes itself. */
  readonly substitutes?: readonly string[];
  /** One finished run read by the agent's output contract. Total. */
  readonly interpret: (run: RunResult, hook: Pick<HookSpec, "id" | "event">) => HookResult;
  /** The tool input after a hook's updatedInput: the whole new input, or a patch over the old. */
  readonly applyInput: (args: JsonObject, input: JsonObject) => JsonObject;
  /** The reasons of one rank are joined with this. */
  readonly reasonSeparator: string;
  /** A hook's non-blocking error, when the config sets no failurePolicy. */
  readonly defaultFailurePolicy: FailurePolicy;
  /** The pre-tool event's updatedInput counts only beside an allow (Codex). */
  readonly updatedInputNeedsAllow?: boolean;
  /** What the agent itself tells the model when a hook denies or stops without a reason. */
  readonly blockedWithoutReason: string;
}

/** Everything hookd knows about one agent. */
export interface AgentDialect {
  /** Its name in config, headers and the CLI: the proto enum's value name in kebab case (AGENT_DIALECT_QWEN_CODE: qwen-code). */
  readonly name: string;
  /** The agent's product name, for docs and messages. */
  readonly title: string;
  /**
   * The URL's (or forwarder's) event name wins over a hook_event_name in the body: the agent's
   * payloads name no event, and the one that does names it otherwise (Copilot CLI's
   * notification says "Notification").
   */
  readonly eventFromUrl?: boolean;
  /** Reads a hook request body whose event is known. Throws a field error naming the field. */
  readonly readRequest: (event: string, body: Body, context: RequestContext) => HookRequest;
  readonly answers: AnswerWriter;
  /** The answer with only the fields the agent accepts at `event`. */
  readonly fit: (answer: HookAnswer, event: string) => FittedAnswer;
  /** What a forwarding command prints and exits with. */
  readonly forwarded: (answer: HookAnswer) => ForwardedOutput;
  /** A warning for an observed event whose hook performs the agent's action itself. */
  readonly observedWarning?: (event: string) => string | undefined;
  readonly commandHooks: CommandHooks;
  /** Its tool names' kinds and which argument is the command or the path. */
  readonly tools: ToolTable;
  /**
   * For an agent whose hooks are in-process code: the package hookd ships for it, which sends its
   * events over gRPC. Such an agent has no hook requests and no hooks file (agents/in-process.ts).
   */
  readonly integration?: string;
}

/** The hooks that gave a decision, for the audit and logs (never for the model: see blockedWithoutReason). */
export function hooksOf(plugin: string, by: readonly string[]): string {
  return `command hook ${by.join(", ")} of ${plugin}`;
}
