// `hookd check [--config F]`: validates a config without running it. Reports every schema
// problem with the path of the bad key (config/load.ts does that), then what only trying can
// tell: token files, the audit directory, each plugin loaded or connected (and waited for up to
// --timeout-ms), the registry they form. Prints, per point, the plugins that would run, in
// order. Exits 1 on any problem.
import { accessSync, constants, existsSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { POINTS } from "@hookd/sdk";
import { ConfigError, loadConfig, stateDir } from "../config/load.js";
import type { Config } from "../config/schema.js";
import type { Listener } from "../engine/listener.js";
import { PluginRegistry } from "../engine/registry.js";
import { WorkerPool } from "../plugins/worker/index.js";
import { AgentIdentities } from "../host/identity.js";
import { createLogger } from "../log.js";
import { loadPlugin } from "../plugins/load.js";
import { inMode, shadowPlugins } from "../plugins/plugin-set.js";
import type { LoadContext } from "../plugins/load.js";
import { ManifestStore } from "../plugins/remote/manifest-store.js";
import type { CommandPluginSource } from "../plugins/command/index.js";
import type { PluginSource } from "../plugins/source.js";
import { DAEMON_VERSION } from "../runtime/version.js";
import { table } from "./table.js";

export const CHECK_USAGE = "check [--config FILE] [--timeout-ms N]   validate a config, load and probe its plugins, show the order they run in";

/** How long a plugin may take to become reachable, by default. */
const DEFAULT_PROBE_MS = 5_000;

interface Output {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export async function check(args: string[], { out, err }: Output): Promise<number> {
  const { values } = parseArgs({ args, options: { config: { type: "string", short: "c" }, "timeout-ms": { type: "string" } }, strict: true });
  const probeMs = values["timeout-ms"] === undefined ? DEFAULT_PROBE_MS : Number(values["timeout-ms"]);
  let config: Config;
  let source: string;
  let configPath: string | undefined;
  try {
    const loaded = loadConfig(values.config);
    config = loaded.config;
    configPath = loaded.path;
    source = loaded.path ?? "(embedded default)";
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    err(`${error.source}: ${error.problems.length} problem${error.problems.length === 1 ? "" : "s"}:\n${error.problems.map((p) => `  - ${p}`).join("\n")}\n`);
    return 1;
  }
  out(`config ${source}: valid\n`);
  const problems: string[] = [];
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

  // Plugin output goes to stderr at warn and above, so the table stays readable.
  const log = createLogger({ level: "warn", write: (line) => err(line) });
  let pool: WorkerPool | undefined;
  const context: LoadContext = {
    defaultDeadlineMs: config.defaults.deadlineMs,
    pointBudgetMs: config.defaults.pointBudgetMs,
    sessionEndBudgetMs: config.defaults.sessionEndBudgetMs,
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
    printOrder(config, sources, problems, out);
    printSubscriptions(config, sources, out);
    printHookDeadlines(config, sources, out);
    printBypass(config, out);
  } finally {
    await Promise.allSettled(sources.map((s) => s.close()));
    await pool?.close();
  }
  if (problems.length > 0) {
    err(`${source}: ${problems.length} problem${problems.length === 1 ? "" : "s"}:\n${problems.map((p) => `  - ${p}`).join("\n")}\n`);
    return 1;
  }
  out("ok\n");
  return 0;
}

function printOrder(config: Config, sources: readonly PluginSource[], problems: string[], out: (text: string) => void): void {
  // In config order, so the registry's error (if any) names plugins as the operator wrote them.
  const ordered = config.plugins.map((p) => sources.find((s) => s.name === p.name)).filter((s): s is PluginSource => s !== undefined);
  let registry: PluginRegistry;
  try {
    const shadows = shadowPlugins(config.plugins);
    registry = new PluginRegistry(ordered.flatMap((s) => inMode(s.listeners(), shadows.has(s.name))), { stretchBudgets: config.defaults.pointBudgetIsDefault });
  } catch (error) {
    problems.push(`plugins: ${messageOf(error)}`);
    return;
  }
  const rows: string[][] = [];
  for (const point of POINTS) {
    // The deadline that really applies: the point's budget cuts a longer one (shown beside it).
    // A default point budget grows by the listener's own need (a command plugin's hooks' time).
    const budget = (l: Listener): number => (point === "session-end" ? config.defaults.sessionEndBudgetMs : config.defaults.pointBudgetMs + registry.extraBudgetMs([l]));
    const deadline = (l: Listener): string => (l.deadlineMs > budget(l) ? `${budget(l)}ms (budget; own ${l.deadlineMs}ms)` : `${l.deadlineMs}ms`);
    registry.listeners(point).forEach((l, i) => rows.push([point, String(i + 1), l.plugin, l.kind, String(l.priority), deadline(l), l.failurePolicy]));
    // Shadow plugins are called beside the chain and never applied, so they have no place in its order.
    for (const l of registry.shadows(point)) rows.push([point, "shadow", l.plugin, l.kind, String(l.priority), deadline(l), "contained"]);
  }
  if (rows.length === 0) out("no plugin subscribes to any point\n");
  else out(table(["POINT", "#", "PLUGIN", "KIND", "PRIORITY", "DEADLINE", "ON FAILURE"], rows));
  const { pointBudgetMs, pointBudgetIsDefault } = config.defaults;
  out(`point budget: ${pointBudgetMs}ms${pointBudgetIsDefault ? " (default; where command hooks run it grows by their own timeouts)" : " (defaults.pointBudgetMs, exact)"}\n`);
}

/** Per remote and managed plugin, where its subscriptions come from (fail-closed never silently opens). */
function printSubscriptions(config: Config, sources: readonly PluginSource[], out: (text: string) => void): void {
  const rows = config.plugins.flatMap((p) => {
    const status = sources.find((s) => s.name === p.name)?.status();
    return status?.subscriptions === undefined ? [] : [[status.name, status.kind, status.health, status.subscriptions]];
  });
  if (rows.length > 0) out(table(["PLUGIN", "KIND", "HEALTH", "SUBSCRIPTIONS"], rows));
}

/** Per command hook: the timeout the agent would give it and the deadline hookd gives it. */
function printHookDeadlines(config: Config, sources: readonly PluginSource[], out: (text: string) => void): void {
  const rows = config.plugins.flatMap((p) => {
    const source = sources.find((s) => s.name === p.name);
    if (source === undefined || !("deadlines" in source)) return [];
    return (source as CommandPluginSource).deadlines.map((d) => [p.name, d.hook, d.point, `${d.timeoutMs}ms${d.ownTimeout ? "" : " (default)"}`, `${d.effectiveMs}ms`, d.cutBy ?? ""]);
  });
  if (rows.length > 0) out(table(["PLUGIN", "HOOK", "RUNS AT", "TIMEOUT", "EFFECTIVE", "CUT BY"], rows));
}

/** Plugins whose allow the agents' hooks receive as an allow, skipping the agent's own permission prompt. */
function printBypass(config: Config, out: (text: string) => void): void {
  const names = config.plugins.filter((p) => p.bypassAgentPermissions === true).map((p) => p.name);
  if (names.length > 0) out(`bypassAgentPermissions (an allow skips the agent's own permission rules over its hooks): ${names.join(", ")}\n`);
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
