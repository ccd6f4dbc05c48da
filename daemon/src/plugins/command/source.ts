// A `kind: "command"` plugin from its config entry, for any agent: loads and validates the hooks
// file by its agent's format (an invalid
// file, e.g. a bad matcher, rejects the plugin at load and so in `hookd check`), builds the
// listeners, warns about hooks whose own timeout hookd would cut short, and logs what hooks did
// in config order (each hook's outcome, ignored fields, system messages, contexts handed on).
// The listeners never change until a reload.
import { dirname } from "node:path";
import type { SessionInfo } from "@hookd/sdk";
import type { HookSpec, HooksModel, PayloadExtras } from "../../agents/contract.js";
import { knownAgent } from "../../agents/registry.js";
import type { PluginConfig } from "../../config/schema.js";
import type { Logger } from "../../log.js";
import type { PluginSource, PluginStatus } from "../source.js";
import { staticSource } from "../source.js";
import { commandHookTimeouts, deadlineWarning, hookDeadlines } from "./budget.js";
import type { HookDeadline, PointBudgets } from "./budget.js";
import { commandListeners } from "./listener.js";
import type { CommandRunReport } from "./listener.js";
import { loadHooksFile } from "../../agents/hooks-file.js";
import type { ObservedReport } from "./observe.js";
import { WarmPool } from "../../processes/warm/pool.js";
import { warmExclusion } from "./warm-exclude.js";
import type { WarmExclusion } from "./warm-exclude.js";

export type CommandPluginConfig = Extract<PluginConfig, { kind: "command" }>;

export interface CommandSourceOptions {
  readonly log: Logger;
  /** The hooks' base environment; default process.env. */
  readonly env?: NodeJS.ProcessEnv;
  /** Also receives every firing's report (tests, metrics). */
  readonly onReport?: (report: CommandRunReport) => void;
  /** Also receives every firing at agent-event (tests). */
  readonly onObserved?: (report: ObservedReport) => void;
  /** Called with each hook's process group id once it runs (tests check the group is gone). */
  readonly onSpawn?: (hook: string, pgid: number) => void;
  /** The daemon's point budgets, to tell which hooks they cut short. */
  readonly budgets?: PointBudgets;
  /** What the agent last told about a session (transcript, permission mode, model): passed to the hooks. */
  readonly extrasOf?: (session: SessionInfo) => PayloadExtras;
}

export interface CommandPluginSource extends PluginSource {
  /** The validated hooks file. */
  readonly model: HooksModel;
  /** What the file holds that hookd accepts but never runs, one line each, for `hookd check`. */
  readonly notes: readonly string[];
  /** Each runnable hook's effective deadline, in file order (`hookd check` shows them). */
  readonly deadlines: readonly HookDeadline[];
  /** The plugin's warm interpreters; undefined with `warm: false`. */
  readonly warm: WarmPool | undefined;
  /** Each hook, in file order: whether it runs warm, or why it is spawned (`hookd check` shows them). */
  readonly warmHooks: readonly WarmHook[];
}

export interface WarmHook {
  readonly hook: string;
  readonly runs: "warm" | "spawn";
  readonly why?: string;
}

/** Logs one firing: a line per hook in config order (not again for a run reused from the rewrite point), then what had no effect and the system messages. */
function logFiring(log: Logger, where: { readonly plugin: string; readonly point: string; readonly event?: string }, report: Pick<CommandRunReport, "results" | "reused" | "deferredContexts">, notes: readonly string[], messages: readonly string[]): void {
  for (const result of report.reused === undefined ? report.results : []) {
    const fields = {
      ...where,
      hook: result.hook,
      status: result.status,
      durationMs: result.durationMs,
      ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
      ...(result.error === undefined ? {} : { error: result.error.message, cause: result.error.kind }),
      ...(result.block === undefined ? {} : { block: result.block }),
      ...(result.permission === undefined ? {} : { permission: result.permission }),
    };
    if (result.status === "error") log.warn("command hook failed", fields);
    else log.debug("command hook answered", fields);
  }
  if (report.deferredContexts !== undefined) {
    // pre-tool's decision carries no context: it is delivered with the call's result instead.
    log.info("PreToolUse additionalContext delivered with the call's result (post-tool)", { ...where, contexts: report.deferredContexts });
  }
  for (const note of notes) log.warn("command hook output ignored", { ...where, note });
  for (const message of messages) log.info("command hook system message", { ...where, message });
}

/** Logs one firing at a typed point. */
export function logReport(log: Logger, report: CommandRunReport): void {
  logFiring(log, { plugin: report.plugin, point: report.point }, report, report.merged.notes, report.merged.systemMessages);
}

/** Logs one firing at agent-event: its hooks, and the answers not honoured there (observe-only). */
export function logObserved(log: Logger, report: ObservedReport): void {
  const where = { plugin: report.plugin, point: "agent-event", event: report.event };
  logFiring(log, where, report, report.results.flatMap((result) => result.notes.map((note) => `${result.hook}: ${note}`)), report.systemMessages);
  for (const note of report.notHonoured) log.warn("command hook answer not honoured (agent-event is observe-only)", { ...where, note });
}

export async function commandPluginSource(config: CommandPluginConfig, options: CommandSourceOptions): Promise<CommandPluginSource> {
  const agent = knownAgent(config.dialect);
  const model = await loadHooksFile(agent.commandHooks.parse, config.hooks);
  const log = options.log.child({ plugin: config.name });
  for (const note of model.notes) log.warn("hooks file entry not run", { hooks: config.hooks, note });
  const warm = config.warm !== false ? new WarmPool({
    onFallback: (command, reason) => log.info("command hook runs as a spawn, not warm", { command, reason }),
    onServerExit: (interpreter, why) => log.warn("warm interpreter exited; it starts again on the next run", { interpreter, why }),
  }) : undefined;
  const exclusion = typeof config.warm === "object" ? warmExclusion(config.warm.exclude) : undefined;
  const warmHooks = planWarmHooks(warm, model, options.env ?? process.env, dirname(config.hooks), exclusion);
  if (typeof config.warm === "object") {
    const used = new Set(allHooks(model).map((hook) => exclusion?.entryFor(hook)));
    for (const entry of config.warm.exclude) if (!used.has(entry)) log.warn("warm.exclude entry names no hook of the file", { hooks: config.hooks, entry });
  }
  const listeners = commandListeners(agent, model, {
    plugin: config.name,
    ...(config.failurePolicy === undefined ? {} : { failurePolicy: config.failurePolicy }),
    points: config.points ?? {},
    ...(options.env === undefined ? {} : { env: options.env }),
    fallbackCwd: dirname(config.hooks),
    ...(options.onSpawn === undefined ? {} : { onSpawn: options.onSpawn }),
    ...(options.extrasOf === undefined ? {} : { extrasOf: options.extrasOf }),
    ...(warm === undefined ? {} : { warm: exclusion === undefined ? warm : { run: (spec, hook) => (exclusion.entryFor(hook) === undefined ? warm.run(spec) : undefined) } }),
    onReport: (report) => {
      logReport(log, report);
      options.onReport?.(report);
    },
    onObserved: (report) => {
      logObserved(log, report);
      options.onObserved?.(report);
    },
  });
  const deadlines = hookDeadlines(commandHookTimeouts(agent, model), (point) => listeners.find((l) => l.point === point)?.deadlineMs, options.budgets ?? {});
  for (const row of deadlines) {
    const warning = deadlineWarning(row);
    if (warning !== undefined) log.warn("command hook cut short by hookd", { hooks: config.hooks, warning });
  }
  const source = staticSource({ name: config.name, kind: "command", target: config.hooks }, listeners, async () => warm?.close());
  const status = (): PluginStatus => (warm === undefined ? source.status() : { ...source.status(), warm: warm.stats() });
  return { ...source, status, model, notes: model.notes, deadlines, warm, warmHooks };
}

/**
 * How each hook of the file runs, planned from the file's directory (a session in another cwd is
 * planned again when the hook runs; `${VAR}`s the agent substitutes are not yet substituted here),
 * and the interpreters of those that run warm started off the agent's path.
 */
function planWarmHooks(warm: WarmPool | undefined, model: HooksModel, env: NodeJS.ProcessEnv, cwd: string, exclusion: WarmExclusion | undefined): WarmHook[] {
  const rows = new Map<string, WarmHook>();
  for (const hook of allHooks(model)) {
    if (rows.has(hook.id)) continue;
    const excludedBy = exclusion?.entryFor(hook);
    const why = warm === undefined ? "warm: false in the plugin's config" : excludedBy !== undefined ? `warm.exclude lists it ("${excludedBy}")` : WarmPool.spawnReason(hook.command, cwd, env);
    rows.set(hook.id, why === undefined ? { hook: hook.id, runs: "warm" } : { hook: hook.id, runs: "spawn", why });
    if (warm !== undefined && why === undefined) warm.prepare(hook.command, cwd, env).catch(() => {});
  }
  return [...rows.values()];
}

function allHooks(model: HooksModel): HookSpec[] {
  return Object.values(model.groups).flatMap((groups) => (groups ?? []).flatMap((group) => group.hooks));
}
