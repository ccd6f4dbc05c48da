// EngineSession: one hosted agent session. Owns session-start (once, before turn 1), the inbox
// entry points, running turns one at a time, cancellation and close. What a turn does step by
// step lives in turn.ts; the gRPC host drives this class and relays the bus.
import { HookdError, deepFreeze, isDeeplyFrozen } from "@hookd/sdk";
import { LazyAbort } from "@hookd/sdk/internal";
import type { Cancellation } from "@hookd/sdk/internal";
import type { AgentMessage, Budgets, MessageSource, SessionEndReason, SessionInfo, SessionSource, ToolDefinitionInfo } from "@hookd/sdk";
import type { EventBus } from "../events.js";
import { decide } from "../decide.js";
import type { PointEnv } from "../decide.js";
import type { PluginRegistry } from "../registry.js";
import { notifySessionEnd, notifyTurnEnd } from "./endings.js";
import { History } from "./history.js";
import { Inbox } from "./inbox.js";
import { MessageIds, pluginSourced, sourcedMessage } from "./messages.js";
import type { MessageContent } from "./messages.js";
import { reasonText, runTurn } from "./turn.js";
import type { TurnDeps, TurnRecord } from "./turn.js";
import { resolveLimits } from "./types.js";
import type { LoopLimits, ModelStep, ToolBatchRunner, TurnOutcome } from "./types.js";
import type { DecisionTracer } from "../tracing.js";

export interface EngineSessionOptions {
  readonly info: SessionInfo;
  readonly source: SessionSource;
  readonly tools: readonly ToolDefinitionInfo[];
  readonly runStep: ModelStep;
  readonly runTools: ToolBatchRunner;
  /** Read at every point, so a reload's new registry applies from the next point on. */
  readonly registry: () => PluginRegistry;
  readonly bus: EventBus;
  readonly limits?: Partial<LoopLimits>;
  /** Aborting it closes the session (e.g. the agent disconnected): the running turn ends aborted. */
  readonly signal?: AbortSignal;
  /** Receives contained failures (a throwing session-start listener). Default: ignored. */
  readonly log?: (message: string) => void;
  /** The tracer of the session's decisions when tracing is on (read at each point: a resumed session's stream may name another parent). */
  readonly trace?: () => DecisionTracer | undefined;
}

/** Who a queued message speaks for: the user, or a plugin by name. Never the model or a tool. */
export type InboxSource = Extract<MessageSource, { readonly kind: "user" } | { readonly kind: "plugin" }>;

const USER: InboxSource = Object.freeze({ kind: "user" });

export class EngineSession {
  readonly info: SessionInfo;
  readonly limits: LoopLimits;
  // Only what is used after construction: the options object itself is not kept (memory per session, bench/README.md).
  readonly #source: SessionSource;
  readonly #registry: () => PluginRegistry;
  readonly #onLog: ((message: string) => void) | undefined;
  readonly #trace: (() => DecisionTracer | undefined) | undefined;
  readonly #tools: readonly ToolDefinitionInfo[];
  readonly #ids = new MessageIds();
  readonly #inbox = new Inbox();
  readonly #history = new History(this.#ids);
  readonly #deps: TurnDeps;
  /**
   * The session's own lifetime: session-start runs under it; close() aborts it. Its signal is
   * made only if a session-start plugin waits on it (an idle session holds none: memory per session, bench/README.md).
   */
  readonly #lifetime = new LazyAbort();
  #started: Promise<readonly AgentMessage[]> | undefined;
  #drive: Promise<void> | undefined;
  #turns = 0;
  #current: { readonly turn: number; readonly controller: AbortController } | undefined;
  #closed = false;
  #ended: Promise<void> | undefined;
  #detachSignal: (() => void) | undefined;

  constructor(options: EngineSessionOptions) {
    this.#source = options.source;
    this.#registry = options.registry;
    this.#onLog = options.log;
    this.#trace = options.trace;
    // Copies, unless already frozen all the way down (as the host's converted open frame is):
    // an idle session should not hold its description twice.
    this.info = isDeeplyFrozen(options.info) ? options.info : deepFreeze({ ...options.info });
    this.#tools = deepFreeze(options.tools.map((tool) => (isDeeplyFrozen(tool) ? tool : { ...tool })));
    this.limits = resolveLimits(options.limits);
    this.#deps = {
      info: this.info,
      ids: this.#ids,
      inbox: this.#inbox,
      history: this.#history,
      bus: options.bus,
      limits: this.limits,
      runStep: options.runStep,
      runTools: options.runTools,
      env: (turn, step, signal) => this.#env(turn, step, signal),
    };
    const signal = options.signal;
    if (signal !== undefined) {
      const onAbort = (): void => void this.close(`session signal aborted: ${reasonText(signal.reason)}`, "disconnected");
      if (signal.aborted) onAbort();
      else {
        signal.addEventListener("abort", onAbort, { once: true });
        this.#detachSignal = () => signal.removeEventListener("abort", onAbort);
      }
    }
  }

  /**
   * Fires session-start once (later calls return the same promise); turn 1 waits for it. Cannot
   * block: listener errors are contained and logged. Resolves with the contexts plugins seeded,
   * which wait as injections for the first step.
   */
  start(): Promise<readonly AgentMessage[]> {
    this.#started ??= this.#sessionStart();
    return this.#started;
  }

  /** Queues a user request as the sole direct prompt of its own turn; resolves when that turn ends. */
  followUp(content: MessageContent): Promise<TurnOutcome> {
    const message = this.#message("followUp", content, USER);
    return new Promise<TurnOutcome>((settle) => {
      this.#inbox.followUp({ message, settle });
      this.#pump();
    });
  }

  /** Guidance for the running turn, drained at the top of its next step (or the next turn's first). */
  steer(content: MessageContent): AgentMessage {
    const message = this.#message("steer", content, USER);
    this.#inbox.steer(message);
    return message;
  }

  /**
   * Context for the next step's batch; while a tool batch runs, it joins that batch's context
   * FIFO and is appended when the batch settles.
   */
  inject(content: MessageContent, source: InboxSource = USER): AgentMessage {
    const message = this.#message("inject", content, source);
    this.#inbox.inject(message);
    return message;
  }

  /** Aborts the running turn (it ends "cancelled" with this reason). False when no turn runs. */
  cancel(reason = "cancelled"): boolean {
    if (this.#current === undefined) return false;
    this.#current.controller.abort(new HookdError("cancelled", reason));
    return true;
  }

  /**
   * Ends the session: the running turn is aborted, queued follow-ups settle as never run, and once
   * the session is idle session-end fires, exactly once (a later close awaits the first one's),
   * with `ending` and `reason` as its detail.
   */
  close(reason = "session closed", ending: SessionEndReason = "closed"): Promise<void> {
    this.#ended ??= this.#close(reason, ending);
    return this.#ended;
  }

  async #close(reason: string, ending: SessionEndReason): Promise<void> {
    this.#closed = true;
    this.#detachSignal?.();
    const error = new HookdError("cancelled", reason);
    this.#lifetime.abort(error);
    this.#current?.controller.abort(error);
    for (const followUp of this.#inbox.dropFollowUps()) {
      followUp.settle(Object.freeze({ turn: 0, reason: "cancelled", detail: `${reason}; the follow-up never ran`, steps: 0 }));
    }
    await this.whenIdle();
    await notifySessionEnd(this.#endEnv(), this.info, ending, reason, this.#turns, (message) => this.#log(message));
  }

  /** Every recorded message, frozen, in order. */
  get history(): readonly AgentMessage[] {
    return this.#history.snapshot();
  }

  /** What waits in the inbox. */
  get pending(): { readonly followUps: number; readonly steering: number; readonly injections: number } {
    return this.#inbox.pending;
  }

  /** The number of the running turn, if any. */
  get runningTurn(): number | undefined {
    return this.#current?.turn;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Resolves once session-start (if started) has run and no turn is running or queued. */
  async whenIdle(): Promise<void> {
    await this.#started;
    while (this.#drive !== undefined) await this.#drive;
  }

  #message(what: string, content: MessageContent, source: InboxSource): AgentMessage {
    if (this.#closed) throw new HookdError("cancelled", `${what}: session ${this.info.sessionId} is closed`);
    if (typeof content !== "string" && !Array.isArray(content)) {
      throw new HookdError("invalid_argument", `${what}: content must be text or a list of content blocks`);
    }
    if (content.length === 0) throw new HookdError("invalid_argument", `${what}: content must not be empty`);
    return sourcedMessage(this.#ids, content, source);
  }

  /** Runs queued follow-ups one turn at a time; a follow-up arriving during a turn waits. */
  #pump(): void {
    if (this.#drive !== undefined) return;
    this.#drive = (async () => {
      try {
        await this.start();
        while (!this.#closed && this.#inbox.hasFollowUp()) {
          const turn = ++this.#turns;
          const controller = new AbortController();
          this.#current = { turn, controller };
          let ended: TurnRecord;
          try {
            ended = await runTurn(this.#deps, turn, controller.signal);
          } finally {
            this.#current = undefined;
          }
          // Awaited before the next turn, so observers see turns in order; a turn the session's
          // end cut short is bounded by the session-end budget, like session-end itself.
          await notifyTurnEnd(this.#closed ? this.#endEnv() : this.#env(turn, ended.outcome.steps, new LazyAbort()), this.info, ended.outcome, (message) => this.#log(message));
          // Settled only now, so whoever awaits the follow-up sees no turn running.
          ended.followUp?.settle(ended.outcome);
        }
      } catch (error) {
        this.#log(`session ${this.info.sessionId}: the turn driver failed: ${reasonText(error)}`);
      } finally {
        this.#drive = undefined;
      }
    })();
  }

  async #sessionStart(): Promise<readonly AgentMessage[]> {
    const env = this.#env(0, 0, this.#lifetime);
    try {
      const outcome = await decide(env, "session-start", { session: this.info, source: this.#source, tools: this.#tools });
      for (const error of outcome.errors) this.#log(`session ${this.info.sessionId}: session-start listener failed (contained): ${error.message}`);
      const seeded: AgentMessage[] = [];
      for (const { plugin, decision } of outcome.answers) {
        for (const message of decision.messages) {
          const context = pluginSourced(this.#ids, plugin, message);
          this.#inbox.inject(context);
          seeded.push(context);
        }
      }
      return Object.freeze(seeded);
    } catch (error) {
      this.#log(`session ${this.info.sessionId}: session-start did not complete: ${reasonText(error)}`);
      return Object.freeze([]);
    }
  }

  #env(turn: number, step: number, signal: Cancellation, budgets: Budgets = this.limits): PointEnv {
    return {
      registry: this.#registry(),
      bus: this.#deps.bus,
      scope: { sessionId: this.info.sessionId, agentId: this.info.agentId, turn, step },
      signal,
      pointBudgetMs: budgets.pointBudgetMs,
      sessionEndBudgetMs: budgets.sessionEndBudgetMs,
      ...(this.#trace === undefined ? {} : { trace: this.#trace() }),
    };
  }

  /**
   * The end points' environment: a signal of their own (the session's is aborted), and the
   * session-end budget (absent: the point budget) for every point of the end, so a turn-end the
   * end cut short cannot hold it either.
   */
  #endEnv(): PointEnv {
    const budget = this.limits.sessionEndBudgetMs ?? this.limits.pointBudgetMs;
    return this.#env(this.#turns, 0, new LazyAbort(), budget === undefined ? {} : { pointBudgetMs: budget, sessionEndBudgetMs: budget });
  }

  #log(message: string): void {
    try {
      this.#onLog?.(message);
    } catch {
      // A logger must not break the session.
    }
  }
}
