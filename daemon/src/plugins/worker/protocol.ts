// The messages between the daemon and its plugin workers, and the codec that lets lossless JSON
// values cross the thread boundary. Structured clone keeps bigint but turns a LosslessNumber into
// a plain object, so the sender records where each LosslessNumber was and the receiver revives
// exactly those paths (never by guessing from an object's shape). Shared by both sides.
import { LosslessNumber } from "@hookd/sdk";
import type { FailurePolicy, PointName } from "@hookd/sdk";

/** A path into a value: object keys and array indexes. */
export type ValuePath = readonly (string | number)[];

/** A value ready for postMessage, with the paths of the LosslessNumbers inside it. */
export interface Encoded {
  readonly value: unknown;
  readonly lossless: readonly ValuePath[];
}

/** The options of one subscription, without its handler: what the main thread needs to order and call it. */
export interface SubscriptionManifest {
  readonly tools?: readonly string[];
  readonly priority?: number;
  readonly deadlineMs?: number;
  readonly failurePolicy?: FailurePolicy;
}

/** A plugin as the main thread sees it; a PluginDefinition is also a valid manifest. */
export interface PluginManifest {
  readonly name: string;
  readonly version: string;
  readonly sideEffectFree: boolean;
  readonly subscriptions: { readonly [P in PointName]?: SubscriptionManifest };
}

/**
 * The abort state of one call, in a 4-byte SharedArrayBuffer shared with the worker. The main
 * thread moves it from RUNNING to CANCELLED or DEADLINE and notifies; the worker moves it to
 * SETTLED when the handler is done (which also releases its own waiter).
 */
export const CALL_STATE = { RUNNING: 0, CANCELLED: 1, DEADLINE: 2, SETTLED: 3 } as const;

export type WorkerTask =
  | {
      readonly op: "describe";
      readonly module: string;
      /** The module's content version (module-version.ts): imported at that URL, a new module when it changed. */
      readonly version?: string;
    }
  | {
      readonly op: "call";
      /** Absolute path of the plugin module. */
      readonly module: string;
      /** The plugin name the main thread expects the module to define. */
      readonly plugin: string;
      /** As in describe: the version the main thread described and expects. */
      readonly version?: string;
      readonly point: PointName;
      readonly event: Encoded;
      readonly state: Int32Array;
    };

/** What a handler threw, as plain data. */
export interface ThrownError {
  readonly name: string;
  readonly message: string;
  /** A HookdError's code, when the handler threw one. */
  readonly code?: string;
}

export type WorkerReply =
  | { readonly type: "manifest"; readonly manifest: PluginManifest }
  | { readonly type: "answer"; readonly answer: Encoded }
  /** The handler threw, or answered something that cannot cross threads: the handler's own error. */
  | { readonly type: "error"; readonly error: ThrownError }
  /** The module could not be loaded or does not define the expected plugin at this point. */
  | { readonly type: "unavailable"; readonly message: string }
  /** The call was aborted before its handler started. */
  | { readonly type: "aborted" };

function isLossless(value: object): value is LosslessNumber {
  if (value instanceof LosslessNumber) return true;
  // A LosslessNumber from another copy of lossless-json (e.g. bundled by a plugin): a class
  // instance, never a plain object, so JSON data that merely looks alike is not mistaken for one.
  const proto: unknown = Object.getPrototypeOf(value);
  const candidate = value as { isLosslessNumber?: unknown; value?: unknown };
  return proto !== Object.prototype && proto !== null && candidate.isLosslessNumber === true && typeof candidate.value === "string";
}

/**
 * Checks that a value is plain data that can cross threads (primitives, bigint, arrays, plain
 * objects, LosslessNumber) and records where its LosslessNumbers are. Throws a TypeError naming
 * the path of anything else (functions, symbols, class instances, cycles).
 */
export function encodeValue(value: unknown, path = "value"): Encoded {
  const lossless: ValuePath[] = [];
  const ancestors = new Set<object>();
  const walk = (item: unknown, at: (string | number)[], where: string): void => {
    switch (typeof item) {
      case "string":
      case "number":
      case "boolean":
      case "bigint":
      case "undefined":
        return;
      case "object": {
        if (item === null) return;
        if (isLossless(item)) {
          lossless.push([...at]);
          return;
        }
        if (ancestors.has(item)) throw new TypeError(`${where}: circular reference`);
        ancestors.add(item);
        if (Array.isArray(item)) {
          for (let index = 0; index < item.length; index++) walk(item[index], [...at, index], `${where}[${index}]`);
        } else {
          const proto: unknown = Object.getPrototypeOf(item);
          if (proto !== Object.prototype && proto !== null) throw new TypeError(`${where}: ${describe(item)} is not plain data`);
          for (const [key, child] of Object.entries(item)) walk(child, [...at, key], `${where}.${key}`);
        }
        ancestors.delete(item);
        return;
      }
      default:
        throw new TypeError(`${where}: a ${typeof item} is not plain data`);
    }
  };
  walk(value, [], path);
  return { value, lossless };
}

/** Revives the LosslessNumbers of a structured-cloned value in place and returns it. */
export function decodeValue(encoded: Encoded): unknown {
  if (encoded.lossless.length === 0) return encoded.value;
  let root = encoded.value;
  for (const path of encoded.lossless) {
    if (path.length === 0) {
      root = revive(root);
      continue;
    }
    let parent = root as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const last = path[path.length - 1] as string | number;
    parent[last] = revive(parent[last]);
  }
  return root;
}

function revive(cloned: unknown): LosslessNumber {
  return new LosslessNumber((cloned as { value: string }).value);
}

function describe(value: object): string {
  const name = (value.constructor as { name?: unknown } | undefined)?.name;
  return typeof name === "string" && name !== "" ? `an instance of ${name}` : "an object";
}
