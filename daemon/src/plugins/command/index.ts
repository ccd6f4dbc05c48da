// Command hooks as a plugin kind: a Claude Code or Codex hooks file whose matched hooks run as
// processes with that agent's stdin / exit-code / JSON contract, merged deterministically and
// mapped to hookd's decisions. The daemon needs only `commandPluginSource`; the rest is exported
// for `hookd check`, the HTTP endpoint's tests and anyone embedding the engine.
export { commandPluginSource, logObserved, logReport } from "./source.js";
export type { CommandPluginConfig, CommandPluginSource, CommandSourceOptions } from "./source.js";
export { commandListeners, selectHooks, substituteProjectDir, DEADLINE_GRACE_MS } from "./listener.js";
export type { CommandListenerOptions, CommandRunReport, PointSettings } from "./listener.js";
export { loadHooksFile, parseHooks, parseHooksText } from "./parse.js";
export type { HookGroup, HookSpec, HooksModel, ObservedGroup } from "./parse.js";
export { DIALECTS, EVENTS_AT_POINT, EVENT_SPECS, HOOK_EVENTS, OBSERVED_EVENTS, hookTimeoutSec } from "./dialect.js";
export type { ObservedMatch } from "./dialect.js";
export { observedListener, observedMatchValues, observedPayload, selectObserved } from "./observe.js";
export type { ObservedOptions, ObservedReport, ObservedResult } from "./observe.js";
export { geminiObservedListener, geminiObservedPayload } from "./gemini/observe.js";
export { CallMemo, callKey, firingOf } from "./firing.js";
export type { Firing } from "./firing.js";
export type { Dialect, DialectSpec, HookEvent } from "./dialect.js";
export { compileMatcher } from "./matcher.js";
export type { CompiledMatcher, Matcher, MatcherMode } from "./matcher.js";
export { buildPayload, endReasonOf, promptOf } from "./payload.js";
export type { PayloadExtras, PayloadInput } from "./payload.js";
export { killGroup, runHook } from "./runner.js";
export type { RunResult, RunSpec } from "./runner.js";
export { interpretRun } from "./output.js";
export type { HookErrorKind, HookResult, PermissionDecision } from "./output.js";
export { mergeResults } from "./merge.js";
export type { Merged, Verdict } from "./merge.js";
export { decide, mapMerged } from "./decide.js";
export type { CommandPoint, Decided } from "./decide.js";
export { commandHookTimeouts, deadlineWarning, geminiHookTimeouts, hookDeadlines } from "./budget.js";
export type { HookDeadline, HookTimeout, PointBudgets } from "./budget.js";
export { geminiCommandPluginSource } from "./gemini/source.js";
export type { GeminiPluginSource, GeminiSourceConfig, GeminiSourceOptions } from "./gemini/source.js";
export { geminiCommandListeners } from "./gemini/listener.js";
export type { GeminiFiring, GeminiListenerOptions } from "./gemini/listener.js";
export { GEMINI_HOOK_EVENTS, geminiMatcher, loadGeminiHooksFile, parseGeminiHooks } from "./gemini/parse.js";
export type { GeminiHookEvent, GeminiHookGroup, GeminiHookSpec, GeminiHooksModel } from "./gemini/parse.js";
export { interpretGeminiRun, mergeGeminiResults } from "./gemini/output.js";
export type { GeminiMerged, GeminiResult } from "./gemini/output.js";
export { buildGeminiPayload } from "./gemini/payload.js";
