// A `kind: "command"` plugin with `dialect: "gemini"`: a Gemini CLI hooks file, validated at load
// (so `hookd check` reports it), its listeners, and a log line per hook that failed, per output
// field that had no effect and per system message. The listeners never change until a reload.
import { dirname } from "node:path";
import type { Logger } from "../../../log.js";
import type { SessionInfo } from "@hookd/sdk";
import type { PluginSource } from "../../source.js";
import type { ObservedReport } from "../observe.js";
import type { PayloadExtras } from "../payload.js";
import { logObserved } from "../source.js";
import { deadlineWarning, geminiHookTimeouts, hookDeadlines } from "../budget.js";
import type { HookDeadline, PointBudgets } from "../budget.js";
import { staticSource } from "../../source.js";
import { geminiCommandListeners } from "./listener.js";
import type { GeminiFiring } from "./listener.js";
import { loadGeminiHooksFile } from "./parse.js";
import type { GeminiHooksModel } from "./parse.js";

export interface GeminiSourceConfig {
  readonly name: string;
  readonly hooks: string;
  readonly failurePolicy?: "fail-open" | "fail-closed";
  readonly points?: Parameters<typeof geminiCommandListeners>[1]["points"];
}

export interface GeminiSourceOptions {
  readonly log: Logger;
  readonly env?: NodeJS.ProcessEnv;
  readonly onReport?: (firing: GeminiFiring) => void;
  /** Also receives every firing at agent-event (tests). */
  readonly onObserved?: (report: ObservedReport) => void;
  /** What the agent last told about a session (its transcript): passed to the hooks. */
  readonly extrasOf?: (session: SessionInfo) => PayloadExtras;
  /** The daemon's point budgets, to tell which hooks they cut short. */
  readonly budgets?: PointBudgets;
}

export interface GeminiPluginSource extends PluginSource {
  readonly model: GeminiHooksModel;
  readonly notes: readonly string[];
  /** Each runnable hook's effective deadline, in file order (`hookd check` shows them). */
  readonly deadlines: readonly HookDeadline[];
}

function logFiring(log: Logger, firing: GeminiFiring): void {
  const where = { plugin: firing.plugin, point: firing.point, event: firing.event };
  for (const result of firing.results) {
    const fields = { ...where, hook: result.hook, status: result.status, durationMs: result.durationMs, ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }) };
    if (result.error !== undefined) log.warn("command hook failed", { ...fields, error: result.error.message, cause: result.error.kind });
    else log.debug("command hook answered", { ...fields, ...(result.decision === undefined ? {} : { decision: result.decision }) });
  }
  for (const note of firing.merged.notes) log.warn("command hook output ignored", { ...where, note });
  for (const message of firing.merged.systemMessages) log.info("command hook system message", { ...where, message });
}

export async function geminiCommandPluginSource(config: GeminiSourceConfig, options: GeminiSourceOptions): Promise<GeminiPluginSource> {
  const model = await loadGeminiHooksFile(config.hooks);
  const log = options.log.child({ plugin: config.name });
  for (const note of model.notes) log.warn("hooks file entry not run", { hooks: config.hooks, note });
  const listeners = geminiCommandListeners(model, {
    plugin: config.name,
    ...(config.failurePolicy === undefined ? {} : { failurePolicy: config.failurePolicy }),
    points: config.points ?? {},
    ...(options.env === undefined ? {} : { env: options.env }),
    fallbackCwd: dirname(config.hooks),
    ...(options.extrasOf === undefined ? {} : { extrasOf: options.extrasOf }),
    onReport: (firing) => {
      logFiring(log, firing);
      options.onReport?.(firing);
    },
    onObserved: (report) => {
      logObserved(log, report);
      options.onObserved?.(report);
    },
  });
  const deadlines = hookDeadlines(geminiHookTimeouts(model), (point) => listeners.find((l) => l.point === point)?.deadlineMs, options.budgets ?? {});
  for (const row of deadlines) {
    const warning = deadlineWarning(row);
    if (warning !== undefined) log.warn("command hook cut short by hookd", { hooks: config.hooks, warning });
  }
  const source = staticSource({ name: config.name, kind: "command", target: config.hooks }, listeners);
  return { ...source, model, notes: model.notes, deadlines };
}
