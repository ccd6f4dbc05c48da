// Each hook's effective deadline: the smaller of its own timeout (the agent's default when it
// sets none), its listener's deadline and the budget its point's spec names. A budget the config
// leaves to its default grows by the listener's own need where the spec lets it (registry.ts), so
// it cuts no hook; an explicit one can. A hook whose timeout is longer than what hookd gives it
// would be cut silently; this names every such hook, so the load warns and `hookd check` shows
// the deadline that really applies.
import { POINT_TABLE } from "@hookd/sdk";
import type { BudgetName, Budgets, PointName } from "@hookd/sdk";
import type { AgentDialect, HooksModel } from "../../agents/contract.js";

/** The daemon's budgets (config `defaults`); absent: unbudgeted. */
export interface PointBudgets extends Budgets {
  /** The point budget is the default: listeners' own needs stretch it, at points whose spec lets them. */
  readonly stretch?: boolean;
}

/** What a budget is called where it cuts a hook; the setting that raises it is `defaults.<its name>`. */
const CUT_BY: Readonly<Record<BudgetName, "point budget" | "session-end budget">> = {
  pointBudgetMs: "point budget",
  sessionEndBudgetMs: "session-end budget",
};

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
  readonly cutBy?: "listener deadline" | (typeof CUT_BY)[BudgetName];
  /** The timeout was written in the file (not the agent's default). */
  readonly ownTimeout: boolean;
}

/** Where an event's hooks run: the first point listing the event (the pre-tool event runs at rewrite); agent-event otherwise. */
function runsAt(agent: AgentDialect, event: string): PointName {
  for (const [point, events] of Object.entries(agent.commandHooks.eventsAtPoint) as [PointName, readonly string[]][]) if (events.includes(event)) return point;
  return "agent-event";
}

/** A hooks file's runnable hooks, in file order. */
export function commandHookTimeouts(agent: AgentDialect, model: HooksModel): HookTimeout[] {
  return Object.values(model.groups).flatMap((groups) =>
    groups.flatMap((group) => group.hooks.map((hook) => ({ hook: hook.id, point: runsAt(agent, group.event), timeoutMs: Math.round(hook.timeoutMs), ownTimeout: hook.ownTimeout }))),
  );
}

/** Every runnable hook's effective deadline, in file order. */
export function hookDeadlines(hooks: readonly HookTimeout[], listenerDeadlineMs: (point: PointName) => number | undefined, budgets: PointBudgets): HookDeadline[] {
  return hooks.map(({ hook, point, timeoutMs, ownTimeout }) => {
    const { of, stretches } = POINT_TABLE[point].budget;
    const listener = listenerDeadlineMs(point);
    let budget = budgets[of];
    // A default budget grows by the listener's own deadline (its ownBudgetMs) wherever the spec lets it.
    if (budget !== undefined && budgets.stretch === true && stretches) budget += listener ?? 0;
    let effectiveMs = timeoutMs;
    let cutBy: HookDeadline["cutBy"];
    if (listener !== undefined && listener < effectiveMs) [effectiveMs, cutBy] = [listener, "listener deadline"];
    if (budget !== undefined && budget < effectiveMs) [effectiveMs, cutBy] = [budget, CUT_BY[of]];
    return { hook, point, timeoutMs, effectiveMs, ownTimeout, ...(cutBy === undefined ? {} : { cutBy }) };
  });
}

/** The load-time warning for a hook whose own timeout hookd cuts short; undefined when none is needed. */
export function deadlineWarning(row: HookDeadline): string | undefined {
  if (row.cutBy === undefined || !row.ownTimeout) return undefined;
  const budget = (Object.keys(CUT_BY) as BudgetName[]).find((name) => CUT_BY[name] === row.cutBy);
  const raise = budget === undefined ? `points.${row.point}.deadlineMs` : `defaults.${budget}`;
  return `${row.hook}: its timeout is ${row.timeoutMs / 1000} s but the ${row.cutBy} cuts it at ${row.effectiveMs} ms at ${row.point} (raise ${raise} to give it its time)`;
}
