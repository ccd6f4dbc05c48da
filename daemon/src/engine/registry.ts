// The plugin registry: every listener of every plugin, ordered per point (priority, then plugin
// name), built once and frozen. A reload builds a new registry and swaps it whole, so a running
// call keeps the chain it started with. Owns ordering and matcher filtering, and keeps shadow
// listeners apart from the enforcing chain, so no runner can apply a shadow answer by mistake.
import { HookdError, POINTS } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import { compareListeners } from "./listener.js";
import type { Listener } from "./listener.js";

export interface RegistryOptions {
  /**
   * The daemon's point budget is its default (the config does not set it): listeners that need
   * more time of their own (`ownBudgetMs`) stretch it. An explicit budget is never stretched.
   */
  readonly stretchBudgets?: boolean;
}

export class PluginRegistry {
  readonly #byPoint: ReadonlyMap<PointName, readonly Listener[]>;
  readonly #shadowsByPoint: ReadonlyMap<PointName, readonly Listener[]>;
  readonly #stretch: boolean;

  constructor(listeners: readonly Listener[], options: RegistryOptions = {}) {
    this.#stretch = options.stretchBudgets === true;
    const seen = new Set<string>();
    const byPoint = new Map<PointName, Listener[]>(POINTS.map((point) => [point, []]));
    const shadowsByPoint = new Map<PointName, Listener[]>(POINTS.map((point) => [point, []]));
    for (const listener of listeners) {
      const key = `${listener.plugin}\u0000${listener.point}`;
      if (seen.has(key)) throw new HookdError("invalid_plugin", `plugin ${listener.plugin} subscribes to ${listener.point} twice`);
      seen.add(key);
      (listener.mode === "shadow" ? shadowsByPoint : byPoint).get(listener.point)?.push(listener);
    }
    for (const list of byPoint.values()) Object.freeze(list.sort(compareListeners));
    for (const list of shadowsByPoint.values()) Object.freeze(list.sort(compareListeners));
    this.#byPoint = byPoint;
    this.#shadowsByPoint = shadowsByPoint;
    Object.freeze(this);
  }

  static readonly EMPTY = new PluginRegistry([]);

  /**
   * The ordered enforcing listeners of a point; given the point's match key (a tool name, an
   * agent event's name), only those whose matchers match it.
   */
  listeners<P extends PointName>(point: P, key?: string): readonly Listener<P>[] {
    return matching((this.#byPoint.get(point) ?? []) as readonly Listener<P>[], key);
  }

  /** The point's shadow listeners (mode "shadow"), ordered and matched like `listeners`. */
  shadows<P extends PointName>(point: P, key?: string): readonly Listener<P>[] {
    return matching((this.#shadowsByPoint.get(point) ?? []) as readonly Listener<P>[], key);
  }

  /** What a point's budget grows by for a call of these (matched) listeners: the sum of their own needs, when budgets stretch. */
  extraBudgetMs(listeners: readonly Listener[]): number {
    if (!this.#stretch) return 0;
    let extra = 0;
    for (const listener of listeners) extra += listener.ownBudgetMs ?? 0;
    return extra;
  }

  /** Every enforcing plugin name with the points it subscribes to, in order, for logs and `hookd check`. */
  describe(): { point: PointName; plugins: string[] }[] {
    return POINTS.map((point) => ({ point, plugins: (this.#byPoint.get(point) ?? []).map((l) => l.plugin) }));
  }

  /** The shadow plugins of each point that has any, in order, for logs. */
  describeShadows(): { point: PointName; shadows: string[] }[] {
    return POINTS.map((point) => ({ point, shadows: (this.#shadowsByPoint.get(point) ?? []).map((l) => l.plugin) })).filter((entry) => entry.shadows.length > 0);
  }
}

function matching<L extends Listener>(all: readonly L[], key: string | undefined): readonly L[] {
  if (key === undefined || all.length === 0) return all;
  return all.every((listener) => listener.matches(key)) ? all : all.filter((listener) => listener.matches(key));
}
