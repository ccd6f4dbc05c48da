// A configured plugin, whatever its kind, as the daemon holds it: the listeners it currently
// contributes, a way to learn that they changed (a remote plugin came up and described itself),
// its status for the admin service, and how to shut it down. The daemon builds its frozen
// registry from all sources and rebuilds it when one changes.
import type { PointName } from "@hookd/sdk";
import type { Listener } from "../engine/listener.js";

export type PluginHealth = "serving" | "starting" | "ejected" | "unavailable";

export interface PluginStatusInfo {
  readonly name: string;
  /** "in-process", "worker", "remote", "managed" or "command". */
  readonly kind: string;
  /** A module path, a gRPC target or a hooks file. */
  readonly target: string;
  readonly health: PluginHealth;
  readonly points: readonly PointName[];
  readonly restarts: number;
  readonly lastError: string;
}

export interface PluginSource {
  readonly name: string;
  listeners(): readonly Listener[];
  /** Called when listeners() would now answer differently. */
  onChange(callback: () => void): void;
  status(): PluginStatusInfo;
  /** True once the plugin can answer (for readiness of required plugins). */
  ready(): boolean;
  close(): Promise<void>;
}

/** A source whose listeners never change (in-process and worker plugins). */
export function staticSource(info: Omit<PluginStatusInfo, "health" | "restarts" | "lastError" | "points">, listeners: readonly Listener[], close: () => Promise<void> = async () => {}): PluginSource {
  const frozen = Object.freeze([...listeners]);
  return {
    name: info.name,
    listeners: () => frozen,
    onChange: () => {},
    status: () => ({ ...info, health: "serving", points: frozen.map((l) => l.point), restarts: 0, lastError: "" }),
    ready: () => true,
    close,
  };
}
