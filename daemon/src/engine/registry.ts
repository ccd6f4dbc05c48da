// The plugin registry: every listener of every plugin, ordered per point (priority, then plugin
// name), built once and frozen. A reload builds a new registry and swaps it whole, so a running
// call keeps the chain it started with. Owns ordering and matcher filtering.
import { HookdError, POINTS } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { compareListeners } from "./listener.js";
import type { Listener } from "./listener.js";

export class PluginRegistry {
  readonly #byPoint: ReadonlyMap<PointName, readonly Listener[]>;

  constructor(listeners: readonly Listener[]) {
    const seen = new Set<string>();
    const byPoint = new Map<PointName, Listener[]>(POINTS.map((point) => [point, []]));
    for (const listener of listeners) {
      const key = `${listener.plugin}\u0000${listener.point}`;
      if (seen.has(key)) throw new HookdError("invalid_plugin", `plugin ${listener.plugin} subscribes to ${listener.point} twice`);
      seen.add(key);
      byPoint.get(listener.point)?.push(listener);
    }
    for (const list of byPoint.values()) Object.freeze(list.sort(compareListeners));
    this.#byPoint = byPoint;
    Object.freeze(this);
  }

  static readonly EMPTY = new PluginRegistry([]);

  /** The ordered listeners of a point; for tool points, only those matching the tool. */
  listeners<P extends PointName>(point: P, toolName?: string): readonly Listener<P>[] {
    const all = (this.#byPoint.get(point) ?? []) as readonly Listener<P>[];
    if (toolName === undefined || all.length === 0) return all;
    return all.every((listener) => listener.matches(toolName)) ? all : all.filter((listener) => listener.matches(toolName));
  }

  /** Every plugin name with the points it subscribes to, in order, for logs and `hookd check`. */
  describe(): { point: PointName; plugins: string[] }[] {
    return POINTS.map((point) => ({ point, plugins: (this.#byPoint.get(point) ?? []).map((l) => l.plugin) }));
  }
}
