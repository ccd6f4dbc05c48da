// Loads the plugin kinds that live outside the engine — remote and managed gRPC plugins, and
// Claude Code / Codex command hooks — and adapts each runtime to the daemon's PluginSource.
import { rmdir } from "node:fs/promises";
import { join } from "node:path";
import { runtimeDir } from "../config/load.js";
import type { Logger } from "../log.js";
import { commandPluginSource } from "../plugins/command/index.js";
import { createPluginRuntime } from "../plugins/index.js";
import type { PluginRuntime } from "../plugins/index.js";
import type { OtherKindLoader } from "../plugins/load.js";
import type { PluginSource } from "../plugins/source.js";

export interface OtherPluginsOptions {
  /**
   * Managed plugins listen on `<pluginSocketDir>/<name>.sock`. Default: a directory of this
   * process under the runtime dir, so two daemons never share a plugin socket.
   */
  readonly pluginSocketDir?: string;
  readonly daemonVersion?: string;
}

export function loadOtherPlugin(baseLog: Logger, options: OtherPluginsOptions = {}): OtherKindLoader {
  const socketDir = options.pluginSocketDir ?? join(runtimeDir(), `plugins-${process.pid}`);
  return async (plugin, context) => {
    switch (plugin.kind) {
      case "remote":
      case "managed": {
        const log = baseLog.child({ plugin: plugin.name });
        const runtime = await createPluginRuntime(plugin, {
          runtimeDir: socketDir,
          defaultDeadlineMs: context.defaultDeadlineMs,
          ...(options.daemonVersion === undefined ? {} : { daemonVersion: options.daemonVersion }),
          log,
          output: () => (line, stream) => log.info("plugin output", { stream, line }),
        });
        // start() never rejects: an unreachable plugin answers through its failure policy and is
        // probed until it comes up.
        await runtime.start();
        // The socket directory is this process's own: remove it once its last plugin is gone.
        return runtimeSource(runtime, () => rmdir(socketDir).catch(() => {}));
      }
      case "command":
        return commandPluginSource(plugin, { log: baseLog.child({ plugin: plugin.name }) });
    }
  };
}

function runtimeSource(runtime: PluginRuntime, afterClose: () => Promise<void>): PluginSource {
  return {
    name: runtime.name,
    listeners: () => runtime.listeners(),
    onChange: (callback) => void runtime.onChange(callback),
    status: () => {
      const status = runtime.status();
      return {
        name: status.name,
        kind: status.kind,
        target: status.target,
        health: status.health,
        points: status.points,
        restarts: status.restarts,
        lastError: status.lastError ?? "",
      };
    },
    ready: () => runtime.status().health === "serving",
    close: async () => {
      await runtime.close();
      await afterClose();
    },
  };
}
