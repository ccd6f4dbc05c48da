// A remote plugin's manifest: the Describe answer checked field by field (name, one subscription
// per point, matchers, priorities, deadlines, failure policies), and the listener settings it
// yields once the config's per-point overrides are applied. Before a plugin was ever reached,
// the config's overrides alone name its points. Owns validation and settings; no calls.
import { HookdError, MATCHED_POINTS, compileToolMatcher } from "@hookd/sdk";
import { fromProtoFailurePolicy, fromProtoPoint } from "@hookd/sdk/internal";
import type { FailurePolicy, PointName, ToolMatcher } from "@hookd/sdk";
import { pb } from "@hookd/sdk/internal";
import type { ListenerOverrides } from "../../engine/listener.js";
import { resolveSettings } from "../../engine/listener.js";

export interface ManifestSubscription {
  readonly point: PointName;
  /** Empty matches every tool. */
  readonly tools: readonly string[];
  readonly priority: number;
  /** Absent takes the daemon's default. */
  readonly deadlineMs?: number;
  /** Absent takes the point's default. */
  readonly failurePolicy?: FailurePolicy;
}

/** The transport a plugin's manifest prefers ("default": the stream when it implements Attach). */
export type PluginTransport = "default" | "unary" | "stream";

export interface RemoteManifest {
  readonly name: string;
  readonly version: string;
  readonly sideEffectFree: boolean;
  /** Absent: "default". */
  readonly transport?: PluginTransport;
  /** In the order the plugin listed them; at most one per point. */
  readonly subscriptions: readonly ManifestSubscription[];
}

/** What a listener of the plugin is built from. */
export interface ListenerSettings {
  readonly point: PointName;
  readonly priority: number;
  readonly matches: ToolMatcher;
  readonly deadlineMs: number;
  readonly failurePolicy: FailurePolicy;
  readonly sideEffectFree: boolean;
}

export type PointOverrides = Partial<Record<PointName, ListenerOverrides>>;

const TRANSPORTS: Readonly<Record<number, PluginTransport | undefined>> = {
  [pb.PluginTransport.UNSPECIFIED]: "default",
  [pb.PluginTransport.UNARY]: "unary",
  [pb.PluginTransport.STREAM]: "stream",
};

const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Validates a Describe answer; throws HookdError("invalid_plugin") naming the proto field path. */
export function readManifest(message: pb.PluginManifest | undefined, path = "manifest"): RemoteManifest {
  if (message === undefined) throw invalid(path, "missing");
  if (!PLUGIN_NAME.test(message.name)) {
    throw invalid(`${path}.name`, `expected a non-empty name of letters, digits, '.', '_' or '-', got ${JSON.stringify(message.name)}`);
  }
  const seen = new Set<PointName>();
  const subscriptions = message.subscriptions.map((sub, index): ManifestSubscription => {
    const at = `${path}.subscriptions[${index}]`;
    const point = fromProtoPoint(sub.point, `${at}.point`);
    if (!point.ok) throw new HookdError("invalid_plugin", point.error.message);
    if (seen.has(point.value)) throw invalid(`${at}.point`, `${point.value} is subscribed twice (at most one subscription per point)`);
    seen.add(point.value);
    if (sub.tools.length > 0 && !MATCHED_POINTS.has(point.value)) {
      throw invalid(`${at}.tools`, `matchers apply only to tool points and agent-event, not to ${point.value}`);
    }
    compileToolMatcher(sub.tools, `${at}.tools`); // throws invalid_plugin naming the matcher
    const policy = fromProtoFailurePolicy(sub.failurePolicy, `${at}.failure_policy`);
    if (!policy.ok) throw new HookdError("invalid_plugin", policy.error.message);
    return {
      point: point.value,
      tools: [...sub.tools],
      priority: sub.priority,
      ...(sub.deadlineMs === 0 ? {} : { deadlineMs: sub.deadlineMs }),
      ...(policy.value === undefined ? {} : { failurePolicy: policy.value }),
    };
  });
  if (subscriptions.length === 0) throw invalid(`${path}.subscriptions`, "the plugin subscribes to no point");
  const transport = TRANSPORTS[message.transport];
  if (transport === undefined) throw invalid(`${path}.transport`, `unknown PluginTransport ${message.transport}`);
  return Object.freeze({ name: message.name, version: message.version, sideEffectFree: message.sideEffectFree, ...(transport === "default" ? {} : { transport }), subscriptions });
}

/** True when two manifests would build the same listeners. */
export function sameManifest(a: RemoteManifest | undefined, b: RemoteManifest | undefined): boolean {
  return a !== undefined && b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The listener settings of a described plugin: the manifest's subscriptions with the config's
 * overrides applied. Overrides for points the manifest does not subscribe to are returned as
 * `ignored` (the daemon never calls an RPC a plugin did not subscribe to).
 */
export function manifestSettings(
  manifest: RemoteManifest,
  overrides: PointOverrides,
  defaultDeadlineMs: number,
): { settings: ListenerSettings[]; ignored: PointName[] } {
  const settings = manifest.subscriptions.map((sub) => {
    const override = overrides[sub.point] ?? {};
    return { point: sub.point, ...resolveSettings(sub.point, override, sub, defaultDeadlineMs), sideEffectFree: manifest.sideEffectFree };
  });
  const subscribed = new Set(manifest.subscriptions.map((sub) => sub.point));
  const ignored = (Object.keys(overrides) as PointName[]).filter((point) => !subscribed.has(point));
  return { settings, ignored };
}

/**
 * The listener settings of a plugin whose manifest is not known yet (unreachable since the
 * daemon started): one per point the config's overrides name. Its calls fail as "unavailable",
 * so these points follow the configured failure policy until the plugin is described.
 */
export function configSettings(overrides: PointOverrides, defaultDeadlineMs: number): ListenerSettings[] {
  return (Object.entries(overrides) as [PointName, ListenerOverrides | undefined][]).map(([point, override = {}]) => ({
    point,
    ...resolveSettings(point, override, {}, defaultDeadlineMs),
    sideEffectFree: false,
  }));
}

function invalid(path: string, detail: string): HookdError {
  return new HookdError("invalid_plugin", `${path}: ${detail}`);
}
