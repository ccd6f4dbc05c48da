// A harness that drives the tool pipeline with in-process plugins, for the pipeline's tests and
// for anyone testing code built on it (the loop, the host service). Records every engine event;
// timing is controlled with deferred promises, never with sleeps.
import { definePlugin } from "@hookd/sdk";
import type { PluginDefinition, PluginSpec, SessionInfo } from "@hookd/sdk";
import { EventBus } from "../../src/engine/events.js";
import type { EngineEvent } from "../../src/engine/events.js";
import { inProcessListeners } from "../../src/plugins/in-process/listeners.js";
import type { ListenerOverrides } from "../../src/engine/listener.js";
import type { PointEnv } from "../../src/engine/decide.js";
import { PluginRegistry } from "../../src/engine/registry.js";
import type { ApprovalSeam } from "../../src/engine/pipeline/approval.js";
import { runToolBatch, runToolCall } from "../../src/engine/pipeline/pipeline.js";
import type { ToolBatchOutcome, ToolCallOutcome, ToolPipelineOptions } from "../../src/engine/pipeline/pipeline.js";
import type { ProposedCall } from "../../src/engine/pipeline/seal.js";
import { toolLookup } from "../../src/engine/pipeline/spec.js";
import type { Dispatch, ToolSpec } from "../../src/engine/pipeline/spec.js";

export interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly resolve: (value: T | PromiseLike<T>) => void;
  readonly reject: (reason: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: Deferred<T>["resolve"];
  let reject!: Deferred<T>["reject"];
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

/** Lets every pending microtask (and the promise chains they start) run. Not a timed wait. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface HarnessSetup {
  /** Plugin specs (validated with definePlugin) or definitions. */
  readonly plugins?: readonly (PluginSpec | PluginDefinition)[];
  readonly tools?: readonly ToolSpec[];
  /** Default: resolves to the call's arguments. */
  readonly dispatch?: Dispatch;
  readonly approval?: ApprovalSeam;
  readonly maxConcurrency?: number;
  readonly pointBudgetMs?: number;
}

export interface PipelineHarness {
  readonly session: SessionInfo;
  readonly bus: EventBus;
  readonly events: EngineEvent[];
  /** Aborts the turn. */
  readonly turn: AbortController;
  readonly options: ToolPipelineOptions;
  batch(calls: readonly ProposedCall[]): Promise<ToolBatchOutcome>;
  call(call: ProposedCall): Promise<ToolCallOutcome>;
}

export function pipelineHarness(setup: HarnessSetup = {}, overrides: Record<string, Partial<Record<string, ListenerOverrides>>> = {}): PipelineHarness {
  const definitions = (setup.plugins ?? []).map((p) => ("subscriptions" in p ? p : definePlugin(p)));
  const registry = new PluginRegistry(definitions.flatMap((d) => inProcessListeners(d, overrides[d.name] ?? {})));
  const bus = new EventBus();
  const events: EngineEvent[] = [];
  bus.subscribe((event) => events.push(event));
  const session: SessionInfo = { sessionId: "s1", agentId: "agent-1", cwd: "/work" };
  const turn = new AbortController();
  const env: PointEnv = {
    registry,
    bus,
    scope: { sessionId: session.sessionId, agentId: session.agentId, turn: 1, step: 1 },
    signal: turn.signal,
    ...(setup.pointBudgetMs === undefined ? {} : { pointBudgetMs: setup.pointBudgetMs }),
  };
  const options: ToolPipelineOptions = {
    env,
    session,
    tools: toolLookup(setup.tools ?? [{ name: "echo", concurrencySafe: true }]),
    dispatch: setup.dispatch ?? (async (call) => call.arguments),
    ...(setup.approval === undefined ? {} : { approval: setup.approval }),
    ...(setup.maxConcurrency === undefined ? {} : { maxConcurrency: setup.maxConcurrency }),
  };
  return {
    session,
    bus,
    events,
    turn,
    options,
    batch: (calls) => runToolBatch(options, calls),
    call: (call) => runToolCall(options, call),
  };
}
