// The engine's view of a hooks file, for any agent: one Listener (kind "command") per point that
// has hooks. A call asks the agent which hook event fires (its `firing`), selects the matching
// hooks (matcher per group; hooks with the same key run once), runs them CONCURRENTLY with one
// payload (or one after another when a matched group is sequential, each seeing the previous
// one's changes), interprets and merges the results in config order, reports them, and answers
// the point's decision. Cancellation (ctx.signal: deadline, turn cancelled) kills every hook's
// process group.
//
// The pre-tool event runs ONCE per call, at the rewrite point (the first to see the call): its
// folded updatedInput is the rewrite, and the same run answers pre-tool when the sealed call
// still has the arguments that run left (another rewriter changed them: the hooks run again on
// what will really run). Its additionalContext is delivered with the call's result at
// post-tool, the only place the typed surface carries a context for a call.
import { POINT_TABLE, compileToolMatcher, snapshotJson } from "@hookd/sdk";
import type { FailurePolicy, JsonObject, PointName } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import type { AgentDialect, CommandPoint, Firing, HookGroup, HookResult, HooksModel } from "../../agents/contract.js";
import { pluginFault } from "../../engine/faults.js";
import type { EventOf, Listener, ListenerCall } from "../../engine/listener.js";
import { CallMemo, callKey } from "./call-memo.js";
import { decide } from "./decide.js";
import { mergeResults, mergeRulesOf } from "./merge.js";
import type { Merged } from "./merge.js";
import { observedListener } from "./observe.js";
import { ownPayloadOf, ownPayloadText } from "./own-payload.js";
import type { ObservedReport } from "./observe.js";
import { COMMAND_TRAITS, DEADLINE_GRACE_MS, longestRunMs, runHooks, selectHooks } from "./run-hooks.js";
import type { HookRunSetup } from "./run-hooks.js";

/** One firing, reported after the merge: every hook's result in config order, and the answer. */
export interface CommandRunReport {
  readonly plugin: string;
  readonly point: CommandPoint;
  readonly event: string;
  readonly results: readonly HookResult[];
  readonly merged: Merged;
  /** The answer's kind ("pass", "deny", ...), or "fault" when the hooks' failure is the answer. */
  readonly answer: string;
  /** Set when the results are those of the run at the rewrite point (the hooks did not run again). */
  readonly reused?: "rewrite";
  /** Pre-tool contexts handed on to post-tool, delivered with the call's result. */
  readonly deferredContexts?: number;
}

export interface PointSettings {
  readonly priority?: number;
  readonly deadlineMs?: number;
  readonly failurePolicy?: FailurePolicy;
  /** Whole-name tool globs that further narrow the hooks file's own matchers (tool points). */
  readonly tools?: readonly string[];
}

export interface CommandListenerOptions extends HookRunSetup {
  readonly plugin: string;
  /** The file-wide failure policy (config `failurePolicy`); default: the agent's. */
  readonly failurePolicy?: FailurePolicy;
  readonly points?: Partial<Record<PointName, PointSettings>>;
  /** Receives every firing's report (the audit trail of individual hooks). */
  readonly onReport?: (report: CommandRunReport) => void;
  /** Receives every firing at agent-event (events without a typed point; observe.ts). */
  readonly onObserved?: (report: ObservedReport) => void;
}

const PASS = { kind: "pass" } as const;

const COMMAND_POINTS: readonly CommandPoint[] = ["session-start", "pre-step", "rewrite", "pre-tool", "approval", "post-tool", "turn-stopping", "session-end", "turn-end"];

interface Run {
  readonly event: string;
  readonly results: readonly HookResult[];
  readonly merged: Merged;
}

/** What one plugin's listeners share: the pre-tool run handed from rewrite to pre-tool and post-tool. */
interface Shared {
  readonly toolRuns: CallMemo<Run & { readonly argumentsJson: string }>;
  readonly preContexts: CallMemo<Merged["contexts"]>;
}

interface FireContext {
  readonly point: CommandPoint;
  readonly agent: AgentDialect;
  readonly model: HooksModel;
  readonly policy: FailurePolicy;
  readonly options: CommandListenerOptions;
  readonly shared: Shared;
}

const hookCount = (groups: readonly HookGroup[] | undefined): number => (groups ?? []).reduce((n, group) => n + group.hooks.length, 0);

/**
 * What the hooks need of their point's budget: their listener's deadline, where the point's spec
 * lets listeners stretch its budget. Not session-end's, which also bounds a daemon stop: a
 * SessionEnd hook longer than `defaults.sessionEndBudgetMs` is warned about and cut.
 */
export function ownBudget(point: PointName, deadlineMs: number): { readonly ownBudgetMs?: number } {
  return POINT_TABLE[point].budget.stretches ? { ownBudgetMs: deadlineMs } : {};
}

/** The pre-tool event of the agent: the one its rewrite point fires. */
const toolEventOf = (agent: AgentDialect): string | undefined => agent.commandHooks.eventsAtPoint.rewrite?.[0];

/** The listeners of a parsed hooks file: one per point with at least one runnable hook. */
export function commandListeners(agent: AgentDialect, model: HooksModel, options: CommandListenerOptions): Listener[] {
  const hooks = agent.commandHooks;
  const toolEvent = toolEventOf(agent);
  const shared: Shared = { toolRuns: new CallMemo(), preContexts: new CallMemo() };
  const listeners: Listener[] = [];
  for (const point of COMMAND_POINTS) {
    const events = (hooks.eventsAtPoint[point] ?? []).filter((event) => hookCount(model.groups[event]) > 0);
    if (events.length === 0) continue;
    const groups = events.flatMap((event) => model.groups[event] ?? []);
    // post-tool only delivers the pre-tool event's contexts: its hooks do not run there.
    const running = groups.filter((group) => !(point === "post-tool" && group.event === toolEvent));
    const settings = options.points?.[point] ?? {};
    const policy = settings.failurePolicy ?? options.failurePolicy ?? hooks.defaultFailurePolicy;
    const narrow = compileToolMatcher(settings.tools, `plugins.${options.plugin}.points.${point}.tools`);
    const isTool = groups.every((group) => hooks.events[group.event]?.matchOn === "tool");
    const context: FireContext = { point, agent, model, policy, options, shared };
    const deadlineMs = settings.deadlineMs ?? longestRunMs(running) + DEADLINE_GRACE_MS;
    const listener: Listener<CommandPoint> = {
      plugin: options.plugin,
      point,
      kind: "command",
      traits: COMMAND_TRAITS,
      priority: settings.priority ?? 0,
      // Filtering here means a tool no hook matches never costs a process.
      matches: isTool ? (tool) => narrow(tool) && groups.some((group) => group.hooks.length > 0 && group.matches(tool)) : () => true,
      deadlineMs,
      ...ownBudget(point, deadlineMs),
      failurePolicy: policy,
      sideEffectFree: false,
      call: (data: EventOf<CommandPoint>, _ctx: unknown, call: ListenerCall) => fire(context, data, signalOf(call.cancellation)),
    };
    listeners.push(listener);
  }
  const observed = observedListener(agent, model, { ...options, settings: options.points?.["agent-event"] ?? {} });
  if (observed !== undefined) listeners.push(observed);
  return listeners;
}

/** The firing the next sequential hook sees: the previous one's context or tool input applied. */
function chained(c: FireContext, firing: Firing, result: HookResult): Firing {
  const [context] = result.contexts;
  if (firing.prompt !== undefined && context !== undefined) return { ...firing, prompt: `${firing.prompt}\n\n${context}` };
  const input = result.updatedInput;
  const data = firing.data as Partial<EventOf<"pre-tool">>;
  if (data.call === undefined || typeof input !== "object" || input === null || Array.isArray(input)) return firing;
  const args = c.agent.commandHooks.applyInput(data.call.arguments as JsonObject, input as JsonObject);
  return { ...firing, data: { ...data, call: { ...data.call, arguments: args } } };
}

async function runFiring(c: FireContext, firing: Firing, signal: AbortSignal): Promise<Run | undefined> {
  const { event } = firing;
  const hooks = c.agent.commandHooks;
  const matchOn = hooks.events[event]?.matchOn ?? "none";
  const selected = selectHooks(c.model.groups[event] ?? [], (group) => matchOn === "none" || group.matches(firing.matchValue));
  if (selected.hooks.length === 0) return undefined;
  const own = ownPayloadOf(c.agent.name, firing);
  const results = await runHooks(c.agent, firing, selected, c.options, {
    signal,
    // The event came from this file's own agent: its hooks read what the agent sent.
    ...(own === undefined ? {} : { payload: (current: Firing) => ownPayloadText(own, current) }),
    next: (current, result) => chained(c, current, result),
  });
  signal.throwIfAborted();
  return { event, results, merged: mergeResults(event, results, mergeRulesOf(c.agent, event)) };
}

/** The arguments a call has after this run's rewrite, as the engine writes them. */
function argumentsAfter(c: FireContext, run: Run, call: EventOf<"pre-tool">["call"]): string {
  const input = run.merged.updatedInput?.input;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return call.argumentsJson;
  return snapshotJson(c.agent.commandHooks.applyInput(call.arguments as JsonObject, input as JsonObject), "updatedInput").text;
}

async function fire(c: FireContext, data: EventOf<CommandPoint>, signal: AbortSignal): Promise<unknown> {
  const { point, shared } = c;
  let reused: Run | undefined;
  if (point === "pre-tool") {
    const event = data as EventOf<"pre-tool">;
    const earlier = shared.toolRuns.take(callKey(event));
    if (earlier !== undefined && earlier.argumentsJson === event.call.argumentsJson) reused = earlier;
  }
  const firing = reused === undefined ? c.agent.commandHooks.firing(point, data) : undefined;
  let run = reused ?? (firing === undefined ? undefined : await runFiring(c, firing, signal));
  let deferred: number | undefined;
  if (run !== undefined && (point === "rewrite" || (point === "pre-tool" && reused === undefined))) {
    const event = data as EventOf<"pre-tool">;
    const key = callKey(event);
    if (point === "rewrite") shared.toolRuns.set(key, { ...run, argumentsJson: argumentsAfter(c, run, event.call) });
    else if (run.merged.updatedInput !== undefined) run = { ...run, merged: { ...run.merged, notes: [...run.merged.notes, `${run.merged.updatedInput.by}: its updatedInput ignored: the call was sealed without this run's rewrite (it reached pre-tool without the rewrite point, or another plugin rewrote it after)`] } };
    if (run.merged.contexts.length > 0) {
      shared.preContexts.set(key, run.merged.contexts);
      deferred = run.merged.contexts.length;
    }
  }
  if (point === "post-tool") run = withPreContexts(c, run, shared.preContexts.take(callKey(data as EventOf<"post-tool">)));
  if (run === undefined) return PASS;
  const decided = decide(point, c.options.plugin, data, run.merged, c.policy, c.agent.commandHooks.applyInput, c.agent.commandHooks.blockedWithoutReason);
  c.options.onReport?.({
    plugin: c.options.plugin,
    point,
    event: run.event,
    results: run.results,
    merged: run.merged,
    answer: decided.type === "fault" ? "fault" : decided.answer.kind,
    ...(reused === undefined ? {} : { reused: "rewrite" as const }),
    ...(deferred === undefined ? {} : { deferredContexts: deferred }),
  });
  if (decided.type === "fault") throw pluginFault(c.options.plugin, point, decided.cause, decided.detail);
  return decided.answer;
}

/** The post-tool run with the call's pre-tool contexts first (they were given before the call ran). */
function withPreContexts(c: FireContext, run: Run | undefined, pre: Merged["contexts"] | undefined): Run | undefined {
  if (pre === undefined || pre.length === 0) return run;
  const event = toolEventOf(c.agent) ?? "";
  const base = run ?? { event, results: [], merged: mergeResults(event, [], { point: "post-tool", reasonSeparator: c.agent.commandHooks.reasonSeparator }) };
  return { ...base, merged: { ...base.merged, contexts: [...pre, ...base.merged.contexts] } };
}
