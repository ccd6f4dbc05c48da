// A `kind: "worker"` plugin from its config entry: the module is described inside the worker pool
// (never imported on the main thread) at a URL versioned by its content (module-version.ts), and
// its listeners run each call in a worker against that version; they never change until a
// reload, which loads it again when its file changed.
import type { PointName } from "@hookd/sdk";
import type { PluginConfig } from "../../config/schema.js";
import type { ListenerOverrides } from "../../engine/listener.js";
import { moduleVersion } from "../module-version.js";
import { expectName, staticSource } from "../source.js";
import type { PluginSource } from "../source.js";
import { workerListeners } from "./listeners.js";
import type { WorkerPool } from "./pool.js";

export type WorkerPluginConfig = Extract<PluginConfig, { kind: "worker" }>;

export async function workerSource(config: WorkerPluginConfig, pool: WorkerPool, defaultDeadlineMs: number): Promise<PluginSource> {
  const version = moduleVersion(config.module);
  const manifest = await pool.describe(config.module, { version });
  expectName(manifest.name, config.name, config.module);
  const overrides = (config.points ?? {}) as Partial<Record<PointName, ListenerOverrides>>;
  const listeners = workerListeners(pool, config.module, manifest, overrides, defaultDeadlineMs, version);
  return { ...staticSource({ name: config.name, kind: "worker", target: config.module }, listeners), codeChanged: () => moduleVersion(config.module) !== version };
}
