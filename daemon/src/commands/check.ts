// `hookd check [--config F] [--json]`: validates a config without running it. Reports every
// schema problem with the path of the bad key (config/load.ts does that), then what only trying
// can tell: token files, the audit directory, each plugin loaded or connected (and waited for up
// to --timeout-ms), the registry they form, and per point the plugins that would run, in order.
// Everything is gathered into one report (check-report.ts) and printed at the end. Exits 1 on
// any problem.
import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import { POINTS, POINT_TABLE } from "@hookd/sdk";
import { configuredBudgets } from "../config/budgets.js";
import { isConfigError, loadConfig, stateDir } from "../config/load.js";
import type { Config } from "../config/schema.js";
import { bypassesByDefault } from "../config/bypass.js";
import type { Listener } from "../engine/listener.js";
import { PluginRegistry } from "../engine/registry.js";
import { WorkerPool } from "../plugins/worker/index.js";
import { AgentIdentities } from "../host/identity.js";
import { captureConsole, createLogger } from "../log.js";
import { loadPlugin } from "../plugins/load.js";
import { inMode, shadowPlugins } from "../plugins/plugin-set.js";
import type { LoadContext } from "../plugins/load.js";
import { ManifestStore } from "../plugins/remote/manifest-store.js";
import type { CommandPluginSource } from "../plugins/command/index.js";
import type { RulesPluginSource } from "../plugins/rules/source.js";
import type { PluginSource } from "../plugins/source.js";
import { DAEMON_VERSION } from "../runtime/version.js";
import { columns, newReport, printReport, printReportJson, warningOf } from "./check-report.js";
import type { CheckReport } from "./check-report.js";
import { integerOption, parseCommand, stringOption } from "./usage.js";

/** How long a plugin may take to become reachable, by default. */
const DEFAULT_PROBE_MS = 5_000;

interface Output {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Colour the report (stdout is a terminal and NO_COLOR is not set). */
  readonly colour?: boolean;
}

export async function check(args: string[], { out, err, colour = false }: Output): Promise<number> {
  const values = parseCommand("check", args);
  const probeMs = integerOption(values, "timeout-ms", DEFAULT_PROBE_MS);
  const report = await buildReport(stringOption(values, "config"), probeMs);
  return values.json === true ? printReportJson(report, out) : printReport(report, { out, err, colour });
}

/** Everything `check` finds about a config. */
export async function buildReport(configFile: string | undefined, probeMs: number): Promise<CheckReport> {
  let config: Config;
  let configPath: string | undefined;
  try {
    const loaded = loadConfig(configFile);
    config = loaded.config;
    configPath = loaded.path;
  } catch (error) {
    if (!isConfigError(error)) throw error;
    const report = newReport(error.details.source);
    report.problems.push(...error.details.problems);
    return report;
  }
  const report = newReport(configPath ?? "(embedded default)");
  const { problems } = report;
  config.access.tokens.forEach((token, i) => {
    try {
      new AgentIdentities([token]);
    } catch (error) {
      problems.push(`access.tokens[${i}].tokenFile: ${messageOf(error)}`);
    }
  });
  if (config.audit !== undefined) {
    const problem = writableDirectory(dirname(config.audit.path));
    if (problem !== undefined) problems.push(`audit.path: ${problem}`);
  }

  // What loading logs at warn and above (and what plugin code prints there) becomes the report's
  // warnings, never raw lines among its tables.
  const log = createLogger({ level: "warn", format: "json", write: (line) => report.warnings.push(warningOf(line)) });
  captureConsole(log);
  let pool: WorkerPool | undefined;
  const context: LoadContext = {
    defaultDeadlineMs: config.defaults.deadlineMs,
    budgets: configuredBudgets(config),
    pointBudgetIsDefault: config.defaults.pointBudgetIsDefault,
    workerPool: () => (pool ??= new WorkerPool({ size: 1 })),
    log,
    daemonVersion: DAEMON_VERSION,
    // Read-only: what the daemon would fall back to, without changing what it will find.
    manifests: new ManifestStore(stateDir(config, configPath), log, { readOnly: true }),
  };
  const sources: PluginSource[] = [];
  try {
    await Promise.all(
      config.plugins.map(async (plugin, i) => {
        try {
          const loaded = await loadPlugin(plugin, context);
          sources.push(loaded);
          if (!(await readyWithin(loaded, probeMs))) {
            const lastError = loaded.status().lastError;
            problems.push(`plugins[${i}] (${plugin.name}): not reachable within ${probeMs} ms${lastError === "" ? "" : `: ${lastError}`}`);
          }
        } catch (error) {
          problems.push(`plugins[${i}] (${plugin.name}): ${messageOf(error)}`);
        }
      }),
    );
    addOrder(config, sources, report);
    addSubscriptions(config, sources, report);
    addHookDeadlines(config, sources, report);
    addWarmHooks(config, sources, report);
    addRules(config, sources, report);
    addBypass(config, report);
  } finally {
    await Promise.allSettled(sources.map((s) => s.close()));
    await pool?.close();
  }
  return report;
}

function addOrder(config: Config, sources: readonly PluginSource[], report: CheckReport): void {
  // In config order, so the registry's error (if any) names plugins as the operator wrote them.
  const ordered = config.plugins.map((p) => sources.find((s) => s.name === p.name)).filter((s): s is PluginSource => s !== undefined);
  let registry: PluginRegistry;
  try {
    const shadows = shadowPlugins(config.plugins);
    registry = new PluginRegistry(ordered.flatMap((s) => inMode(s.listeners(), shadows.has(s.name))), { stretchBudgets: config.defaults.pointBudgetIsDefault });
  } catch (error) {
    report.problems.push(`plugins: ${messageOf(error)}`);
    return;
  }
  const budgets = configuredBudgets(config);
  const rows: (string | number)[][] = [];
  for (const point of POINTS) {
    // The deadline that really applies: the budget the point's spec names cuts a longer one
    // (shown beside it); a default budget grows by the listener's own need, as the engine's does.
    const budget = (l: Listener): number => budgets[POINT_TABLE[point].budget.of] + registry.extraBudgetMs([l]);
    const deadline = (l: Listener): string => (l.deadlineMs > budget(l) ? `${budget(l)}ms (budget; own ${l.deadlineMs}ms)` : `${l.deadlineMs}ms`);
    registry.listeners(point).forEach((l, i) => rows.push([point, i + 1, l.plugin, l.kind, l.priority, deadline(l), l.failurePolicy]));
    // Shadow plugins are called beside the chain and never applied, so they have no place in its order.
    for (const l of registry.shadows(point)) rows.push([point, "shadow", l.plugin, l.kind, l.priority, deadline(l), "contained"]);
  }
  report.tables.push({
    id: "order",
    columns: columns("POINT:point", "#:position", "PLUGIN:plugin", "KIND:kind", "PRIORITY:priority", "DEADLINE:deadline", "ON FAILURE:onFailure"),
    rows,
    empty: "no plugin subscribes to any point",
  });
  const { pointBudgetMs, pointBudgetIsDefault } = config.defaults;
  report.notes.push(`point budget: ${pointBudgetMs}ms${pointBudgetIsDefault ? " (default; where command hooks run it grows by their own timeouts)" : " (defaults.pointBudgetMs, exact)"}`);
}

/** Per remote and managed plugin, where its subscriptions come from (fail-closed never silently opens). */
function addSubscriptions(config: Config, sources: readonly PluginSource[], report: CheckReport): void {
  const rows = config.plugins.flatMap((p) => {
    const status = sources.find((s) => s.name === p.name)?.status();
    return status?.subscriptions === undefined ? [] : [[status.name, status.kind, status.health, status.subscriptions]];
  });
  report.tables.push({ id: "subscriptions", columns: columns("PLUGIN:plugin", "KIND:kind", "HEALTH:health", "SUBSCRIPTIONS:subscriptions"), rows });
}

/** Per command hook: the timeout the agent would give it and the deadline hookd gives it. */
function addHookDeadlines(config: Config, sources: readonly PluginSource[], report: CheckReport): void {
  const rows = config.plugins.flatMap((p) => {
    const source = sources.find((s) => s.name === p.name);
    if (source === undefined || !("deadlines" in source)) return [];
    return (source as CommandPluginSource).deadlines.map((d) => [p.name, d.hook, d.point, `${d.timeoutMs}ms${d.ownTimeout ? "" : " (default)"}`, `${d.effectiveMs}ms`, d.cutBy ?? ""]);
  });
  report.tables.push({ id: "hookDeadlines", columns: columns("PLUGIN:plugin", "HOOK:hook", "RUNS AT:runsAt", "TIMEOUT:timeout", "EFFECTIVE:effective", "CUT BY:cutBy"), rows });
}

/** Per command hook: whether it runs in a warm interpreter, or why it is spawned. */
function addWarmHooks(config: Config, sources: readonly PluginSource[], report: CheckReport): void {
  const rows = config.plugins.flatMap((p) => {
    const source = sources.find((s) => s.name === p.name);
    if (source === undefined || !("warmHooks" in source)) return [];
    return (source as CommandPluginSource).warmHooks.map((w) => [p.name, w.hook, w.runs, w.why ?? ""]);
  });
  report.tables.push({ id: "warmHooks", columns: columns("PLUGIN:plugin", "HOOK:hook", "RUNS:runs", "WHY:why"), rows });
}

/** Per rules plugin, its rules in the order they are tried (the first that decides wins). */
function addRules(config: Config, sources: readonly PluginSource[], report: CheckReport): void {
  const rows = config.plugins.flatMap((p) => {
    const source = sources.find((s) => s.name === p.name);
    if (source === undefined || !("rules" in source)) return [];
    return (source as RulesPluginSource).rules.map((r, i) => [p.name, i + 1, r.id, r.point, r.decision, r.tools.length === 0 ? "*" : r.tools.join(","), r.file]);
  });
  report.tables.push({ id: "rules", columns: columns("PLUGIN:plugin", "#:position", "RULE:rule", "POINT:point", "DECISION:decision", "TOOLS:tools", "FILE:file"), rows });
}

/** Plugins whose allow the agents' hooks receive as an allow, skipping the agent's own permission prompt (the effective value: a command plugin's by default). */
function addBypass(config: Config, report: CheckReport): void {
  const names = config.plugins.filter(bypassesByDefault).map((p) => (p.bypassAgentPermissions === undefined ? `${p.name} (the command kind's default)` : p.name));
  if (names.length > 0) report.notes.push(`bypassAgentPermissions (an allow skips the agent's own permission rules over its hooks): ${names.join(", ")}`);
}

/** Resolves true once the source can answer, false after `timeoutMs`. */
async function readyWithin(source: PluginSource, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!source.ready()) {
    if (Date.now() >= end) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** Why `dir` (or the nearest existing parent, where it would be created) cannot be written. */
function writableDirectory(dir: string): string | undefined {
  let probe = dir;
  while (!existsSync(probe) && dirname(probe) !== probe) probe = dirname(probe);
  try {
    accessSync(probe, constants.W_OK);
    return undefined;
  } catch (error) {
    return `cannot write in ${probe}: ${messageOf(error)}`;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
