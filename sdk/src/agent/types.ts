// The agent client's public types: what an agent supplies to a hosted session (its handlers), what
// the session reports back (turn ends, events, problems) and what the evaluate calls answer.
// Types only; the behaviour lives in session.ts, handlers.ts and evaluate.ts.
import type { ChannelCredentials, ChannelOptions } from "@grpc/grpc-js";
import type { StatusError } from "../grpc/status.js";
import type { EvaluateRetryOptions } from "./evaluate-retry.js";
import type { TurnEndOutcome } from "../points/turn-end.js";
import type { AgentMessage, ContentBlock, DecisionTrace, ToolCall, ToolDefinitionInfo, ToolResult } from "../types.js";

export interface ConnectOptions {
  /** Sent on every call as `authorization: Bearer <token>`. */
  readonly token?: string;
  /**
   * The agent's identity: sent on every call as `x-hookd-agent` metadata (a balancer can pin on
   * it; with a token, the daemon refuses one that is not the token's agent) and as
   * OpenSession.agent_id. Without tokens it is the identity.
   */
  readonly agentId?: string;
  /** grpc-js channel options, e.g. keepalive settings or "grpc.lb_policy_name". */
  readonly channelOptions?: ChannelOptions;
  /**
   * A gRPC service config (the JSON object, not text), e.g.
   * `{ loadBalancingConfig: [{ round_robin: {} }] }` to spread calls over every address a
   * `dns:///` target resolves to (a Kubernetes headless Service). Sent as "grpc.service_config".
   */
  readonly serviceConfig?: Readonly<Record<string, unknown>>;
  /** How a hosted session whose stream breaks is resumed on a new stream. */
  readonly reconnect?: ReconnectOptions;
  /** Default: insecure, for Unix sockets and loopback. */
  readonly credentials?: ChannelCredentials;
  /**
   * How the evaluate calls travel. "stream" (the default): one HookHost.Evaluate stream, opened
   * on the first call and shared by every call, each with its own deadline and cancel; against a
   * daemon without it (UNIMPLEMENTED) the client goes unary and stays so. "unary": one RPC per call.
   */
  readonly evaluateTransport?: "stream" | "unary";
  /**
   * How an evaluate call refused RESOURCE_EXHAUSTED (the daemon is at its limit) or failed
   * UNAVAILABLE is tried again, with jittered backoff within its deadline; on by default, `false`
   * turns it off. Hosted sessions resume by `reconnect` instead.
   */
  readonly evaluateRetry?: EvaluateRetryOptions | false;
  /**
   * A W3C trace context (`00-<trace id>-<span id>-<flags>`) sent as `traceparent` metadata on
   * every call: with tracing on, the daemon's decision spans become its children (docs/tracing.md).
   */
  readonly traceparent?: string;
}

/**
 * A broken Session stream (whatever its status: through a proxy an RST_STREAM reads INTERNAL) is
 * followed by a resume on a new stream, after a backoff that doubles from `initialBackoffMs` up to
 * `maxBackoffMs` (jittered), at most `maxAttempts` times (0: never). NOT_FOUND (the daemon does
 * not hold the session), UNAUTHENTICATED, PERMISSION_DENIED, INVALID_ARGUMENT and UNIMPLEMENTED
 * end the session at once. Defaults: 5 attempts, 100 ms, 5 s.
 */
export interface ReconnectOptions {
  readonly maxAttempts?: number;
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
}

/** A prompt's content: text, or content blocks. Must not be empty. */
export type PromptContent = string | readonly ContentBlock[];

export interface OpenSessionOptions {
  /** Chosen by the agent; unique for that agent. */
  readonly sessionId: string;
  /** Default "startup"; "subagent" requires `parentSessionId`. */
  readonly source?: "startup" | "resume" | "subagent";
  readonly cwd?: string;
  readonly tools: readonly AgentTool[];
  /**
   * For a subagent: the session of this same agent that started it (open or resumable). Every
   * event of the child carries it; the daemon refuses a parent it does not know for this agent.
   */
  readonly parentSessionId?: string;
  /** This session's W3C trace context, sent when its stream opens (else the client's `traceparent`). */
  readonly traceparent?: string;
  /** The kind of agent running the session (e.g. the subagent's type). */
  readonly agentType?: string;
}

/**
 * A tool the agent offers. With `finalize` it owns the seed's final content boundary: the daemon
 * asks once per call, after every policy phase, with the normalized candidate (failures
 * included: a deny, a blocked or thrown call all reach it), and the answer may replace the
 * content only. `finalizesContent` is sent as `finalize !== undefined`.
 */
export interface AgentTool extends ToolDefinitionInfo {
  readonly finalize?: (input: FinalizeInput) => FinalizeAnswer | Promise<FinalizeAnswer>;
}

/** Replacement content, or undefined to keep the candidate's. */
export type FinalizeAnswer = readonly ContentBlock[] | undefined;

export interface FinalizeInput {
  readonly call: ToolCall;
  /** The normalized result the model would see; its isError, error identity, contexts and metadata are final. */
  readonly candidate: ToolResult;
  /** How long the daemon waits, in milliseconds; past it the content is kept. */
  readonly deadlineMs: number;
  /** Aborted at the local deadline, when the turn ends, or when the session stream ends. */
  readonly signal: AbortSignal;
}

/** Why the agent ends a session, as session-end plugins are told: closed, or its history cleared. */
export type CloseReason = "closed" | "cleared";

/** A tool call as the model proposed it: arguments as a value (sent as lossless JSON) or as JSON text (sent as is). */
export type ProposedToolCall = {
  /** The agent's own id for the call (e.g. the model's tool_use id); unique within the session. */
  readonly callId: string;
  readonly toolName: string;
} & (
  | { readonly arguments: unknown; readonly argumentsJson?: never }
  /** Sent untouched: text that is not JSON becomes the call's failure in the daemon, not a turn error. */
  | { readonly argumentsJson: string; readonly arguments?: never }
);

export interface StepInput {
  readonly turn: number;
  readonly step: number;
  /** The entered batch of this step (after the plugins that see each step), deep-frozen. */
  readonly messages: readonly AgentMessage[];
  /** Aborted when the turn ends (cancelled, or ended by the daemon) or the session stream ends. */
  readonly signal: AbortSignal;
}

export interface StepOutput {
  readonly assistant: AgentMessage;
  /** In model order; none means the model reached its natural stop. */
  readonly toolCalls: readonly ProposedToolCall[];
}

export type ApprovalAnswer = "allowed-once" | "rejected" | "cancelled";

export interface ApprovalInput {
  readonly call: ToolCall;
  /** The asking plugin's question. */
  readonly reason: string;
  readonly askedBy: string;
  /** How long the daemon waits, in milliseconds; 0 when the daemon did not say. */
  readonly deadlineMs: number;
  /** Aborted at the local deadline, when the turn ends, or when the session stream ends. */
  readonly signal: AbortSignal;
}

export interface AgentHandlers {
  /** One model step. A rejection becomes StepReply.error: the turn ends with reason "error" and the message. */
  readonly runStep: (input: StepInput) => Promise<StepOutput>;
  /**
   * A sealed call's tool body. Resolve with a ToolResult (an object with a boolean `isError`,
   * see toolSuccess/toolFailure) or any other JSON value, which becomes a success with that
   * value (undefined: null). A rejection becomes a failure with code "tool_error". Dispatches
   * run concurrently: the daemon overlaps concurrency-safe tools.
   */
  readonly dispatch: (call: ToolCall, signal: AbortSignal) => Promise<unknown>;
  /**
   * Resolves a plugin's `ask`. Only "allowed-once" lets the call continue. A rejection, or an
   * answer that is none of the outcomes, is answered "cancelled" with the error as the note.
   * When absent, every ask is answered "cancelled" at once with the note "agent has no
   * approver", so the call is denied (the reason says the agent has no approver) without
   * waiting for the daemon's deadline. Approval plugins answer first: the agent is asked only
   * when every one of them passed.
   */
  readonly approve?: (input: ApprovalInput) => Promise<ApprovalAnswer | { readonly outcome: ApprovalAnswer; readonly note?: string }>;
  /** Called synchronously for every event, in stream order. A throw is contained (kept in `problems`). */
  readonly onEvent?: (event: SessionEvent) => void;
}

/** @deprecated The turn-end point's `TurnEndOutcome`, the one vocabulary of turn ends (a cancelled turn was "aborted" before). */
export type TurnEndReason = TurnEndOutcome;

export interface TurnEnd {
  /** 0 for a follow-up that never ran (the session closed first). */
  readonly turn: number;
  readonly reason: TurnEndOutcome;
  /** The reject reason, the error text, the cancel reason or the cap; "" when completed. */
  readonly detail: string;
  readonly steps: number;
}

export interface SessionOpenedInfo {
  readonly sessionId: string;
  /** True when an existing session was continued. */
  readonly resumed: boolean;
  /**
   * Always empty. Session-start contexts are delivered once, at the head of the first step's
   * batch (StepInput.messages), where the model sees them.
   * @deprecated read them from the first step's messages.
   */
  readonly contexts: readonly AgentMessage[];
  /** How often each side sends a Heartbeat on an idle stream (the client does so itself); 0: none. */
  readonly heartbeatIntervalMs: number;
  /** The daemon instance holding the session, when the daemon says ("" otherwise). */
  readonly instanceId: string;
}


/**
 * A mistake the session survived. `origin: "daemon"` is a Problem frame the daemon sent;
 * `origin: "agent"` is something this client could not use (a malformed frame, a TurnEnded that
 * matched no follow-up) or a contained failure of onEvent.
 */
export interface SessionProblem {
  readonly origin: "daemon" | "agent";
  /** A gRPC status code name, e.g. "INVALID_ARGUMENT". */
  readonly code: string;
  readonly message: string;
  readonly requestId?: string;
}

export type SessionEvent =
  | { readonly type: "opened"; readonly opened: SessionOpenedInfo }
  | { readonly type: "turn-started"; readonly turn: number }
  /** A tool call's final result, as the model will see it. */
  | { readonly type: "tool-result"; readonly call: ToolCall; readonly result: ToolResult; readonly trace: DecisionTrace }
  /** Context messages appended to the session after a batch of tool calls settled. */
  | { readonly type: "context"; readonly messages: readonly AgentMessage[] }
  | { readonly type: "turn-ended"; readonly end: TurnEnd }
  | { readonly type: "problem"; readonly problem: SessionProblem }
  /**
   * The stream broke: pending follow-ups rejected with `error`, handlers aborted (the daemon
   * aborts the running turn too); the client is resuming the session on a new stream.
   */
  | { readonly type: "disconnected"; readonly error: StatusError }
  /** A new stream resumed the session after `attempts` tries; follow-ups can be sent again. */
  | { readonly type: "reconnected"; readonly opened: SessionOpenedInfo; readonly attempts: number };

/**
 * One hosted session, over one Session stream at a time: a broken stream is resumed on a new one
 * (ConnectOptions.reconnect). Rejections are StatusErrors.
 */
export interface HostedSession {
  readonly sessionId: string;
  /** Resolves on SessionOpened; rejects with the stream's status if it ends first. */
  readonly opened: Promise<SessionOpenedInfo>;
  /**
   * A new user request; the daemon runs one turn per follow-up, in order. Resolves when that turn
   * ends. Rejects with the stream's error status, or UNAVAILABLE when the daemon ended the stream
   * cleanly first; after close() or detach() a pending follow-up resolves as aborted instead.
   */
  followUp(content: PromptContent): Promise<TurnEnd>;
  /** Guidance for the running turn, drained at the top of its next step. Resolves once sent. */
  steer(content: PromptContent): Promise<void>;
  /** Context for the running turn's next step. Resolves once sent. */
  inject(content: PromptContent): Promise<void>;
  /** Cancels the running turn (it ends "cancelled"). Resolves once sent. */
  cancel(reason?: string): Promise<void>;
  /**
   * Sends CloseSession with `reason` (default "closed"; the session cannot be resumed),
   * half-closes, and waits for `ended`.
   */
  close(reason?: CloseReason): Promise<void>;
  /** Ends the stream without CloseSession (the session stays resumable) and waits for `ended`. */
  detach(): Promise<void>;
  /**
   * Resolves (never rejects) once the session's last stream is over and every handler settled:
   * with the error status it ended with (NOT_FOUND when a resume found the session gone; the
   * last status when the reconnect attempts ran out), or undefined for a clean end (close and
   * detach included).
   */
  readonly ended: Promise<StatusError | undefined>;
  /** Every problem so far, in order. */
  readonly problems: readonly SessionProblem[];
}

export type { EvaluateOptions } from "../points/define.js";
