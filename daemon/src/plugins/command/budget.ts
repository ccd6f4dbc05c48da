// Each hook's effective deadline: the smaller of its own timeout (the agent's default when it
// sets none), its listener's deadline and the point's budget (session-end has its own). A point
// budget the config leaves to its default grows by the listener's own need (registry.ts), so it
// cuts no hook; an explicit one can. A hook whose timeout is longer than what hookd gives it
// would be cut silently; this names every such hook, so the load warns and `hookd check` shows
// the deadline that really applies.
import type { PointName } from "@hookd/sdk";
import { EVENTS_AT_POINT } from "./dialect.js";
import type { GeminiHookEvent, GeminiHooksModel } from "./gemini/parse.js";
import type { HooksModel } from "./parse.js";

/** The daemon's budgets (config `defaults`); absent: unbudgeted. */
export interface PointBudgets {
  readonly pointBudgetMs?: number;
  readonly sessionEndBudgetMs?: number;
  /** The point budget is the default: listeners' own needs stretch it (never session-end's). */
  readonly stretch?: boolean;
}

/** One runnable hook: where it runs and the timeout the agent would give it. */
export interface HookTimeout {
  readonly hook: string;
  readonly point: PointName;
  readonly timeoutMs: number;
  readonly ownTimeout: boolean;
}

export interface HookDeadline {
  readonly hook: string;
  /** The point the hook runs at (PreToolUse: rewrite, where it runs once per call). */
  readonly point: PointName;
  /** What the agent would give it. */
  readonly timeoutMs: number;
  /** What hookd gives it. */
  readonly effectiveMs: number;
  /** What cuts it, when effectiveMs < timeoutMs. */
  readonly cutBy?: "listener deadline" | "point budget" | "session-end budget";
  /** The timeout was written in the file (not the agent's default). */
  readonly ownTimeout: boolean;
}

/** Where each event's hooks run: the first point listing the event (PreToolUse runs at rewrite). */
function runsAt(event: string): PointName | undefined {
  for (const [point, events] of Object.entries(EVENTS_AT_POINT) as [PointName, readonly string[]][]) if (events.includes(event)) return point;
  return undefined;
}

/** A Claude Code / Codex file's runnable hooks, in file order; events without a typed point run at agent-event. */
export function commandHookTimeouts(model: HooksModel): HookTimeout[] {
  const rows: HookTimeout[] = [];
  for (const groups of Object.values(model.groups)) {
    for (const group of groups ?? []) {
      const point = runsAt(group.event);
      if (point === undefined) continue;
      for (const hook of group.hooks) rows.push({ hook: hook.id, point, timeoutMs: Math.round(hook.timeoutSec * 1000), ownTimeout: hook.ownTimeout });
    }
  }
  for (const groups of Object.values(model.observed)) {
    for (const group of groups) for (const hook of group.hooks) rows.push({ hook: hook.id, point: "agent-event", timeoutMs: Math.round(hook.timeoutSec * 1000), ownTimeout: hook.ownTimeout });
  }
  return rows;
}

const GEMINI_POINT: Readonly<Record<GeminiHookEvent, PointName>> = {
  SessionStart: "session-start",
  SessionEnd: "session-end",
  BeforeAgent: "pre-step",
  AfterAgent: "turn-stopping",
  BeforeTool: "rewrite",
  AfterTool: "post-tool",
  BeforeModel: "agent-event",
  AfterModel: "agent-event",
  BeforeToolSelection: "agent-event",
  PreCompress: "agent-event",
  Notification: "agent-event",
};

/** A Gemini CLI file's runnable hooks, in file order. */
export function geminiHookTimeouts(model: GeminiHooksModel): HookTimeout[] {
  return (Object.entries(model.groups) as [GeminiHookEvent, GeminiHooksModel["groups"][GeminiHookEvent]][]).flatMap(([event, groups]) =>
    (groups ?? []).flatMap((group) => group.hooks.map((hook) => ({ hook: hook.id, point: GEMINI_POINT[event], timeoutMs: hook.timeoutMs, ownTimeout: hook.ownTimeout }))),
  );
}

/** Every runnable hook's effective deadline, in file order. */
export function hookDeadlines(hooks: readonly HookTimeout[], listenerDeadlineMs: (point: PointName) => number | undefined, budgets: PointBudgets): HookDeadline[] {
  return hooks.map(({ hook, point, timeoutMs, ownTimeout }) => {
    const budgetName = point === "session-end" ? "session-end budget" : "point budget";
    const listener = listenerDeadlineMs(point);
    let budget = point === "session-end" ? budgets.sessionEndBudgetMs : budgets.pointBudgetMs;
    // A default budget grows by the listener's own deadline (its ownBudgetMs) wherever the hook runs.
    if (budget !== undefined && budgets.stretch === true && point !== "session-end") budget += listener ?? 0;
    let effectiveMs = timeoutMs;
    let cutBy: HookDeadline["cutBy"];
    if (listener !== undefined && listener < effectiveMs) [effectiveMs, cutBy] = [listener, "listener deadline"];
    if (budget !== undefined && budget < effectiveMs) [effectiveMs, cutBy] = [budget, budgetName];
    return { hook, point, timeoutMs, effectiveMs, ownTimeout, ...(cutBy === undefined ? {} : { cutBy }) };
  });
}

/** The load-time warning for a hook whose own timeout hookd cuts short; undefined when none is needed. */
export function deadlineWarning(row: HookDeadline): string | undefined {
  if (row.cutBy === undefined || !row.ownTimeout) return undefined;
  const raise = row.cutBy === "point budget" ? "defaults.pointBudgetMs" : row.cutBy === "session-end budget" ? "defaults.sessionEndBudgetMs" : `points.${row.point}.deadlineMs`;
  return `${row.hook}: its timeout is ${row.timeoutMs / 1000} s but the ${row.cutBy} cuts it at ${row.effectiveMs} ms at ${row.point} (raise ${raise} to give it its time)`;
}
