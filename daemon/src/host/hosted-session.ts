// One hosted-loop session: an EngineSession whose model steps, tool bodies and approvals are
// requests to the agent on its stream, and whose events become frames back to it. The stream
// can come and go (disconnect, resume); the session outlives it until closed or expired.
// Owns the requests and replies of one session; events as frames are session-relay.ts's, and
// opening, identity and limits live in session-store.ts.
import { HookdError, assistantMessage } from "@hookd/sdk";
import { fromProtoContentBlock, fromProtoMessage, fromProtoToolResult, toProtoMessage, toProtoToolCall } from "@hookd/sdk/internal";
import type { AgentMessage, ContentBlock, SessionEndReason, SessionInfo, SessionSource, ToolCall, ToolDefinitionInfo, ToolResult } from "@hookd/sdk";
import { NO_APPROVER, pb } from "@hookd/sdk/internal";
import { EventBus } from "../engine/events.js";
import { EngineSession } from "../engine/loop/index.js";
import type { ModelStep, ToolBatchRunner } from "../engine/loop/index.js";
import { runToolBatch, toolLookup } from "../engine/pipeline/index.js";
import type { ApprovalAnswer, ApprovalOutcome, ApprovalSeam, ToolLookup, ToolSpec } from "../engine/pipeline/index.js";
import type { PluginRegistry } from "../engine/registry.js";
import type { DecisionTracer, TraceContextHeaders, Tracing } from "../engine/tracing.js";
import type { Logger } from "../log.js";
import { agentFinalize } from "./finalize-request.js";
import { PendingRequests } from "./pending.js";
import { SessionRelay } from "./session-relay.js";
import type { AgentStream } from "./session-relay.js";
import { readStepToolCalls } from "./tool-calls.js";

export type { AgentStream } from "./session-relay.js";

export interface HostedSessionLimits {
  readonly maxSteeredContinuations: number;
  readonly maxStepsPerTurn: number;
  readonly pointBudgetMs: number;
  /** The bound of session-end (defaults.sessionEndBudgetMs). */
  readonly sessionEndBudgetMs: number;
  readonly toolConcurrency: number;
  readonly approvalTimeoutMs: number;
  /** How long a tool's finalize boundary may take at the agent before its content is kept. */
  readonly finalizeTimeoutMs: number;
}

export interface HostedSessionDeps {
  readonly registry: () => PluginRegistry;
  /** The daemon-wide bus (audit, metrics, tail); every session event is forwarded to it. */
  readonly bus: EventBus;
  readonly limits: HostedSessionLimits;
  readonly log: Logger;
  /** Set when tracing is on: the session's decisions are spans under its stream's trace context. */
  readonly tracing?: Tracing;
}

const APPROVAL_OUTCOME: Partial<Record<pb.ApprovalOutcome, ApprovalOutcome>> = {
  [pb.ApprovalOutcome.ALLOWED_ONCE]: "allowed-once",
  [pb.ApprovalOutcome.REJECTED]: "rejected",
  [pb.ApprovalOutcome.CANCELLED]: "cancelled",
};

export class HostedSession {
  readonly info: SessionInfo;
  readonly engine: EngineSession;
  readonly #deps: HostedSessionDeps;
  readonly #bus = new EventBus();
  readonly #pending = new PendingRequests();
  readonly #relay = new SessionRelay();
  #stream: AgentStream | undefined;
  #started: Promise<readonly AgentMessage[]> | undefined;
  #lastActive = Date.now();
  /** Bound at each attach to the stream's trace context; kept after a detach for the end points. */
  #tracer: DecisionTracer | undefined;

  constructor(info: SessionInfo, source: SessionSource, tools: readonly ToolDefinitionInfo[], deps: HostedSessionDeps) {
    this.info = info;
    this.#deps = deps;
    // Built at the first tool batch: an idle session holds no lookup map (memory per session, bench/README.md).
    let lookup: ToolLookup | undefined;
    const runTools: ToolBatchRunner = async (calls, ctx) => {
      lookup ??= toolLookup(tools.map((tool) => this.#toolSpec(tool)));
      const outcome = await runToolBatch(
        {
          env: {
            registry: deps.registry(),
            bus: this.#bus,
            signal: ctx.signal,
            pointBudgetMs: deps.limits.pointBudgetMs,
            sessionEndBudgetMs: deps.limits.sessionEndBudgetMs,
            scope: this.#scope(ctx.turn, ctx.step),
            trace: this.#tracer,
          },
          session: ctx.session,
          tools: lookup,
          dispatch: (call, signal) => this.#dispatch(call, signal),
          approval: this.approvalSeam,
          maxConcurrency: deps.limits.toolConcurrency,
          onCommitted: (committed) => ctx.commitContexts(committed.result.contexts),
        },
        calls,
      );
      return outcome;
    };
    this.engine = new EngineSession({
      info,
      source,
      tools,
      runStep: this.#runStep,
      runTools,
      registry: deps.registry,
      bus: this.#bus,
      limits: {
        maxSteeredContinuations: deps.limits.maxSteeredContinuations,
        maxStepsPerTurn: deps.limits.maxStepsPerTurn,
        pointBudgetMs: deps.limits.pointBudgetMs,
        sessionEndBudgetMs: deps.limits.sessionEndBudgetMs,
      },
      log: (message) => deps.log.warn(message, { session: info.sessionId, agent: info.agentId }),
      ...(deps.tracing === undefined ? {} : { trace: () => this.#tracer }),
    });
    this.#bus.subscribe((event) => {
      deps.bus.emit(event);
      this.#relay.relay(event, this.#stream);
    });
  }

  get attached(): boolean {
    return this.#stream !== undefined;
  }

  /** Since when nothing happened (no frame, no turn running or queued); undefined while busy. */
  get idleSince(): number | undefined {
    if (this.engine.runningTurn !== undefined || this.engine.pending.followUps > 0) return undefined;
    return this.#lastActive;
  }

  /** Runs the session's start notification once; later calls return the same contexts. */
  start(): Promise<readonly AgentMessage[]> {
    this.#started ??= this.engine.start();
    return this.#started;
  }

  /** `trace`: the stream's W3C trace context, the parent of the session's decision spans while it is attached. */
  attach(stream: AgentStream, trace?: TraceContextHeaders): void {
    if (this.#stream !== undefined) throw new HookdError("internal", "session already has a stream");
    this.#stream = stream;
    this.#tracer = this.#deps.tracing?.under(trace);
    this.#lastActive = Date.now();
  }

  /** The agent went away: its running turn is aborted and its outstanding requests fail. */
  detach(reason: string): void {
    if (this.#stream === undefined) return;
    this.#stream = undefined;
    this.engine.cancel(reason);
    this.#pending.rejectAll(reason);
  }

  /** Ends the session for good; session-end plugins are told `ending`, with `reason` as the detail. */
  async close(reason: string, ending: SessionEndReason): Promise<void> {
    this.detach(reason);
    await this.engine.close(reason, ending);
  }

  /** Handles one frame after `open`. Mistakes the session survives become Problem frames. */
  handle(frame: pb.SessionRequest["frame"]): void {
    this.#lastActive = Date.now();
    switch (frame.case) {
      case "prompt":
        return this.#prompt(frame.value);
      case "cancel":
        this.engine.cancel(frame.value.reason || "cancelled by the agent");
        return;
      case "stepReply":
        return this.#reply("step", frame.value.requestId, frame.value, "step_reply");
      case "dispatchReply":
        return this.#reply("dispatch", frame.value.requestId, frame.value, "dispatch_reply");
      case "approvalReply":
        return this.#reply("approval", frame.value.requestId, frame.value, "approval_reply");
      case "finalizeReply":
        return this.#reply("finalize", frame.value.requestId, frame.value, "finalize_reply");
      case "open":
        return this.problem("FAILED_PRECONDITION", "open: the session is already open on this stream");
      case "heartbeat":
        return; // the stream's keepalive (host-service.ts drops it before here)
      case "close":
      case undefined:
        return this.problem("INVALID_ARGUMENT", "frame: no frame set");
    }
  }

  problem(code: string, message: string, requestId = ""): void {
    this.#deps.log.info("agent protocol problem", { session: this.info.sessionId, agent: this.info.agentId, code, problem: message });
    this.#stream?.send({ case: "problem", value: { code, message, requestId } });
  }

  /**
   * The approval seam: ask the attached agent, within the approval timeout. The agent's note is
   * kept for the denial reason; an agent that says it has no approver is not a cancellation.
   */
  readonly approvalSeam: ApprovalSeam = async (request): Promise<ApprovalAnswer> => {
    if (this.#stream === undefined) return "unavailable";
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(new HookdError("deadline_exceeded", "approval timed out")), this.#deps.limits.approvalTimeoutMs);
    try {
      const { id, reply } = this.#pending.open<pb.ApprovalReply>("approval", AbortSignal.any([request.signal, timeout.signal]));
      this.#stream.send({
        case: "approvalRequest",
        value: { requestId: id, call: toProtoToolCall(request.call), reason: request.reason, askedBy: request.askedBy, deadlineMs: this.#deps.limits.approvalTimeoutMs },
      });
      const answer = await reply;
      if (answer.outcome === pb.ApprovalOutcome.CANCELLED && answer.note === NO_APPROVER) return "no-approver";
      return { outcome: APPROVAL_OUTCOME[answer.outcome] ?? "rejected", note: answer.note };
    } catch {
      return timeout.signal.aborted ? "timed-out" : "cancelled";
    } finally {
      clearTimeout(timer);
    }
  };

  #prompt(prompt: pb.Prompt): void {
    const content = prompt.content.map((block, index) => this.#block(block, `prompt.content[${index}]`));
    if (content.some((block) => block === undefined)) return;
    const blocks = content as ContentBlock[];
    try {
      switch (prompt.kind) {
        case pb.PromptKind.FOLLOW_UP:
          // The turn's end is reported through the bus (TurnEnded); the promise needs no handler.
          this.engine.followUp(blocks).catch((error: unknown) => this.problem("INTERNAL", `follow-up failed: ${String(error)}`));
          return;
        case pb.PromptKind.STEER:
          this.engine.steer(blocks);
          return;
        case pb.PromptKind.INJECT:
          this.engine.inject(blocks);
          return;
        default:
          this.problem("INVALID_ARGUMENT", "prompt.kind: expected FOLLOW_UP, STEER or INJECT");
      }
    } catch (error) {
      this.problem("INVALID_ARGUMENT", `prompt: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #block(block: pb.ContentBlock, path: string): ContentBlock | undefined {
    const converted = fromProtoContentBlock(block, path);
    if (converted.ok) return converted.value;
    this.problem("INVALID_ARGUMENT", converted.error.message);
    return undefined;
  }

  #reply(kind: string, requestId: string, value: unknown, field: string): void {
    if (!this.#pending.settle(requestId, kind, value)) {
      this.problem("FAILED_PRECONDITION", `${field}.request_id: no ${kind} request "${requestId}" is pending`, requestId);
    }
  }

  readonly #runStep: ModelStep = async (input) => {
    const stream = this.#requireStream();
    const { id, reply } = this.#pending.open<pb.StepReply>("step", input.signal);
    stream.send({ case: "stepRequest", value: { requestId: id, turn: input.turn, step: input.step, messages: input.messages.map(toProtoMessage) } });
    const answer = await reply;
    if (answer.error !== "") throw new HookdError("plugin_error", `the agent's model step failed: ${answer.error}`);
    let assistant = assistantMessage([]);
    if (answer.assistantMessage !== undefined) {
      const converted = fromProtoMessage(answer.assistantMessage, "step_reply.assistant_message");
      if (!converted.ok) {
        this.problem("INVALID_ARGUMENT", converted.error.message, id);
        throw converted.error;
      }
      assistant = converted.value;
    }
    return { assistant, toolCalls: readStepToolCalls(answer.toolCalls, (problem) => this.problem("INVALID_ARGUMENT", problem, id)) };
  };

  async #dispatch(call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
    const stream = this.#requireStream();
    const { id, reply } = this.#pending.open<pb.DispatchReply>("dispatch", signal);
    stream.send({ case: "dispatchRequest", value: { requestId: id, call: toProtoToolCall(call) } });
    const answer = await reply;
    if (answer.result === undefined) {
      this.problem("INVALID_ARGUMENT", "dispatch_reply.result: required", id);
      throw new HookdError("invalid_argument", "the agent answered the dispatch without a result");
    }
    const converted = fromProtoToolResult(answer.result, "dispatch_reply.result");
    if (!converted.ok) {
      this.problem("INVALID_ARGUMENT", converted.error.message, id);
      throw converted.error;
    }
    return converted.value;
  }

  #toolSpec(tool: ToolDefinitionInfo): ToolSpec {
    const spec = { name: tool.name, concurrencySafe: tool.concurrencySafe };
    if (tool.finalizesContent !== true) return spec;
    const channel = { stream: () => this.#stream, pending: this.#pending, problem: (code: string, message: string, id: string) => this.problem(code, message, id) };
    return { ...spec, finalizeAwaited: agentFinalize(channel, this.#deps.limits.finalizeTimeoutMs) };
  }

  #requireStream(): AgentStream {
    if (this.#stream === undefined) throw new HookdError("cancelled", "the agent is not connected");
    return this.#stream;
  }

  #scope(turn: number, step: number): { sessionId: string; agentId: string; turn: number; step: number } {
    return { sessionId: this.info.sessionId, agentId: this.info.agentId, turn, step };
  }
}
