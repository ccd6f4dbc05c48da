// A `kind: "remote"` plugin from its config entry: checks the target, reads the TLS files (errors
// name the config field) and builds the RemotePlugin, not started. Also the settings every
// out-of-process kind takes from its entry and the daemon (managed/source.ts reuses them).
import type { PluginConfig } from "../../config/schema.js";
import type { Logger } from "../../log.js";
import type { KnownManifest, ManifestStore } from "./manifest-store.js";
import { RemotePlugin } from "./plugin.js";
import { channelCredentials, channelOptions, checkTarget } from "./target.js";

export type RemotePluginConfig = Extract<PluginConfig, { kind: "remote" }>;
export type ManagedPluginConfig = Extract<PluginConfig, { kind: "managed" }>;

/** What an out-of-process plugin takes from the daemon rather than from its config entry. */
export interface RemoteContext {
  /** The config's `defaults.deadlineMs`. */
  readonly defaultDeadlineMs?: number;
  readonly daemonVersion?: string;
  readonly log?: Logger;
  /** Where described manifests are persisted; absent persists nothing. */
  readonly manifests?: ManifestStore;
  /** The plugin's last known manifest (loaded from `manifests`). */
  readonly lastKnown?: KnownManifest;
}

export async function createRemotePlugin(config: RemotePluginConfig, context: RemoteContext): Promise<RemotePlugin> {
  const target = checkTarget(config.target, `plugins.${config.name}.target`);
  return new RemotePlugin({
    name: config.name,
    target,
    credentials: await channelCredentials(config.tls, `plugins.${config.name}.tls`),
    channelOptions: channelOptions(config.health, config.tls),
    ...commonOptions(config, context),
  });
}

export function commonOptions(config: RemotePluginConfig | ManagedPluginConfig, context: RemoteContext) {
  return {
    overrides: config.points ?? {},
    health: config.health,
    ...(context.defaultDeadlineMs === undefined ? {} : { defaultDeadlineMs: context.defaultDeadlineMs }),
    ...(context.daemonVersion === undefined ? {} : { daemonVersion: context.daemonVersion }),
    ...(context.log === undefined ? {} : { log: context.log }),
    ...(context.manifests === undefined ? {} : { manifests: context.manifests }),
    ...(context.lastKnown === undefined ? {} : { lastKnown: context.lastKnown }),
  };
}
