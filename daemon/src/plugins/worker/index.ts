// The worker-pool runtime for in-process plugins that the config isolates: the pool, its
// listeners and the manifest type. Everything else in this directory is internal to it.
export { WorkerPool, workerEntryPath } from "./pool.js";
export type { WorkerPoolOptions, WorkerPoolStats, WorkerTarget } from "./pool.js";
export { workerListeners } from "./listeners.js";
export type { PluginManifest, SubscriptionManifest } from "./protocol.js";
