// The engine's view of a hooks file: one Listener (kind "command") per point that has hooks. A
// call picks the hook event that fires (firing.ts), selects the matching hooks (matcher per group;
// identical commands run once), runs them CONCURRENTLY with one payload, interprets and merges the
// results in config order, reports them, and answers the point's decision. Cancellation
// (ctx.signal: deadline, turn cancelled) kills every hook's process group.
//
// PreToolUse runs ONCE per call, at the rewrite point (the first to see the call): its folded
// updatedInput is the rewrite, and the same run answers pre-tool when the sealed call still has
// the arguments that run left (another rewriter changed them: the hooks run again on what will
// really run). Its additionalContext is delivered with the call's result at post-tool, the only
// place the typed surface carries a context for a call. Owns the orchestration; the steps live
// in their own modules.
import { POINT_TABLE, compileToolMatcher, snapshotJson } from "@hookd/sdk";
import type { FailurePolicy, PointName, SessionInfo } from "@hookd/sdk";
import { signalOf } from "@hookd/sdk/internal";
import { pluginFault } from "../../engine/faults.js";
import type { EventOf, Listener, ListenerCall, ListenerTraits } from "../../engine/listener.js";
import { childEnv } from "../../child-env.js";
import { decide } from "./decide.js";
import type { CommandPoint } from "./decide.js";
import { DIALECTS, EVENTS_AT_POINT, EVENT_SPECS } from "./dialect.js";
import type { Dialect, HookEvent } from "./dialect.js";
import { CallMemo, callKey, firingOf } from "./firing.js";
import type { Firing } from "./firing.js";
import { mergeResults } from "./merge.js";
import type { Merged } from "./merge.js";
import { interpretRun } from "./output.js";
import type { HookResult } from "./output.js";
import type { HookGroup, HookSpec, HooksModel } from "./parse.js";
import { observedListener } from "./observe.js";
import type { ObservedReport } from "./observe.js";
import { buildPayload } from "./payload.js";
import type { PayloadExtras } from "./payload.js";
import { runHook } from "./runner.js";

/** A hook process has no next(); its output comes over a pipe; the engine ends its calls (which kills the processes). */
const COMMAND_TRAITS: ListenerTraits = Object.freeze({ wraps: false, answersOverWire: true, settlesItself: false, sendsOnNextTurn: false });

/** Extra time the listener's deadline gives beyond the longest hook timeout, in milliseconds. */
export const DEADLINE_GRACE_MS = 1_000;

/** One firing, reported after the merge: every hook's result in config order, and the answer. */
export interface CommandRunReport {
  readonly plugin: string;
  readonly point: CommandPoint;
  readonly event: HookEvent;
  readonly results: readonly HookResult[];
  readonly merged: Merged;
  /** The answer's kind ("pass", "deny", ...), or "fault" when the hooks' failure is the answer. */
  readonly answer: string;
  /** Set when the results are those of the run at the rewrite point (the hooks did not run again). */
  readonly reused?: "rewrite";
  /** PreToolUse contexts handed on to post-tool, delivered with the call's result. */
  readonly deferredContexts?: number;
}

export interface PointSettings {
  readonly priority?: number;
  readonly deadlineMs?: number;
  readonly failurePolicy?: FailurePolicy;
  /** Whole-name tool globs that further narrow the hooks file's own matchers (tool points). */
  readonly tools?: readonly string[];
}

export interface CommandListenerOptions {
  readonly plugin: string;
  /** The file-wide failure policy (config `failurePolicy`); default: the dialect's. */
  readonly failurePolicy?: FailurePolicy;
  readonly points?: Partial<Record<PointName, PointSettings>>;
  /** The hooks' base environment (default process.env); CLAUDE_PROJECT_DIR is added per call. */
  readonly env?: NodeJS.ProcessEnv;
  /** Where a hook runs when the session's cwd is unknown (""). */
  readonly fallbackCwd: string;
  /** What the agent told about the session beyond SessionInfo (transcript, permission mode), when known. */
  readonly extrasOf?: (session: SessionInfo) => PayloadExtras;
  /** Receives every firing's report (the audit trail of individual hooks). */
  readonly onReport?: (report: CommandRunReport) => void;
  /** Receives every firing at agent-event (events without a typed point; observe.ts). */
  readonly onObserved?: (report: ObservedReport) => void;
  /** Test seam: the runner's spawn hook (process group ids). */
  readonly onSpawn?: (hook: string, pgid: number) => void;
}

const PASS = { kind: "pass" } as const;
const SAFE_PATH = /^[A-Za-z0-9_/.,:@%+=-]+$/;

/**
 * `${CLAUDE_PROJECT_DIR}` in a command becomes the project dir when that is plain text; otherwise
 * it is left for the shell, which expands it from the environment to the same value.
 */
export function substituteProjectDir(command: string, projectDir: string): string {
  return SAFE_PATH.test(projectDir) ? command.split("${CLAUDE_PROJECT_DIR}").join(projectDir) : command;
}

/** The hooks to run for one firing, in config order, identical commands once (as both agents do). */
export function selectHooks(groups: readonly HookGroup[], event: HookEvent, input: string | undefined): HookSpec[] {
  const matchOn = EVENT_SPECS[event].matchOn;
  const seen = new Set<string>();
  const hooks: HookSpec[] = [];
  for (const group of groups) {
    if (matchOn !== "none" && !group.matches(input ?? "")) continue;
    for (const hook of group.hooks) {
      if (seen.has(hook.command)) continue;
      seen.add(hook.command);
      hooks.push(hook);
    }
  }
  return hooks;
}

const COMMAND_POINTS: readonly CommandPoint[] = ["session-start", "pre-step", "rewrite", "pre-tool", "approval", "post-tool", "turn-stopping", "session-end", "turn-end"];

interface Run {
  readonly event: HookEvent;
  readonly results: readonly HookResult[];
  readonly merged: Merged;
}

/** What one plugin's listeners share: the PreToolUse run handed from rewrite to pre-tool and post-tool. */
interface Shared {
  readonly toolRuns: CallMemo<Run & { readonly argumentsJson: string }>;
  readonly preContexts: CallMemo<Merged["contexts"]>;
}

interface FireContext {
  readonly point: CommandPoint;
  readonly model: HooksModel;
  readonly policy: FailurePolicy;
  readonly options: CommandListenerOptions;
  readonly shared: Shared;
}

const hookCount = (groups: readonly HookGroup[] | undefined): number => (groups ?? []).reduce((n, group) => n + group.hooks.length, 0);

/** The events whose hooks RUN at a point (post-tool only delivers PreToolUse's contexts). */
function runEvents(point: CommandPoint, model: HooksModel): HookEvent[] {
  return (EVENTS_AT_POINT[point] ?? []).filter((event) => hookCount(model.groups[event]) > 0 && !(point === "post-tool" && event === "PreToolUse"));
}

/**
 * What the hooks need of their point's budget: their listener's deadline, where the point's spec
 * lets listeners stretch its budget. Not session-end's, which also bounds a daemon stop: a
 * SessionEnd hook longer than `defaults.sessionEndBudgetMs` is warned about and cut.
 */
export function ownBudget(point: PointName, deadlineMs: number): { readonly ownBudgetMs?: number } {
  return POINT_TABLE[point].budget.stretches ? { ownBudgetMs: deadlineMs } : {};
}

/** The listeners of a parsed hooks file: one per point with at least one runnable hook. */
export function commandListeners(model: HooksModel, options: CommandListenerOptions): Listener[] {
  const shared: Shared = { toolRuns: new CallMemo(), preContexts: new CallMemo() };
  const listeners: Listener[] = [];
  for (const point of COMMAND_POINTS) {
    const events = (EVENTS_AT_POINT[point] ?? []).filter((event) => hookCount(model.groups[event]) > 0);
    if (events.length === 0) continue;
    const groups = events.flatMap((event) => model.groups[event] ?? []);
    const running = runEvents(point, model).flatMap((event) => model.groups[event] ?? []);
    const settings = options.points?.[point] ?? {};
    const longestMs = Math.max(0, ...running.flatMap((group) => group.hooks.map((hook) => hook.timeoutSec * 1000)));
    const policy = settings.failurePolicy ?? options.failurePolicy ?? DIALECTS[model.dialect].defaultFailurePolicy;
    const narrow = compileToolMatcher(settings.tools, `plugins.${options.plugin}.points.${point}.tools`);
    const isTool = groups.every((group) => EVENT_SPECS[group.event].matchOn === "tool");
    const context: FireContext = { point, model, policy, options, shared };
    const deadlineMs = settings.deadlineMs ?? longestMs + DEADLINE_GRACE_MS;
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
  const observed = observedListener(model, {
    plugin: options.plugin,
    settings: options.points?.["agent-event"] ?? {},
    fallbackCwd: options.fallbackCwd,
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.extrasOf === undefined ? {} : { extrasOf: options.extrasOf }),
    ...(options.onObserved === undefined ? {} : { onObserved: options.onObserved }),
    ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
  });
  if (observed !== undefined) listeners.push(observed);
  return listeners;
}

async function runFiring(c: FireContext, firing: Firing, signal: AbortSignal): Promise<Run | undefined> {
  const { event } = firing.input;
  const hooks = selectHooks(c.model.groups[event] ?? [], event, firing.matchValue);
  if (hooks.length === 0) return undefined;
  const { dialect } = c.model;
  const session = firing.input.data.session;
  const stdin = buildPayload(dialect, firing.input, c.options.extrasOf?.(session) ?? {});
  const cwd = session.cwd === "" ? c.options.fallbackCwd : session.cwd;
  const env = childEnv(c.options.env ?? process.env, { CLAUDE_PROJECT_DIR: cwd });
  // Concurrently; results stay in config order whatever order the processes finish in.
  const results = await Promise.all(
    hooks.map(async (hook) => {
      const run = await runHook({
        command: substituteProjectDir(hook.command, cwd),
        cwd,
        env,
        stdin,
        timeoutMs: hook.timeoutSec * 1000,
        signal,
        ...(c.options.onSpawn === undefined ? {} : { onSpawn: (pgid: number) => c.options.onSpawn?.(hook.id, pgid) }),
      });
      return interpretRun({ hook: hook.id, event, dialect: dialect satisfies Dialect }, run);
    }),
  );
  signal.throwIfAborted();
  return { event, results, merged: mergeResults(event, results, dialect) };
}

/** The arguments a call has after this run's rewrite, as the engine writes them. */
function argumentsAfter(run: Run, call: EventOf<"pre-tool">["call"]): string {
  const input = run.merged.updatedInput?.input;
  return typeof input === "object" && input !== null && !Array.isArray(input) ? snapshotJson(input, "updatedInput").text : call.argumentsJson;
}

async function fire(c: FireContext, data: EventOf<CommandPoint>, signal: AbortSignal): Promise<unknown> {
  const { point, shared } = c;
  let reused: Run | undefined;
  if (point === "pre-tool") {
    const event = data as EventOf<"pre-tool">;
    const earlier = shared.toolRuns.take(callKey(event));
    if (earlier !== undefined && earlier.argumentsJson === event.call.argumentsJson) reused = earlier;
  }
  const firing = reused === undefined ? firingOf(point, data, c.model.dialect) : undefined;
  let run = reused ?? (firing === undefined ? undefined : await runFiring(c, firing, signal));
  let deferred: number | undefined;
  if (run !== undefined && (point === "rewrite" || (point === "pre-tool" && reused === undefined))) {
    const event = data as EventOf<"pre-tool">;
    const key = callKey(event);
    if (point === "rewrite") shared.toolRuns.set(key, { ...run, argumentsJson: argumentsAfter(run, event.call) });
    else if (run.merged.updatedInput !== undefined) run = { ...run, merged: { ...run.merged, notes: [...run.merged.notes, `${run.merged.updatedInput.by}: hookSpecificOutput.updatedInput ignored: the call was sealed without this run's rewrite (it reached pre-tool without the rewrite point, or another plugin rewrote it after)`] } };
    if (run.merged.contexts.length > 0) {
      shared.preContexts.set(key, run.merged.contexts);
      deferred = run.merged.contexts.length;
    }
  }
  if (point === "post-tool") run = withPreContexts(run, shared.preContexts.take(callKey(data as EventOf<"post-tool">)));
  if (run === undefined) return PASS;
  const decided = decide(point, c.options.plugin, data, run.merged, c.policy);
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

/** The post-tool run with the call's PreToolUse contexts first (they were given before the call ran). */
function withPreContexts(run: Run | undefined, pre: Merged["contexts"] | undefined): Run | undefined {
  if (pre === undefined || pre.length === 0) return run;
  const base = run ?? { event: "PreToolUse" as const, results: [], merged: mergeResults("PostToolUse", []) };
  return { ...base, merged: { ...base.merged, contexts: [...pre, ...base.merged.contexts] } };
}
