// A `kind: rego` plugin from its config entry: the bundle read and loaded into the Wasm runtime,
// one listener per configured point evaluating the entrypoint on the main thread. Its listeners
// never change until a reload, which loads the bundle again when its file changed (like code).
import { HookdError } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import type { PluginConfig } from "../../config/schema.js";
import { pluginFault } from "../../engine/faults.js";
import type { SessionFacts } from "../../engine/session-facts.js";
import { resolveSettings } from "../../engine/listener.js";
import type { Listener, ListenerOverrides, ListenerTraits } from "../../engine/listener.js";
import { moduleVersion } from "../module-version.js";
import { staticSource } from "../source.js";
import type { PluginSource } from "../source.js";
import { regoAnswer } from "./answer.js";
import { readBundle } from "./bundle.js";
import { regoInput } from "./input.js";
import { loadRegoPolicy } from "./policy.js";
import type { RegoPolicy } from "./policy.js";

export type RegoPluginConfig = Extract<PluginConfig, { kind: "rego" }>;

/** Evaluated synchronously on the main thread, never calling next(): it can be fanned out. */
const REGO_TRAITS: ListenerTraits = Object.freeze({ wraps: false, answersOverWire: false, settlesItself: false, sendsOnNextTurn: false });

/** `facts`: what agents told about their sessions in their hook payloads, handed to the policy as `input.agent`. */
export async function regoSource(config: RegoPluginConfig, defaultDeadlineMs: number, facts?: SessionFacts): Promise<PluginSource> {
  const version = moduleVersion(config.bundle);
  const bundle = readBundle(config.bundle, `plugins.${config.name}.bundle`);
  const policy = await loadRegoPolicy(bundle, { plugin: config.name, bundlePath: config.bundle, entrypoint: config.entrypoint });
  const listeners = regoListeners(config, policy, defaultDeadlineMs, facts);
  return { ...staticSource({ name: config.name, kind: "rego", target: config.bundle }, listeners), codeChanged: () => moduleVersion(config.bundle) !== version };
}

function regoListeners(config: RegoPluginConfig, policy: RegoPolicy, defaultDeadlineMs: number, facts: SessionFacts | undefined): Listener[] {
  const points = Object.entries(config.points ?? {}) as [PointName, ListenerOverrides][];
  return points.map(([point, override]) => {
    if (point === "execute") {
      throw new HookdError("invalid_plugin", `plugins.${config.name}.points.execute: a rego plugin cannot run at execute (it wraps the dispatch and has no decision to give)`);
    }
    // Evaluation errors and unusable values are the plugin's failure, under its failure policy
    // (fail-closed at gates by default): never a silent allow.
    const failure = (detail: string): Error => pluginFault(config.name, point, "listener_error", detail);
    return {
      plugin: config.name,
      point,
      kind: "rego",
      traits: REGO_TRAITS,
      ...resolveSettings(point, override, {}, defaultDeadlineMs, `plugins.${config.name}.points.${point}.tools`),
      sideEffectFree: true,
      call: (event: unknown) => {
        let value: unknown;
        try {
          value = policy.evaluate(regoInput(point, event, facts));
        } catch (error) {
          throw failure(`evaluating ${config.entrypoint}: ${(error as Error).message}`);
        }
        const answer = regoAnswer(point, config.name, value, event);
        if (!answer.ok) throw failure(answer.problem);
        return answer.answer;
      },
    } satisfies Listener;
  });
}
