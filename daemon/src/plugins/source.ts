// The one contract every plugin kind implements: a configured plugin as the daemon holds it. The
// listeners it currently contributes, a way to learn that they changed (a remote plugin came up
// and described itself), its status and health for the admin service, readiness, and how to shut
// it down. The plugin set builds its frozen registry from all sources and rebuilds it when one
// changes. Listener itself is the engine's contract (engine/listener.ts).
import { HookdError } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import type { Listener } from "../engine/listener.js";

/**
 * starting: not admitted yet (or a managed process is starting); serving: calls go out;
 * connecting: a serving plugin's connection was lost, calls fail fast until health and Describe
 * pass again; ejected: repeated failures, calls fail fast until the probe sees SERVING;
 * unavailable: not reachable (or its process is down), calls fail fast while it is probed.
 */
export type PluginHealth = "serving" | "starting" | "connecting" | "ejected" | "unavailable";

/** What the admin service and the metrics report about a plugin (hookd.v1.PluginStatus). */
export interface PluginStatus {
  readonly name: string;
  /** "in-process", "worker", "remote", "managed", "command" or "rego". */
  readonly kind: string;
  /** A module path, a gRPC target or a hooks file. */
  readonly target: string;
  readonly health: PluginHealth;
  /** The points its listeners are at. */
  readonly points: readonly PointName[];
  readonly restarts: number;
  /** "" when there was none. */
  readonly lastError: string;
  /**
   * Where its subscriptions come from, for kinds that can be unreachable (remote, managed):
   * "described", "config", "last known manifest of <time>" or "none: failing every gate point".
   * Absent: the plugin's own definition (always described).
   */
  readonly subscriptions?: string;
  /** Command plugins with warm interpreters: runs forked warm, runs spawned instead by why, fork servers started again. */
  readonly warm?: { readonly warmRuns: number; readonly fallbacks: Readonly<Record<string, number>>; readonly restarts: number };
  /** Remote and managed plugins: what their calls go over now. */
  readonly transport?: "stream" | "unary";
  /** Remote and managed plugins: Attach answers refused (an id never sent, or answered twice). */
  readonly refusedAnswers?: number;
}

export interface PluginSource {
  readonly name: string;
  /** The current listeners; replaced as a whole, announced by onChange. */
  listeners(): readonly Listener[];
  /** Called when listeners() would now answer differently. Returns an unsubscribe function. */
  onChange(callback: () => void): () => void;
  status(): PluginStatus;
  /** True once the plugin can answer (for readiness of required plugins). */
  ready(): boolean;
  /**
   * True when the code it runs is no longer what its module file holds (in-process and worker
   * plugins): a reload then loads it again even though its config entry is unchanged.
   */
  codeChanged?(): boolean;
  close(): Promise<void>;
}

/** A source whose listeners never change (in-process, worker and command plugins). */
export function staticSource(info: Omit<PluginStatus, "health" | "restarts" | "lastError" | "points">, listeners: readonly Listener[], close: () => Promise<void> = async () => {}): PluginSource {
  const frozen = Object.freeze([...listeners]);
  return {
    name: info.name,
    listeners: () => frozen,
    onChange: () => () => {},
    status: () => ({ ...info, health: "serving", points: frozen.map((l) => l.point), restarts: 0, lastError: "" }),
    ready: () => true,
    close,
  };
}

/** A module's plugin must carry the name its config entry gives it. */
export function expectName(actual: string, configured: string, module: string): void {
  if (actual !== configured) {
    throw new HookdError("invalid_plugin", `${module}: defines plugin "${actual}" but the config names it "${configured}"`);
  }
}
