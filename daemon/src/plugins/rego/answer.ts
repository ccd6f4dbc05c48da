// What a Rego entrypoint's value means at a point: `{"decision": VERB, "reason", "rule", ...}`
// becomes the point's typed answer, checked by the SDK's own validator, so a verb the point cannot
// take (an allow at guard) is refused exactly as from any plugin. docs/rego.md lists the verbs.
import { pluginMessage, validateDecision } from "@hookd/sdk";
import type { AgentMessage, PointName } from "@hookd/sdk";

/** A usable answer, or why the value is not one (naming the rule that produced it, if it said). */
export type RegoAnswer = { readonly ok: true; readonly answer: unknown } | { readonly ok: false; readonly problem: string };

const PASS = Object.freeze({ kind: "pass" });

/** Verbs that carry a reason, and its field in the typed decision; the others ignore `reason`. */
const REASON_FIELD: Readonly<Record<string, string>> = { deny: "reason", ask: "reason", reject: "reason", block: "feedback" };
/** Verbs whose `message` becomes the messages they add to the conversation. */
const MESSAGE_FIELD: Readonly<Record<string, string>> = { enter: "messages", steer: "messages", inject: "messages", accept: "additionalContexts", block: "additionalContexts" };

/** `event`: the point's event, whose batch a pre-step `enter` keeps (it answers the complete batch). */
export function regoAnswer(point: PointName, plugin: string, value: unknown, event: unknown): RegoAnswer {
  // An undefined entrypoint has no opinion.
  if (value === undefined) return { ok: true, answer: PASS };
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, problem: `the entrypoint's value ${JSON.stringify(value)} is not a decision object ({"decision": ..., "reason": ...})` };
  }
  const { decision, rule, reason, message, user_message: userMessage, stop_agent: stop, ...rest } = value as Record<string, unknown>;
  const from = typeof rule === "string" && rule !== "" ? `rule ${rule}: ` : "";
  if (typeof decision !== "string") return { ok: false, problem: `${from}the decision object has no "decision" verb (a string)` };
  // `user_message` (shown to the agent's user) and `stop_agent` (the reason the agent is asked to stop with), checked with the answer.
  const answer: Record<string, unknown> = { ...rest, kind: decision, ...(userMessage === undefined ? {} : { userMessage }), ...(stop === undefined ? {} : { stopAgent: { reason: stop } }) };
  // An allow that says why is still an allow: a reason only where the verb carries one.
  const reasonField = REASON_FIELD[decision];
  if (reason !== undefined && reasonField !== undefined) answer[reasonField] = reason;
  if (message !== undefined) {
    const field = MESSAGE_FIELD[decision];
    if (field === undefined || typeof message !== "string") return { ok: false, problem: `${from}"message" (a string) goes only with ${Object.keys(MESSAGE_FIELD).join(", ")}` };
    // `enter` answers the step's complete batch: the message is added to it, never replaces it.
    const kept = decision === "enter" ? ((event as { messages?: readonly AgentMessage[] }).messages ?? []) : [];
    answer[field] = [...kept, pluginMessage(plugin, message)];
  }
  const checked = validateDecision(point, answer);
  return checked.ok ? { ok: true, answer: checked.decision } : { ok: false, problem: `${from}${checked.error.message}` };
}
