// A Rego policy loaded from its bundle into @open-policy-agent/opa-wasm: the entrypoint checked at
// load (a config error naming the key when the bundle lacks it), the bundle's data set, and one
// synchronous evaluation per call whose failures come back as Errors (the library throws strings too).
import { HookdError } from "@hookd/sdk";
import { loadPolicy } from "@open-policy-agent/opa-wasm";
import type { LoadedPolicy } from "@open-policy-agent/opa-wasm";
import type { RegoBundle } from "./bundle.js";

export interface RegoPolicy {
  /** The entrypoint's value for this input; undefined when the policy leaves it undefined. */
  evaluate(input: unknown): unknown;
}

/** Where the bundle and the entrypoint come from, to name them in errors. */
export interface PolicyKeys {
  readonly plugin: string;
  readonly bundlePath: string;
  readonly entrypoint: string;
}

export async function loadRegoPolicy(bundle: RegoBundle, keys: PolicyKeys): Promise<RegoPolicy> {
  let policy: LoadedPolicy;
  try {
    policy = await loadPolicy(bundle.wasm);
  } catch (error) {
    throw new HookdError("invalid_plugin", `plugins.${keys.plugin}.bundle: ${keys.bundlePath}: policy.wasm cannot be loaded: ${messageOf(error)}`);
  }
  const entrypoints = Object.keys(policy.entrypoints as Record<string, number>);
  if (!entrypoints.includes(keys.entrypoint)) {
    throw new HookdError(
      "invalid_plugin",
      `plugins.${keys.plugin}.entrypoint: "${keys.entrypoint}" is not an entrypoint of ${keys.bundlePath} ` +
        `(it has: ${entrypoints.map((e) => `"${e}"`).join(", ")}); build the bundle with \`opa build -t wasm -e ${keys.entrypoint}\``,
    );
  }
  if (bundle.data !== undefined) policy.setData(bundle.data as object);
  const { entrypoint } = keys;
  return {
    evaluate(input) {
      let results: unknown;
      try {
        results = policy.evaluate(input, entrypoint);
      } catch (error) {
        throw new Error(messageOf(error));
      }
      // One result per evaluation of a complete rule; none when it is undefined for this input.
      return Array.isArray(results) && results.length > 0 ? (results[0] as { result?: unknown }).result : undefined;
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
