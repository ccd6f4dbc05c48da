// Turns the config's plugin list into PluginSources: in-process modules are imported and
// validated with definePlugin; worker plugins are described inside the worker pool. Remote,
// managed and command plugins come from their own runtimes (daemon/src/plugins).
import { pathToFileURL } from "node:url";
import { HookdError, definePlugin } from "@hookd/sdk";
import type { PluginDefinition, PluginSpec, PointName } from "@hookd/sdk";
import type { PluginConfig } from "../config/schema.js";
import { inProcessListeners } from "../engine/in-process.js";
import type { ListenerOverrides } from "../engine/listener.js";
import type { WorkerPool} from "../engine/worker/index.js";
import { workerListeners } from "../engine/worker/index.js";
import { staticSource } from "./plugin-source.js";
import type { PluginSource } from "./plugin-source.js";

export interface LoadContext {
  readonly defaultDeadlineMs: number;
  /** Created on first use: only configs with worker plugins pay for a pool. */
  readonly workerPool: () => WorkerPool;
}

export type OtherKindLoader = (plugin: Exclude<PluginConfig, { kind: "in-process" | "worker" }>, context: LoadContext) => Promise<PluginSource>;

type Overrides = Partial<Record<PointName, ListenerOverrides>>;

/** Imports a plugin module; its default export must be a definePlugin result or a PluginSpec. */
export async function importPlugin(modulePath: string): Promise<PluginDefinition> {
  let module: { default?: unknown };
  try {
    module = (await import(pathToFileURL(modulePath).href)) as { default?: unknown };
  } catch (error) {
    throw new HookdError("invalid_plugin", `${modulePath}: cannot be imported: ${(error as Error).message}`, { cause: error });
  }
  const exported = module.default;
  if (typeof exported !== "object" || exported === null) {
    throw new HookdError("invalid_plugin", `${modulePath}: the default export must be a plugin made with definePlugin()`);
  }
  return "subscriptions" in exported ? (exported as PluginDefinition) : definePlugin(exported as PluginSpec);
}

export async function loadPlugin(plugin: PluginConfig, context: LoadContext, other: OtherKindLoader): Promise<PluginSource> {
  const overrides = (plugin.points ?? {}) as Overrides;
  switch (plugin.kind) {
    case "in-process": {
      const definition = await importPlugin(plugin.module);
      expectName(definition.name, plugin.name, plugin.module);
      const listeners = inProcessListeners(definition, overrides, context.defaultDeadlineMs);
      return staticSource({ name: plugin.name, kind: "in-process", target: plugin.module }, listeners);
    }
    case "worker": {
      const pool = context.workerPool();
      const manifest = await pool.describe(plugin.module);
      expectName(manifest.name, plugin.name, plugin.module);
      const listeners = workerListeners(pool, plugin.module, manifest, overrides, context.defaultDeadlineMs);
      return staticSource({ name: plugin.name, kind: "worker", target: plugin.module }, listeners);
    }
    case "remote":
    case "managed":
    case "command":
      return other(plugin, context);
  }
}

function expectName(actual: string, configured: string, module: string): void {
  if (actual !== configured) {
    throw new HookdError("invalid_plugin", `${module}: defines plugin "${actual}" but the config names it "${configured}"`);
  }
}
