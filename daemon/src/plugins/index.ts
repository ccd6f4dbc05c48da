// The out-of-process plugin runtimes: remote plugins (a gRPC server someone else runs) and
// managed plugins (a process the daemon spawns, supervises and stops), built from their config
// entries.
//
// Lifecycle, as the daemon drives it (daemon/src/runtime/other-plugins.ts):
//   const plugin = await createPluginRuntime(entry, { runtimeDir, log, defaultDeadlineMs });
//   await plugin.start();               // never rejects; check status().health for `required`
//   plugin.onChange(rebuild);           // the daemon rebuilds and swaps its frozen registry
//   ...                                 // status() for the admin service
//   await plugin.close();               // managed: SIGTERM, SIGKILL after stopGraceMs
// A plugin unreachable at start has the listeners its config's `points` name (failing fast as
// "unavailable", so their failure policy answers); once it comes up and is described, onChange
// fires and the daemon swaps in a registry built from its manifest.
import type { PluginConfig } from "../config/schema.js";
import type { Logger } from "../log.js";
import { ManagedPlugin } from "./managed/plugin.js";
import type { OutputSink } from "./managed/process.js";
import { RemotePlugin } from "./remote/plugin.js";
import type { PluginRuntime } from "./remote/plugin.js";
import { channelCredentials, channelOptions, checkTarget } from "./remote/target.js";

export { RemotePlugin, DEFAULT_HEALTH_POLICY } from "./remote/plugin.js";
export type { HealthChange, HealthPolicy, PluginHealth, PluginRuntime, PluginStatus, RemotePluginOptions } from "./remote/plugin.js";
export { RemoteConnection, RpcFailure } from "./remote/connection.js";
export { readManifest, manifestSettings, configSettings } from "./remote/manifest.js";
export type { ListenerSettings, ManifestSubscription, PointOverrides, RemoteManifest } from "./remote/manifest.js";
export { channelCredentials, channelOptions, checkTarget } from "./remote/target.js";
export type { BackoffPolicy, TlsFiles } from "./remote/target.js";
export type { CallCounters } from "./remote/stats.js";
export { ManagedPlugin, PLUGIN_SOCKET_ENV } from "./managed/plugin.js";
export type { ManagedPluginOptions } from "./managed/plugin.js";
export { PluginProcess, describeExit } from "./managed/process.js";
export type { ExitInfo, OutputSink, OutputStream, ProcessSpec } from "./managed/process.js";

export type RemotePluginConfig = Extract<PluginConfig, { kind: "remote" }>;
export type ManagedPluginConfig = Extract<PluginConfig, { kind: "managed" }>;

/** What every runtime built from config shares. */
export interface RuntimeContext {
  /** Managed plugins listen on `<runtimeDir>/<name>.sock`. */
  readonly runtimeDir: string;
  /** The config's `defaults.deadlineMs`. */
  readonly defaultDeadlineMs?: number;
  readonly daemonVersion?: string;
  readonly log?: Logger;
  /** Where a managed plugin's output lines go; default: the log, at info. */
  readonly output?: (plugin: string) => OutputSink;
}

/** A RemotePlugin from its config entry; reads the TLS files (errors name the config field). */
export async function createRemotePlugin(config: RemotePluginConfig, context: RuntimeContext): Promise<RemotePlugin> {
  const target = checkTarget(config.target, `plugins.${config.name}.target`);
  return new RemotePlugin({
    name: config.name,
    target,
    credentials: await channelCredentials(config.tls, `plugins.${config.name}.tls`),
    channelOptions: channelOptions(config.health, config.tls),
    ...common(config, context),
  });
}

/** A ManagedPlugin from its config entry (not started). */
export function createManagedPlugin(config: ManagedPluginConfig, context: RuntimeContext): ManagedPlugin {
  const output = context.output?.(config.name);
  return new ManagedPlugin({
    name: config.name,
    command: config.command,
    args: config.args,
    env: config.env,
    ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
    runtimeDir: context.runtimeDir,
    stopGraceMs: config.stopGraceMs,
    startTimeoutMs: config.startTimeoutMs,
    ...(output === undefined ? {} : { output }),
    ...common(config, context),
  });
}

export async function createPluginRuntime(config: RemotePluginConfig | ManagedPluginConfig, context: RuntimeContext): Promise<PluginRuntime> {
  return config.kind === "remote" ? createRemotePlugin(config, context) : createManagedPlugin(config, context);
}

function common(config: RemotePluginConfig | ManagedPluginConfig, context: RuntimeContext) {
  return {
    overrides: config.points ?? {},
    health: config.health,
    ...(context.defaultDeadlineMs === undefined ? {} : { defaultDeadlineMs: context.defaultDeadlineMs }),
    ...(context.daemonVersion === undefined ? {} : { daemonVersion: context.daemonVersion }),
    ...(context.log === undefined ? {} : { log: context.log }),
  };
}
