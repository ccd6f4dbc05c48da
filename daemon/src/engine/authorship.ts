// Authorship is the daemon's: every message a plugin's answer contributes (injected or added
// context, steering, messages an `enter` adds, a wrapper's result contexts) is sourced to the
// plugin's configured name, whatever source (or role) the plugin wrote. A message the plugin was
// given (by the event, or by next()) and handed back unchanged keeps its source: unchanged means
// the same id, role, content and source. Which messages an answer carries is the point table's
// (`authorship`); this module only applies the rule.
import { POINT_TABLE, deepFreeze } from "@hookd/sdk";
import type { AgentMessage, EventOf, PointAnswer, PointName, PointSpec } from "@hookd/sdk";

/**
 * The answer with every contributed message sourced to `plugin`, unless handed back unchanged
 * from the event or from `passedOn` (what next() gave the plugin). The same answer when nothing
 * changes, so a passed-through answer stays the same object.
 */
export function authored<P extends PointName>(point: P, plugin: string, event: EventOf<P>, answer: PointAnswer<P>, passedOn?: unknown): PointAnswer<P> {
  const spec: PointSpec = POINT_TABLE[point];
  const rule = spec.authorship;
  if (rule === undefined) return answer;
  const contributed = rule.contributed(answer);
  if (contributed.length === 0) return answer;
  let given: readonly AgentMessage[] | undefined;
  let changed = false;
  const sourced = contributed.map((message) => {
    if (isPluginMessage(message, plugin)) return message;
    given ??= [...rule.given(event), ...(passedOn === undefined ? [] : rule.contributed(passedOn))];
    if (given.some((known) => sameMessage(known, message))) return message;
    changed = true;
    return { ...message, role: "user" as const, source: { kind: "plugin" as const, name: plugin } };
  });
  return changed ? (deepFreeze(rule.replaced(answer, sourced)) as PointAnswer<P>) : answer;
}

/** Already the plugin's own user-role message: nothing to re-source. */
function isPluginMessage(message: AgentMessage, plugin: string): boolean {
  return message.role === "user" && message.source.kind === "plugin" && message.source.name === plugin;
}

function sameMessage(a: AgentMessage, b: AgentMessage): boolean {
  return a.id === b.id && a.role === b.role && sameJson(a.source, b.source) && sameJson(a.content, b.content);
}

/**
 * Structural equality of JSON-like data, key order ignored and an undefined member the same as
 * a missing one (a message that crossed the wire and back is rebuilt, not the same object).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameJson(left[key], right[key])) return false;
  return true;
}
