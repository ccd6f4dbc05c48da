// A `kind: "managed"` plugin from its config entry: the ManagedPlugin (not started) with its
// command, environment and socket directory.
import { commonOptions } from "../remote/source.js";
import type { ManagedPluginConfig, RemoteContext } from "../remote/source.js";
import type { ProcessLedger } from "./ledger.js";
import { ManagedPlugin } from "./plugin.js";
import type { OutputSink } from "./process.js";

export interface ManagedContext extends RemoteContext {
  /** Managed plugins listen on `<runtimeDir>/<name>-<n>.sock`. */
  readonly runtimeDir: string;
  /** The daemon owns runtimeDir: the last plugin to close removes it. */
  readonly removeRuntimeDir?: boolean;
  /** Where a managed plugin's output lines go; default: the log, at info. */
  readonly output?: (plugin: string) => OutputSink;
  /** Records each running process (ledger.ts). */
  readonly ledger?: ProcessLedger;
}

export function createManagedPlugin(config: ManagedPluginConfig, context: ManagedContext): ManagedPlugin {
  const output = context.output?.(config.name);
  return new ManagedPlugin({
    name: config.name,
    command: config.command,
    args: config.args,
    env: config.env,
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    runtimeDir: context.runtimeDir,
    ...(context.removeRuntimeDir === undefined ? {} : { removeRuntimeDir: context.removeRuntimeDir }),
    stopGraceMs: config.stopGraceMs,
    startTimeoutMs: config.startTimeoutMs,
    ...(output === undefined ? {} : { output }),
    ...(context.ledger === undefined ? {} : { ledger: context.ledger }),
    ...commonOptions(config, context),
  });
}
