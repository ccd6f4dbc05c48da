// `hookd rules list [--config F] [--json]`: the builtin guardrail library's rules, each builtin
// as it is included (`builtin:NAME`), and with a config its rules plugins' rules in the order
// they are tried. Reads and compiles the files; starts no plugin.
import { isConfigError, loadConfig } from "../config/load.js";
import { hasCode } from "@hookd/sdk";
import { loadRuleSet } from "../plugins/rules/compile.js";
import type { CompiledRule } from "../plugins/rules/compile.js";
import { builtinNames } from "../plugins/rules/library.js";
import { table } from "./table.js";
import { parseCommandLine, stringOption, usageError } from "./usage.js";

interface ListedRule {
  /** `builtin:NAME`, or the config's plugin name. */
  readonly source: string;
  readonly id: string;
  readonly point: string;
  readonly decision: string;
  readonly tools: readonly string[];
  readonly description: string;
}

const listed = (source: string, rule: CompiledRule): ListedRule => ({ source, id: rule.id, point: rule.point, decision: rule.verb, tools: rule.tools, description: rule.description ?? "" });

export function rulesList(args: string[], { out, err }: { out: (text: string) => void; err: (text: string) => void }): number {
  const { values, positionals } = parseCommandLine("rules", args);
  if (positionals[0] !== "list") throw usageError(`expected "list", got "${positionals[0] ?? ""}"`, "rules");
  const configFile = stringOption(values, "config");
  try {
    const rules = builtinNames().flatMap((name) => loadRuleSet([], "builtin", { include: [`builtin:${name}`], plugin: "builtin" }).rules.map((rule) => listed(`builtin:${name}`, rule)));
    if (configFile !== undefined) {
      for (const plugin of loadConfig(configFile).config.plugins) {
        if (plugin.kind !== "rules") continue;
        const patterns = plugin.rules === undefined ? [] : typeof plugin.rules === "string" ? [plugin.rules] : plugin.rules;
        const set = loadRuleSet(patterns, `plugins.${plugin.name}.rules`, { include: plugin.include ?? [], params: plugin.params ?? {}, plugin: `plugins.${plugin.name}` });
        rules.push(...set.rules.map((rule) => listed(plugin.name, rule)));
      }
    }
    if (values.json === true) out(`${JSON.stringify({ rules })}\n`);
    else out(table(["SOURCE", "RULE", "POINT", "DECISION", "TOOLS", "DESCRIPTION"], rules.map((r) => [r.source, r.id, r.point, r.decision, r.tools.length === 0 ? "*" : r.tools.join(","), r.description])));
    return 0;
  } catch (error) {
    const message = isConfigError(error) ? `${error.details.source}: ${error.details.problems.join("; ")}` : hasCode(error, "invalid_plugin") ? (error as Error).message : undefined;
    if (message === undefined) throw error;
    err(`hookd rules: ${message}\n`);
    return 1;
  }
}
