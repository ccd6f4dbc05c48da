// Which decision verbs each point takes from a rule, what each verb needs (a message, a patch),
// and the typed decision a verb becomes. A verb a point cannot take is a config error (compile.ts).
import { accept, ask, block, deny, enter, patch, pluginMessage, reject, steer } from "@hookd/sdk";
import type { AgentMessage, DecisionOf, JsonObject } from "@hookd/sdk";
import type { RuleVerb } from "./rule-file.js";

export type RulePoint = "pre-tool" | "rewrite" | "guard" | "approval" | "post-tool" | "pre-step" | "turn-stopping";

/** The verbs of each point; a point not listed takes no rule (it has no decision, or none a rule can compute). */
export const POINT_VERBS: Readonly<Record<RulePoint, readonly RuleVerb[]>> = {
  "pre-tool": ["deny", "ask", "allow"],
  rewrite: ["patch"],
  guard: ["deny"],
  approval: ["approve", "reject"],
  "post-tool": ["block", "context"],
  "pre-step": ["reject", "context"],
  "turn-stopping": ["steer"],
};

export const RULE_POINTS = Object.keys(POINT_VERBS) as RulePoint[];

export function isRulePoint(point: string): point is RulePoint {
  return Object.hasOwn(POINT_VERBS, point);
}

/** Verbs that carry text (`message` or `messageExpression`). */
export const VERBS_WITH_MESSAGE: ReadonlySet<RuleVerb> = new Set(["deny", "ask", "block", "context", "reject", "steer"]);

/** What a verb decided, before it is a point's decision. */
export interface RuleOutcome {
  readonly verb: RuleVerb;
  readonly message: string;
  readonly patch?: JsonObject;
}

/** The point's typed decision for a rule's outcome; `plugin` sources the context messages it adds. */
export function decisionOf(point: RulePoint, outcome: RuleOutcome, event: unknown, plugin: string): DecisionOf<RulePoint> {
  const context = (): AgentMessage => pluginMessage(plugin, outcome.message);
  switch (outcome.verb) {
    // allow and approve are fresh objects, not the SDK's singletons: each decision is told apart by identity (Listener.ruleOf).
    case "allow":
      return { kind: "allow" };
    case "deny":
      return deny(outcome.message);
    case "ask":
      return ask(outcome.message);
    case "patch":
      return patch(outcome.patch ?? {});
    case "block":
      return block(outcome.message);
    case "approve":
      return { kind: "approve" };
    case "reject":
      return reject(outcome.message);
    case "steer":
      return steer([context()]);
    case "context":
      // post-tool: the result is kept and the context travels with it; pre-step: the batch gains it.
      if (point === "post-tool") return accept({ additionalContexts: [context()] });
      return enter([...(event as { messages: readonly AgentMessage[] }).messages, context()]);
  }
}
