// Command hooks as a plugin kind: an agent's hooks file whose matched hooks run as processes with
// that agent's stdin / exit-code / JSON contract (agents/<agent>/), merged deterministically and
// mapped to hookd's decisions. The daemon needs only `commandPluginSource`; the rest is exported
// for `hookd check`, the tests and anyone embedding the engine.
export { commandPluginSource, logObserved, logReport } from "./source.js";
export type { CommandPluginConfig, CommandPluginSource, CommandSourceOptions, WarmHook } from "./source.js";
export { WarmPool } from "../../processes/warm/pool.js";
export type { WarmOptions, WarmStats } from "../../processes/warm/pool.js";
export { commandListeners } from "./listener.js";
export { runHooks, selectHooks, substituteVars, DEADLINE_GRACE_MS } from "./run-hooks.js";
export type { CommandListenerOptions, CommandRunReport, PointSettings } from "./listener.js";
export { observedListener, observedMatchValues, selectObserved } from "./observe.js";
export type { ObservedOptions, ObservedReport } from "./observe.js";
export { CallMemo, callKey } from "./call-memo.js";
export { killGroup, runHook } from "../../processes/runner.js";
export type { RunResult, RunSpec } from "../../processes/runner.js";
export { mergeResults, mergeRulesOf } from "./merge.js";
export type { Merged, MergeRules, Verdict } from "./merge.js";
export { decide, mapMerged } from "./decide.js";
export type { CommandPoint, Decided } from "./decide.js";
export { commandHookTimeouts, deadlineWarning, hookDeadlines } from "./budget.js";
export type { HookDeadline, HookTimeout, PointBudgets } from "./budget.js";
