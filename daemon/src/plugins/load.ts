// Turns one config entry, whatever its kind, into a PluginSource: in-process modules are imported
// and validated with definePlugin, worker plugins are described inside the worker pool, remote
// and managed plugins are connected (or spawned) and started, command hooks files are parsed.
// Each kind builds its source in its own folder; this file only dispatches.
import { join } from "node:path";
import { runtimeDir } from "../config/load.js";
import type { PluginConfig } from "../config/schema.js";
import type { Logger } from "../log.js";
import { commandPluginSource } from "./command/index.js";
import { inProcessSource } from "./in-process/source.js";
import { createManagedPlugin } from "./managed/source.js";
import { createRemotePlugin } from "./remote/source.js";
import type { ProcessLedger } from "./managed/ledger.js";
import type { PluginSource } from "./source.js";
import type { WorkerPool } from "./worker/index.js";
import { workerSource } from "./worker/source.js";

export interface LoadContext {
  readonly defaultDeadlineMs: number;
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
}

export async function loadPlugin(plugin: PluginConfig, context: LoadContext): Promise<PluginSource> {
  switch (plugin.kind) {
    case "in-process":
      return inProcessSource(plugin, context.defaultDeadlineMs);
    case "worker":
      return workerSource(plugin, context.workerPool(), context.defaultDeadlineMs);
    case "remote":
    case "managed": {
      const log = context.log.child({ plugin: plugin.name });
      const remote = { defaultDeadlineMs: context.defaultDeadlineMs, ...(context.daemonVersion === undefined ? {} : { daemonVersion: context.daemonVersion }), log };
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
      return source;
    }
    case "command":
      return commandPluginSource(plugin, { log: context.log.child({ plugin: plugin.name }) });
  }
}
