// Evaluates a rule set against one typed event: the rules of the event's point in order, the
// first whose `when` holds decides. Returns the decision with the rule that made it and the
// values it read, for the plugin, `hookd eval --explain` and offline policy tests alike.
// A rule that cannot be evaluated is the plugin's fault (listener_error) naming it (never a silent pass).
import { pluginFault } from "../../engine/faults.js";
import { celMap, isCelError, isCelList, isCelMap } from "@bufbuild/cel";
import type { CelValue } from "@bufbuild/cel";
import { deepFreeze, hasNotice, withNotice } from "@hookd/sdk";
import type { DecisionOf, JsonObject, JsonValue } from "@hookd/sdk";
import type { Bindings, CompiledRule, Program, RuleSet } from "./compile.js";
import { commandArgv, withWorkingDirectory } from "./functions.js";
import { activationOf } from "./variables.js";
import type { Activation, Wanted } from "./variables.js";
import { decisionOf } from "./verbs.js";
import type { RulePoint, RuleOutcome } from "./verbs.js";

export interface RuleVerdict {
  /** The id of the rule that decided. */
  readonly ruleId: string;
  readonly decision: DecisionOf<RulePoint>;
  /** The fields the rule reads and their values in this event (`call.command`: "rm -rf /"). */
  readonly values: Readonly<Record<string, JsonValue>>;
}

/** A rule that cannot be evaluated: the plugin's fault with cause listener_error, naming the rule (never a silent pass). */
type Failed = (ruleId: string, key: string, message: string) => never;

/** What evaluating a rule set at one point needs, planned once per set: its rules, the fields they read, its params as CEL. */
interface PointPlan {
  readonly rules: readonly CompiledRule[];
  readonly wanted: Wanted;
  readonly params: CelValue;
}

const PLANS = new WeakMap<RuleSet, Map<RulePoint, PointPlan>>();

function planOf(set: RuleSet, point: RulePoint): PointPlan {
  let plans = PLANS.get(set);
  if (plans === undefined) PLANS.set(set, (plans = new Map<RulePoint, PointPlan>()));
  let plan = plans.get(point);
  if (plan === undefined) {
    const rules = set.rules.filter((rule) => rule.point === point);
    // A call's tool name, kind and command are read by every rule's tool matcher and command guard.
    const wanted = new Map<string, Set<string>>([["call", new Set(["tool_name", "kind", "command"])]]);
    for (const read of rules.flatMap((rule) => rule.reads)) {
      const [variable = "", field = ""] = read.split(".");
      wanted.set(variable, (wanted.get(variable) ?? new Set()).add(field));
    }
    plan = { rules, wanted, params: celMap(new Map(Object.entries(set.params))) };
    plans.set(point, plan);
  }
  return plan;
}

/** The rule that decides `event` at `point` and its decision, or undefined when none applies. `plugin` sources added context messages. */
export function evaluateRules(set: RuleSet, point: RulePoint, event: unknown, plugin: string): RuleVerdict | undefined {
  const plan = planOf(set, point);
  if (plan.rules.length === 0) return undefined;
  const own = activationOf(point, event, plan.wanted);
  const activation: Activation = { ...own, params: set.params };
  const bindings: Bindings = { ...bindingsOf(own), params: plan.params };
  const call = activation.call as { tool_name?: string; kind?: string; command?: string } | undefined;
  const cwd = activation.session?.cwd;
  const failed: Failed = (ruleId, key, message) => {
    throw pluginFault(plugin, point, "listener_error", `rule "${ruleId}": ${key}: ${message}`);
  };
  return withWorkingDirectory(typeof cwd === "string" ? cwd : "", () => {
    for (const rule of plan.rules) {
      if (call !== undefined && !rule.matchesTool(call.tool_name ?? "", call.kind ?? "")) continue;
      if (rule.commandGuard !== undefined && !rule.commandGuard(commandArgv(call?.command ?? ""))) continue;
      if (rule.when !== undefined && run(rule, "when", rule.when, bindings, failed) !== true) continue;
      const outcome = outcomeOf(rule, bindings, failed);
      const decision = decisionOf(point, outcome, event, plugin);
      const notice = { ...(rule.userMessage === undefined ? {} : { userMessage: rule.userMessage }), ...(rule.stopAgent === undefined ? {} : { stopAgent: rule.stopAgent }) };
      // Deep-frozen, so the engine's check hands back this very object and the rule stays told apart by identity.
      return { ruleId: rule.id, decision: hasNotice(notice) ? deepFreeze(withNotice(decision, notice)) : decision, values: valuesRead(rule, activation) };
    }
    return undefined;
  });
}

/** Each variable as a CEL map once, so the rules' reads do not each convert it again. */
function bindingsOf(activation: Activation): Bindings {
  return Object.fromEntries(Object.entries(activation).map(([name, fields]) => [name, celMap(new Map(Object.entries(fields)))]));
}

function outcomeOf(rule: CompiledRule, bindings: Bindings, failed: Failed): RuleOutcome {
  const message = rule.messageExpression === undefined ? (rule.message ?? "") : run(rule, "messageExpression", rule.messageExpression, bindings, failed);
  if (typeof message !== "string") failed(rule.id, "messageExpression", `expected a string, got ${describe(message)}`);
  if (rule.patch === undefined) return { verb: rule.verb, message };
  const patch = jsonOf(run(rule, "patch", rule.patch, bindings, failed));
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) failed(rule.id, "patch", `expected a map, got ${describe(patch)}`);
  return { verb: rule.verb, message, patch: patch as JsonObject };
}

function run(rule: CompiledRule, key: string, program: Program, bindings: Bindings, failed: Failed): CelValue {
  let result: ReturnType<Program>;
  try {
    result = program(bindings);
  } catch (error) {
    failed(rule.id, key, (error as Error).message);
  }
  if (isCelError(result)) failed(rule.id, key, result.message);
  if (key === "when" && typeof result !== "boolean") failed(rule.id, key, `expected a boolean, got ${describe(result)}`);
  return result;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (isCelList(value)) return "a list";
  if (isCelMap(value)) return "a map";
  return `a ${typeof value === "bigint" ? "int" : typeof value === "number" ? "double" : typeof value}`;
}

/** A CEL value as JSON: maps with string keys become objects, ints stay exact. */
function jsonOf(value: unknown): JsonValue {
  if (isCelMap(value)) {
    const out: Record<string, JsonValue> = {};
    for (const [key, item] of value) out[typeof key === "object" ? String(key.value) : String(key)] = jsonOf(item);
    return out;
  }
  if (isCelList(value)) return [...value].map(jsonOf);
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value === null) return value;
  // A CEL uint is an object holding a bigint.
  if (typeof value === "object" && value !== null && "value" in value && typeof value.value === "bigint") return jsonOf(value.value);
  throw new TypeError(`a ${typeof value} has no JSON form`);
}

function valuesRead(rule: CompiledRule, activation: Activation): Record<string, JsonValue> {
  const values: Record<string, JsonValue> = {};
  for (const read of rule.reads) {
    const [variable = "", field = ""] = read.split(".");
    const value = activation[variable]?.[field];
    if (value !== undefined) values[read] = plainJson(value);
  }
  return values;
}

/** Plain JSON (what `hookd eval --json` prints): an integer past 2^53 becomes its digits as a string. */
function plainJson(value: unknown): JsonValue {
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(plainJson);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plainJson(item)]));
  return value as JsonValue;
}
