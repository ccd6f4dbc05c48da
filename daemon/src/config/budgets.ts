// The config's point budgets as one value: what a point's spec (`PointSpec.budget`) indexes to
// find the budget it runs under. The runtime, the plugins, `hookd check` and `hookd eval` take
// it whole, so none of them picks a budget by naming a point.
import type { Budgets } from "@hookd/sdk";
import type { Config } from "./schema.js";

export function configuredBudgets(config: Config): Required<Budgets> {
  return { pointBudgetMs: config.defaults.pointBudgetMs, sessionEndBudgetMs: config.defaults.sessionEndBudgetMs };
}
