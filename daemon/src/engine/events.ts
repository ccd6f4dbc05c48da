// The engine's event stream: what happened, in order, for the audit log, metrics and the hosted
// loop's stream to consume. Observers are called synchronously and must not throw (a throwing
// observer is contained and reported once to the engine's logger).
import type { AgentMessage, DecisionTrace, PointName, ToolCall, ToolResult, TurnEndOutcome } from "@hookd/sdk";
import type { Invocation } from "./invoke.js";

/** Where in a session an event happened. */
export interface EventScope {
  readonly sessionId: string;
  readonly agentId: string;
  readonly turn: number;
  readonly step: number;
  /** Set for tool-call events. */
  readonly callId?: string;
  /** Set for agent-event: the agent's own event name. */
  readonly eventName?: string;
  /** Set when tracing is on: the trace (32 hex digits) of the point's decision span. */
  readonly traceId?: string;
}

/**
 * One shadow listener's call (runners/shadow.ts): what it would have decided. Never applied; a
 * fault or error is recorded with no failure policy's answer standing in for it.
 */
export interface ShadowOutcome {
  readonly plugin: string;
  readonly point: PointName;
  /** The plugin's kind ("in-process", "remote", ...). */
  readonly kind: string;
  /** answered, passed, fault (the plugin could not answer) or error (the handler's own). */
  readonly outcome: "answered" | "passed" | "fault" | "error";
  /** The kind it answered ("deny", "pass", "result:ok", ...); "none" for a fault or an error. */
  readonly decision: string;
  /** The answer's reason or feedback, or what went wrong. */
  readonly reason?: string;
  /** Set for a fault (its FaultCause) or an error ("listener_error"). */
  readonly cause?: string;
  readonly durationUs: number;
}

export type EngineEvent =
  | { readonly type: "invocation"; readonly scope: EventScope; readonly invocation: Invocation }
  | {
      readonly type: "decision";
      readonly scope: EventScope;
      readonly point: PointName;
      /** The applied decision's kind: allow, deny, enter, reject, accept, block, steer, ... */
      readonly decision: string;
      readonly decidedBy: string;
      readonly reason?: string;
      /** Set when a failure policy made the decision. */
      readonly cause?: string;
      readonly durationUs: number;
      /**
       * Chain points at a tool (rewrite): the call as the chain left it (effective and original
       * arguments, the rewriters in order), or as proposed when a failure policy refused it.
       */
      readonly call?: ToolCall;
      /** The deciding plugin's rule, for plugins whose decisions are rules. */
      readonly rule?: string;
      /** Every plugin's message for the agent's user, merged in plugin order. */
      readonly userMessage?: string;
      /** The reason a plugin asked the agent to stop with. */
      readonly stopAgent?: string;
    }
  | { readonly type: "shadow-decision"; readonly scope: EventScope; readonly shadow: ShadowOutcome }
  | { readonly type: "turn-started"; readonly scope: EventScope }
  | { readonly type: "step-started"; readonly scope: EventScope; readonly messages: readonly AgentMessage[] }
  /** A call's final result, after every phase, in model order; `trace` says who decided whether it could run. */
  | { readonly type: "call-settled"; readonly scope: EventScope; readonly call: ToolCall; readonly result: ToolResult; readonly trace?: DecisionTrace }
  | { readonly type: "contexts-appended"; readonly scope: EventScope; readonly messages: readonly AgentMessage[] }
  | { readonly type: "turn-ended"; readonly scope: EventScope; readonly reason: TurnEndOutcome; readonly detail: string; readonly steps: number };

export type EngineObserver = (event: EngineEvent) => void;

const ignore = (): void => {};

/** Fans events out to observers, containing observer failures. */
export class EventBus {
  // Copy-on-write: an observer added or removed during emit() takes effect from the next event,
  // and a bus with one observer (every hosted session has one) costs a one-element array, not a Set.
  #observers: readonly EngineObserver[] = [];
  readonly #onObserverError: (error: unknown) => void;

  constructor(onObserverError: (error: unknown) => void = ignore) {
    this.#onObserverError = onObserverError;
  }

  subscribe(observer: EngineObserver): () => void {
    this.#observers = [...this.#observers, observer];
    return () => {
      this.#observers = this.#observers.filter((subscribed) => subscribed !== observer);
    };
  }

  emit(event: EngineEvent): void {
    for (const observer of this.#observers) {
      try {
        observer(event);
      } catch (error) {
        this.#onObserverError(error);
      }
    }
  }
}
