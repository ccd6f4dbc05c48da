// The engine's view of a hooks file: one Listener (kind "command") per point that has hooks. A
// call selects the matching hooks (matcher per group; identical commands run once), runs them
// CONCURRENTLY with one payload, interprets and merges the results in config order, reports them,
// and answers the point's decision. Cancellation (ctx.signal: deadline, turn cancelled) kills every
// hook's process group. Owns the orchestration; the steps live in their own modules.
import { compileToolMatcher } from "@hookd/sdk";
import type { FailurePolicy, PointName } from "@hookd/sdk";
import { PluginFault } from "../../engine/faults.js";
import { signalOf } from "@hookd/sdk/internal";
import type { EventOf, Listener, ListenerCall, ListenerTraits } from "../../engine/listener.js";

/** A hook process has no next(); its output comes over a pipe; the engine ends its calls (which kills the processes). */
const COMMAND_TRAITS: ListenerTraits = Object.freeze({ wraps: false, answersOverWire: true, settlesItself: false, sendsOnNextTurn: false });
import { decide } from "./decide.js";
import type { CommandPoint } from "./decide.js";
import { DIALECTS, EVENT_AT_POINT, EVENT_SPECS } from "./dialect.js";
import type { Dialect, HookEvent } from "./dialect.js";
import { mergeResults } from "./merge.js";
import type { Merged } from "./merge.js";
import { interpretRun } from "./output.js";
import type { HookResult } from "./output.js";
import type { HookGroup, HookSpec, HooksModel } from "./parse.js";
import { buildPayload, promptOf } from "./payload.js";
import type { PayloadInput } from "./payload.js";
import { runHook } from "./runner.js";
import { childEnv } from "../../child-env.js";

/** Extra time the listener's deadline gives beyond the longest hook timeout, in milliseconds. */
export const DEADLINE_GRACE_MS = 1_000;

/** One firing, reported after the merge: every hook's result in config order, and the answer. */
export interface CommandRunReport {
  readonly plugin: string;
  readonly point: CommandPoint;
  readonly event: HookEvent;
  readonly results: readonly HookResult[];
  readonly merged: Merged;
  /** The answer's kind ("pass", "deny", ...), or "fault" when the failure policy refused. */
  readonly answer: string;
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
  /** Receives every firing's report (the audit trail of individual hooks). */
  readonly onReport?: (report: CommandRunReport) => void;
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

function matchInput(event: HookEvent, data: unknown): string | undefined {
  switch (EVENT_SPECS[event].matchOn) {
    case "tool":
      return (data as { call: { toolName: string } }).call.toolName;
    case "source":
      return (data as { source: string }).source;
    case "agent-type":
    case "none":
      return undefined;
  }
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

/** The payload for a firing, or undefined when the event does not fire for this hookd event. */
function payloadInput(point: CommandPoint, data: EventOf<CommandPoint>): PayloadInput | undefined {
  switch (point) {
    case "session-start":
      return { event: "SessionStart", data: data as EventOf<"session-start"> };
    case "pre-step": {
      // Only a step carrying a user prompt is a UserPromptSubmit (not a tool continuation).
      const prompt = promptOf(data as EventOf<"pre-step">);
      return prompt === undefined ? undefined : { event: "UserPromptSubmit", data: data as EventOf<"pre-step">, prompt };
    }
    case "pre-tool":
      return { event: "PreToolUse", data: data as EventOf<"pre-tool"> };
    case "post-tool": {
      // The agents fire PostToolUse only after a tool succeeded (denials and failures do not).
      const post = data as EventOf<"post-tool">;
      return post.result.isError ? undefined : { event: "PostToolUse", data: post };
    }
    case "turn-stopping":
      return { event: "Stop", data: data as EventOf<"turn-stopping"> };
  }
}

const COMMAND_POINTS: readonly CommandPoint[] = ["session-start", "pre-step", "pre-tool", "post-tool", "turn-stopping"];

/** The listeners of a parsed hooks file: one per point with at least one runnable hook. */
export function commandListeners(model: HooksModel, options: CommandListenerOptions): Listener[] {
  const dialect: Dialect = model.dialect;
  const listeners: Listener[] = [];
  for (const point of COMMAND_POINTS) {
    const event = EVENT_AT_POINT[point];
    if (event === undefined) continue;
    const groups = model.groups[event] ?? [];
    const hookCount = groups.reduce((n, group) => n + group.hooks.length, 0);
    if (hookCount === 0) continue;
    const settings = options.points?.[point] ?? {};
    const longestMs = Math.max(...groups.flatMap((group) => group.hooks.map((hook) => hook.timeoutSec * 1000)));
    const policy = settings.failurePolicy ?? options.failurePolicy ?? DIALECTS[dialect].defaultFailurePolicy;
    const narrow = compileToolMatcher(settings.tools, `plugins.${options.plugin}.points.${point}.tools`);
    const isTool = EVENT_SPECS[event].matchOn === "tool";
    const listener: Listener<CommandPoint> = {
      plugin: options.plugin,
      point,
      kind: "command",
      traits: COMMAND_TRAITS,
      priority: settings.priority ?? 0,
      // Filtering here means a tool no hook matches never costs a process.
      matches: isTool ? (tool) => narrow(tool) && groups.some((group) => group.hooks.length > 0 && group.matches(tool)) : () => true,
      deadlineMs: settings.deadlineMs ?? longestMs + DEADLINE_GRACE_MS,
      failurePolicy: policy,
      sideEffectFree: false,
      call: (data: EventOf<CommandPoint>, _ctx: unknown, call: ListenerCall) => fire(point, event, groups, dialect, policy, options, data, signalOf(call.cancellation)),
    };
    listeners.push(listener);
  }
  return listeners;
}

async function fire(
  point: CommandPoint,
  event: HookEvent,
  groups: readonly HookGroup[],
  dialect: Dialect,
  policy: FailurePolicy,
  options: CommandListenerOptions,
  data: EventOf<CommandPoint>,
  signal: AbortSignal,
): Promise<unknown> {
  const input = payloadInput(point, data);
  if (input === undefined) return PASS;
  const hooks = selectHooks(groups, event, matchInput(event, data));
  if (hooks.length === 0) return PASS;
  const stdin = buildPayload(dialect, input);
  const cwd = input.data.session.cwd === "" ? options.fallbackCwd : input.data.session.cwd;
  const env = childEnv(options.env ?? process.env, { CLAUDE_PROJECT_DIR: cwd });
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
        ...(options.onSpawn === undefined ? {} : { onSpawn: (pgid: number) => options.onSpawn?.(hook.id, pgid) }),
      });
      return interpretRun({ hook: hook.id, event, dialect }, run);
    }),
  );
  signal.throwIfAborted();
  const merged = mergeResults(event, results);
  const decided = decide(point, options.plugin, data, merged, policy);
  options.onReport?.({ plugin: options.plugin, point, event, results, merged, answer: decided.type === "fault" ? "fault" : decided.answer.kind });
  if (decided.type === "fault") throw new PluginFault(options.plugin, point, decided.cause, decided.detail);
  return decided.answer;
}
