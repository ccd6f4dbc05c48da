// Plugin kinds: in-process modules (on the main thread or in the worker pool), remote gRPC
// plugins, managed plugins (a process the daemon spawns, supervises and stops) and command hooks,
// each turned into the one PluginSource contract (source.ts) by the loader (load.ts); the plugin
// set (plugin-set.ts) holds the loaded sources, reloads them and builds the frozen registry.
//
// Lifecycle of an out-of-process plugin, as the loader drives it:
//   const plugin = await createRemotePlugin(entry, { log, defaultDeadlineMs });  // or createManagedPlugin
//   await plugin.start();               // never rejects; ready() tells `required` plugins apart
//   plugin.onChange(rebuild);           // the plugin set rebuilds and swaps its frozen registry
//   ...                                 // status() for the admin service
//   await plugin.close();               // managed: SIGTERM, SIGKILL after stopGraceMs
// A plugin unreachable at start has the listeners its config's `points` name (failing fast as
// "unavailable", so their failure policy answers); once it comes up and is described, onChange
// fires and the plugin set swaps in a registry built from its manifest.
export { expectName, staticSource } from "./source.js";
export type { PluginHealth, PluginSource, PluginStatus } from "./source.js";
export { loadPlugin } from "./load.js";
export type { LoadContext } from "./load.js";
export { PluginSet } from "./plugin-set.js";
export { inProcessListeners } from "./in-process/listeners.js";
export { importPlugin, inProcessSource } from "./in-process/source.js";
export { WorkerPool, workerEntryPath, workerListeners } from "./worker/index.js";
export { RemotePlugin } from "./remote/plugin.js";
export type { RemotePluginOptions, RemoteStatus } from "./remote/plugin.js";
export { DEFAULT_HEALTH_POLICY } from "./remote/health.js";
export type { HealthChange, HealthPolicy } from "./remote/health.js";
export { createRemotePlugin } from "./remote/source.js";
export type { ManagedPluginConfig, RemoteContext, RemotePluginConfig } from "./remote/source.js";
export { RemoteConnection, isRpcFailure, rpcFailure, type RpcFailure } from "./remote/connection.js";
export { readManifest, manifestSettings, configSettings } from "./remote/manifest.js";
export type { ListenerSettings, ManifestSubscription, PointOverrides, RemoteManifest } from "./remote/manifest.js";
export { channelCredentials, channelOptions, checkTarget } from "./remote/target.js";
export type { BackoffPolicy, TlsFiles } from "./remote/target.js";
export type { CallCounters } from "./remote/stats.js";
export { ManagedPlugin, PLUGIN_SOCKET_ENV } from "./managed/plugin.js";
export type { ManagedPluginOptions } from "./managed/plugin.js";
export { createManagedPlugin } from "./managed/source.js";
export type { ManagedContext } from "./managed/source.js";
export { PluginProcess, describeExit } from "./managed/process.js";
export type { ExitInfo, OutputSink, OutputStream, ProcessSpec } from "./managed/process.js";
