// Turns one config entry, whatever its kind, into a PluginSource: in-process modules are imported
// and validated with definePlugin, worker plugins are described inside the worker pool, remote
// and managed plugins are connected (or spawned) and started, command hooks files are parsed,
// Rego bundles are loaded into the Wasm runtime.
// Each kind builds its source in its own folder; this file only dispatches.
import { join } from "node:path";
import { HookdError } from "@hookd/sdk";
import type { Budgets } from "@hookd/sdk";
import { runtimeDir } from "../config/load.js";
import type { PluginConfig } from "../config/schema.js";
import type { SessionFacts } from "../engine/session-facts.js";
import type { Logger } from "../log.js";
import { commandPluginSource } from "./command/index.js";
import type { PointBudgets } from "./command/index.js";
import { inProcessSource } from "./in-process/source.js";
import { regoSource } from "./rego/source.js";
import { createManagedPlugin } from "./managed/source.js";
import type { RemotePlugin } from "./remote/plugin.js";
import type { ManagedPlugin } from "./managed/plugin.js";
import type { ManifestStore } from "./remote/manifest-store.js";
import { createRemotePlugin } from "./remote/source.js";
import { rulesSource } from "./rules/source.js";
import type { ProcessLedger } from "./managed/ledger.js";
import type { PluginSource } from "./source.js";
import type { WorkerPool } from "./worker/index.js";
import { workerSource } from "./worker/source.js";

export interface LoadContext {
  readonly defaultDeadlineMs: number;
  /** The budgets in force (config `defaults`): command hooks they would cut short are warned about. */
  readonly budgets?: Budgets;
  /** The config leaves the point budget to its default: command hooks then stretch it (never cut by it). */
  readonly pointBudgetIsDefault?: boolean;
  /** Created on first use: only configs with worker plugins pay for a pool. */
  readonly workerPool: () => WorkerPool;
  readonly log: Logger;
  /**
   * Managed plugins listen on `<pluginSocketDir>/<name>-<n>.sock`. Default: a directory of this
   * process under the runtime dir, so two daemons never share a plugin socket.
   */
  readonly pluginSocketDir?: string;
  /** Sent to remote and managed plugins in DescribeRequest. */
  readonly daemonVersion?: string;
  /** Where managed plugins' processes are recorded (managed/ledger.ts). */
  readonly ledger?: ProcessLedger;
  /** The last known manifests of remote and managed plugins; absent: none are read or persisted. */
  readonly manifests?: ManifestStore;
  /** What agents told about their sessions (transcript, permission mode, model), handed to command hooks. */
  readonly sessionFacts?: SessionFacts;
}

export async function loadPlugin(plugin: PluginConfig, context: LoadContext): Promise<PluginSource> {
  switch (plugin.kind) {
    case "in-process":
      return inProcessSource(plugin, context.defaultDeadlineMs);
    case "rego":
      return regoSource(plugin, context.defaultDeadlineMs, context.sessionFacts);
    case "worker":
      return workerSource(plugin, context.workerPool(), context.defaultDeadlineMs);
    case "remote":
    case "managed": {
      const log = context.log.child({ plugin: plugin.name });
      const { manifests } = context;
      // The last known manifest matters only when the config names no points (fallback.ts).
      const lastKnown = Object.keys(plugin.points ?? {}).length === 0 ? await manifests?.load(plugin.name) : undefined;
      const remote = {
        defaultDeadlineMs: context.defaultDeadlineMs,
        ...(context.daemonVersion === undefined ? {} : { daemonVersion: context.daemonVersion }),
        log,
        ...(manifests === undefined ? {} : { manifests }),
        ...(lastKnown === undefined ? {} : { lastKnown }),
      };
      const source =
        plugin.kind === "remote"
          ? await createRemotePlugin(plugin, remote)
          : createManagedPlugin(plugin, {
              ...remote,
              runtimeDir: context.pluginSocketDir ?? join(runtimeDir(), `plugins-${process.pid}`),
              // The socket directory is this process's own: removed once its last plugin is gone.
              removeRuntimeDir: true,
              output: () => (line, stream) => log.info("plugin output", { stream, line }),
              ...(context.ledger === undefined ? {} : { ledger: context.ledger }),
            });
      // start() never rejects: an unreachable plugin answers through its failure policy and is
      // probed until it comes up.
      await source.start();
      await refuseUngated(plugin, source, manifests);
      return source;
    }
    case "rules":
      return rulesSource(plugin, context.defaultDeadlineMs);
    case "command": {
      const facts = context.sessionFacts;
      return commandPluginSource(plugin, {
        log: context.log.child({ plugin: plugin.name }),
        ...(facts === undefined ? {} : { extrasOf: (session) => facts.of(session) }),
        budgets: budgetsOf(context),
      });
    }
  }
}

/** The budgets a command plugin's hooks run under, to warn about those they cut. */
function budgetsOf(context: LoadContext): PointBudgets {
  return {
    ...context.budgets,
    ...(context.pointBudgetIsDefault === true ? { stretch: true } : {}),
  };
}

/**
 * A `required` plugin that could not be described and has neither configured points nor a last
 * known manifest would gate by guesswork: the daemon refuses to start it (closing it first).
 */
async function refuseUngated(plugin: PluginConfig, source: RemotePlugin | ManagedPlugin, manifests: ManifestStore | undefined): Promise<void> {
  if (!plugin.required || source.subscriptionSource.from !== "none") return;
  const lastError = source.status().lastError;
  await source.close();
  const where = manifests === undefined ? "no state directory" : `none in ${manifests.dir}`;
  throw new HookdError(
    "unavailable",
    `plugins.${plugin.name}: required, but it could not be described at start${lastError === "" ? "" : ` (${lastError})`}, ` +
      `its config names no points (plugins.${plugin.name}.points) and it has no last known manifest (${where}); refusing to start without knowing what it gates`,
  );
}
