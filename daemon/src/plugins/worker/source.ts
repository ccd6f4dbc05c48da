// A `kind: "worker"` plugin from its config entry: the module is described inside the worker pool
// (never imported on the main thread) and its listeners run each call in a worker; they never
// change until a reload.
import type { PointName } from "@hookd/sdk";
import type { PluginConfig } from "../../config/schema.js";
import type { ListenerOverrides } from "../../engine/listener.js";
import { expectName, staticSource } from "../source.js";
import type { PluginSource } from "../source.js";
import { workerListeners } from "./listeners.js";
import type { WorkerPool } from "./pool.js";

export type WorkerPluginConfig = Extract<PluginConfig, { kind: "worker" }>;

export async function workerSource(config: WorkerPluginConfig, pool: WorkerPool, defaultDeadlineMs: number): Promise<PluginSource> {
  const manifest = await pool.describe(config.module);
  expectName(manifest.name, config.name, config.module);
  const overrides = (config.points ?? {}) as Partial<Record<PointName, ListenerOverrides>>;
  const listeners = workerListeners(pool, config.module, manifest, overrides, defaultDeadlineMs);
  return staticSource({ name: config.name, kind: "worker", target: config.module }, listeners);
}
