// A `kind: rules` plugin from its config entry: its rule files compiled at load (every error a
// config error), one listener per point its rules decide at, evaluated on the main thread. A
// reload loads it again when its files, or the files its globs match, changed (like code).
import { pass } from "@hookd/sdk";
import type { PointName } from "@hookd/sdk";
import type { PluginConfig } from "../../config/schema.js";
import { IN_PROCESS_TRAITS, resolveSettings } from "../../engine/listener.js";
import type { Listener, ListenerOverrides, RuleExplanation } from "../../engine/listener.js";
import { moduleVersion } from "../module-version.js";
import { staticSource } from "../source.js";
import type { PluginSource } from "../source.js";
import { loadRuleSet } from "./compile.js";
import type { RuleSet } from "./compile.js";
import { evaluateRules } from "./evaluate.js";
import { ruleFiles } from "./rule-file.js";
import type { RulePoint } from "./verbs.js";

export type RulesPluginConfig = Extract<PluginConfig, { kind: "rules" }>;

/** One rule as `hookd check` lists it. */
export interface RuleSummary {
  readonly id: string;
  readonly point: RulePoint;
  readonly decision: string;
  /** The matchers as written; empty: every tool (or not a tool point). */
  readonly tools: readonly string[];
  readonly file: string;
}

/** A rules plugin's source: its rules, in the order they are tried, beside the listeners. */
export interface RulesPluginSource extends PluginSource {
  readonly rules: readonly RuleSummary[];
}

/** Listeners of a rules plugin: a plain call, never wrapping the plugins after it. */
const RULES_TRAITS = Object.freeze({ ...IN_PROCESS_TRAITS, wraps: false });

export function rulesSource(config: RulesPluginConfig, defaultDeadlineMs: number): RulesPluginSource {
  const patterns = config.rules === undefined ? [] : typeof config.rules === "string" ? [config.rules] : config.rules;
  const where = `plugins.${config.name}.rules`;
  const set = loadRuleSet(patterns, where, { include: config.include ?? [], params: config.params ?? {}, plugin: `plugins.${config.name}` });
  const version = filesVersion(patterns, where);
  const listeners = rulesListeners(config.name, set, config.points ?? {}, defaultDeadlineMs);
  return {
    ...staticSource({ name: config.name, kind: "rules", target: set.files.join(", ") }, listeners),
    codeChanged: () => filesVersion(patterns, where) !== version,
    rules: set.rules.map((rule) => ({ id: rule.id, point: rule.point, decision: rule.verb, tools: rule.tools, file: rule.file })),
  };
}

export function rulesListeners(plugin: string, set: RuleSet, overrides: Partial<Record<PointName, ListenerOverrides>>, defaultDeadlineMs: number): Listener[] {
  const points = [...new Set(set.rules.map((rule) => rule.point))];
  // Each decision a rule made, until the engine asks which rule it was (every decision is a new object).
  const explained = new WeakMap<object, RuleExplanation>();
  return points.map((point: RulePoint) => ({
    plugin,
    point,
    kind: "rules",
    traits: RULES_TRAITS,
    // Rules match tools themselves (by name or kind); the config's `points.<point>.tools` narrows further.
    ...resolveSettings(point, overrides[point] ?? {}, {}, defaultDeadlineMs, `plugins.${plugin}.points.${point}.tools`),
    sideEffectFree: true,
    call: (event: unknown) => {
      // A rule that cannot be evaluated throws the plugin's fault, under its failure policy.
      const verdict = evaluateRules(set, point, event, plugin);
      if (verdict === undefined) return pass();
      explained.set(verdict.decision, { rule: verdict.ruleId, values: verdict.values });
      return verdict.decision;
    },
    ruleOf: (answer: unknown) => (typeof answer === "object" && answer !== null ? explained.get(answer) : undefined),
  }));
}

/** The files the globs match now and their contents, as one string: a new file or an edit changes it. */
function filesVersion(patterns: readonly string[], where: string): string {
  try {
    return ruleFiles(patterns, where).map((file) => `${file}=${moduleVersion(file)}`).join("\n");
  } catch {
    return "unreadable";
  }
}
