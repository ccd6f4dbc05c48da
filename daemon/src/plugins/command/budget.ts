// Each hook's effective deadline: the smaller of its own timeout (the agent's default when it
// sets none), its listener's deadline and the point's budget (session-end has its own). A hook
// whose timeout is longer than what hookd gives it would be cut silently; this names every such
// hook, so the load warns and `hookd check` shows the deadline that really applies.
import type { PointName } from "@hookd/sdk";
import { EVENTS_AT_POINT } from "./dialect.js";
import type { HooksModel } from "./parse.js";

/** The daemon's budgets (config `defaults`); absent: unbudgeted. */
export interface PointBudgets {
  readonly pointBudgetMs?: number;
  readonly sessionEndBudgetMs?: number;
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

/** Every runnable hook's effective deadline, in file order. */
export function hookDeadlines(model: HooksModel, listenerDeadlineMs: (point: PointName) => number | undefined, budgets: PointBudgets): HookDeadline[] {
  const rows: HookDeadline[] = [];
  for (const groups of Object.values(model.groups)) {
    for (const group of groups ?? []) {
      const point = runsAt(group.event);
      if (point === undefined) continue;
      const budgetName = point === "session-end" ? "session-end budget" : "point budget";
      const budget = point === "session-end" ? budgets.sessionEndBudgetMs : budgets.pointBudgetMs;
      const listener = listenerDeadlineMs(point);
      for (const hook of group.hooks) {
        const timeoutMs = Math.round(hook.timeoutSec * 1000);
        let effectiveMs = timeoutMs;
        let cutBy: HookDeadline["cutBy"];
        if (listener !== undefined && listener < effectiveMs) [effectiveMs, cutBy] = [listener, "listener deadline"];
        if (budget !== undefined && budget < effectiveMs) [effectiveMs, cutBy] = [budget, budgetName];
        rows.push({ hook: hook.id, point, timeoutMs, effectiveMs, ownTimeout: hook.ownTimeout, ...(cutBy === undefined ? {} : { cutBy }) });
      }
    }
  }
  return rows;
}

/** The load-time warning for a hook whose own timeout hookd cuts short; undefined when none is needed. */
export function deadlineWarning(row: HookDeadline): string | undefined {
  if (row.cutBy === undefined || !row.ownTimeout) return undefined;
  const raise = row.cutBy === "point budget" ? "defaults.pointBudgetMs" : row.cutBy === "session-end budget" ? "defaults.sessionEndBudgetMs" : `points.${row.point}.deadlineMs`;
  return `${row.hook}: its timeout is ${row.timeoutMs / 1000} s but the ${row.cutBy} cuts it at ${row.effectiveMs} ms at ${row.point} (raise ${raise} to give it its time)`;
}
