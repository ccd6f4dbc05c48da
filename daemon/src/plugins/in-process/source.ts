// A `kind: "in-process"` plugin from its config entry: the module is imported on the main thread
// at a URL versioned by its content (module-version.ts) and validated with definePlugin; its
// listeners call the handlers directly and never change until a reload, which loads it again
// when its file changed.
import { HookdError, definePlugin } from "@hookd/sdk";
import type { PluginDefinition, PluginSpec, PointName } from "@hookd/sdk";
import type { PluginConfig } from "../../config/schema.js";
import type { ListenerOverrides } from "../../engine/listener.js";
import { moduleURL, moduleVersion } from "../module-version.js";
import { resolveSdkForPlugins } from "../sdk-resolution.js";
import { expectName, staticSource } from "../source.js";
import type { PluginSource } from "../source.js";
import { inProcessListeners } from "./listeners.js";

export type InProcessPluginConfig = Extract<PluginConfig, { kind: "in-process" }>;

/**
 * Imports a plugin module; its default export must be a definePlugin result or a PluginSpec.
 * With `version` (moduleVersion of the file) it is imported at that version's URL, so changed
 * code is a new module.
 */
export async function importPlugin(modulePath: string, version?: string): Promise<PluginDefinition> {
  let module: { default?: unknown };
  resolveSdkForPlugins();
  try {
    module = (await import(moduleURL(modulePath, version))) as { default?: unknown };
  } catch (error) {
    throw new HookdError("invalid_plugin", `${modulePath}: cannot be imported: ${(error as Error).message}`, { cause: error });
  }
  const exported = module.default;
  if (typeof exported !== "object" || exported === null) {
    throw new HookdError("invalid_plugin", `${modulePath}: the default export must be a plugin made with definePlugin()`);
  }
  return "subscriptions" in exported ? (exported as PluginDefinition) : definePlugin(exported as PluginSpec);
}

export async function inProcessSource(config: InProcessPluginConfig, defaultDeadlineMs: number): Promise<PluginSource> {
  const version = moduleVersion(config.module);
  const definition = await importPlugin(config.module, version);
  expectName(definition.name, config.name, config.module);
  const overrides = (config.points ?? {}) as Partial<Record<PointName, ListenerOverrides>>;
  const listeners = inProcessListeners(definition, overrides, defaultDeadlineMs);
  return { ...staticSource({ name: config.name, kind: "in-process", target: config.module }, listeners), codeChanged: () => moduleVersion(config.module) !== version };
}
