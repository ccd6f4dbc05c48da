// What `hookd eval` shows, built from the records the run wrote (the audit log's own shape) and
// the registry it ran on: per point, the plugins that matched in order (called or not), each
// call's answer and latency, the point's applied decision; the final decision and why; and with
// --explain, how the replay compares with the recorded audit records.
import type { PluginStatus } from "../plugins/source.js";
import type { JsonValue, PointName } from "@hookd/sdk";
import { POINT_TABLE } from "@hookd/sdk";
import type { PluginRegistry } from "../engine/registry.js";
import type { AuditRecord } from "../ops/audit.js";
import type { MatchKeys } from "./eval-input.js";

export interface EvalCall {
  readonly plugin: string;
  readonly kind: string;
  /** answered, passed, fault, error, discarded (as in the audit log). */
  readonly outcome: string;
  /** The answer that took effect ("pass" for a fault under fail-open). */
  readonly answer: string;
  readonly reason: string;
  readonly cause: string;
  readonly latencyMs: number;
  /** The rule that answered, for plugins whose decisions are rules; "" otherwise. */
  readonly rule: string;
  /** The values that rule read (`call.command`: "rm -rf /"). */
  readonly values?: Readonly<Record<string, JsonValue>>;
}

export interface EvalMatch {
  readonly position: number | "shadow";
  readonly plugin: string;
  readonly kind: string;
  readonly priority: number;
  /** Its call, or undefined when an earlier plugin decided first. */
  readonly call: EvalCall | undefined;
}

export interface EvalDecision {
  readonly decision: string;
  readonly decidedBy: string;
  readonly reason: string;
  readonly cause: string;
  readonly latencyMs: number;
  /** The deciding plugin's rule, for plugins whose decisions are rules; "" otherwise. */
  readonly rule: string;
}

export interface EvalPoint {
  readonly point: PointName;
  /** The tool name or agent event name the matchers were tested against. */
  readonly matchedOn?: string;
  readonly matched: EvalMatch[];
  readonly decision: EvalDecision | undefined;
}

export interface WarmHooksRun {
  readonly plugin: string;
  readonly ranWarm: number;
  readonly spawned: Readonly<Record<string, number>>;
}

/** What the plugins' statuses tell of this run's command hooks: warm runs and spawns, per plugin that ran any. */
export function warmHooksRun(statuses: readonly PluginStatus[]): WarmHooksRun[] {
  return statuses.flatMap(({ name, warm }) => {
    if (warm === undefined || (warm.warmRuns === 0 && Object.keys(warm.fallbacks).length === 0)) return [];
    return [{ plugin: name, ranWarm: warm.warmRuns, spawned: warm.fallbacks }];
  });
}

export interface EvalReport {
  readonly config: string;
  /** "proto" or the dialect. */
  readonly input: string;
  /** The point (proto) or the agent's event name (dialect). */
  readonly event: string;
  readonly sessionId: string;
  /** The tool call's id, at tool events; "" elsewhere. */
  readonly callId: string;
  readonly points: EvalPoint[];
  readonly final: EvalDecision & { readonly point: PointName | ""; readonly why: string };
  /** The evaluate response (proto JSON) or the agent's answer, as the daemon would send it. */
  readonly answer: unknown;
  /** Every record the run wrote, in order: what the audit log would hold. */
  readonly records: readonly AuditRecord[];
  readonly warnings: string[];
  /** Per command plugin with warm interpreters whose hooks ran: how many ran warm, and the others spawned by why. */
  readonly warmHooks?: readonly WarmHooksRun[];
  explain?: { readonly agrees: boolean; readonly differences: string[]; readonly recorded: readonly AuditRecord[] };
}

const ms = (us: number): number => Math.round(us / 10) / 100;

// Decisions that leave the call as it was: a later record with an opinion is the final word.
const NO_OPINION = new Set(["pass", "abstain", "keep", "accept", "observed"]);

function decisionOf(record: AuditRecord): EvalDecision {
  return { decision: record.decision, decidedBy: record.plugin, reason: record.reason, cause: record.cause, latencyMs: ms(record.durationUs), rule: record.rule ?? "" };
}

function callOf(record: AuditRecord): EvalCall {
  return {
    plugin: record.plugin,
    kind: "",
    outcome: record.outcome ?? "",
    answer: record.decision,
    reason: record.reason,
    cause: record.cause,
    latencyMs: ms(record.durationUs),
    rule: record.rule ?? "",
    ...(record.ruleValues === undefined ? {} : { values: record.ruleValues }),
  };
}

function matchKey(point: PointName, keys: MatchKeys): string | undefined {
  if (point === "agent-event") return keys.eventName;
  return POINT_TABLE[point].toolScoped ? keys.toolName : undefined;
}

/** The points the run reached, in order, with what matched there and what was decided. */
export function pointsOf(records: readonly AuditRecord[], registry: PluginRegistry, keys: MatchKeys): EvalPoint[] {
  const order: PointName[] = [];
  for (const r of records) if (!order.includes(r.point)) order.push(r.point);
  return order.map((point) => {
    const key = matchKey(point, keys);
    const calls = records.filter((r) => r.point === point && r.kind === "invocation");
    const shadows = records.filter((r) => r.point === point && r.kind === "shadow");
    const withCall = (list: readonly AuditRecord[], plugin: string, kind: string): EvalCall | undefined => {
      const record = list.find((r) => r.plugin === plugin);
      if (record === undefined) return undefined;
      const call = callOf(record);
      // A shadow's answer is never applied: its reason says what it would have done.
      return { ...call, kind, ...(record.verdict === undefined ? {} : { reason: [record.verdict, call.reason].filter((s) => s !== "").join(": ") }) };
    };
    const matched: EvalMatch[] = [
      ...registry.listeners(point, key).map((l, i): EvalMatch => ({ position: i + 1, plugin: l.plugin, kind: l.kind, priority: l.priority, call: withCall(calls, l.plugin, l.kind) })),
      ...registry.shadows(point, key).map((l): EvalMatch => ({ position: "shadow", plugin: l.plugin, kind: l.kind, priority: l.priority, call: withCall(shadows, l.plugin, l.kind) })),
    ];
    const decisions = records.filter((r) => r.point === point && r.kind === "decision");
    const decided = decisions.findLast((r) => !NO_OPINION.has(r.decision)) ?? decisions.at(-1);
    return { point, ...(key === undefined ? {} : { matchedOn: key }), matched, decision: decided === undefined ? undefined : decisionOf(decided) };
  });
}

/** The last decision with an opinion (a rewrite's pass or a guard's abstain does not outweigh a deny or an ask). */
export function finalOf(points: readonly EvalPoint[]): EvalReport["final"] {
  const decided = points.filter((p): p is EvalPoint & { decision: EvalDecision } => p.decision !== undefined);
  const last = decided.findLast((p) => !NO_OPINION.has(p.decision.decision)) ?? decided.at(-1);
  if (last === undefined) return { point: "", decision: "observed", decidedBy: "", reason: "", cause: "", latencyMs: 0, rule: "", why: "no point with a decision ran: the event is observed only (a notification)" };
  const d = last.decision;
  return { point: last.point, ...d, why: whyOf(last, d) };
}

function whyOf({ point, matched }: EvalPoint, d: EvalDecision): string {
  if (d.decidedBy === "default") {
    // The decision's cause is that of the first plugin whose failure counted as a pass.
    const failed = d.cause === "" ? undefined : matched.find((m) => m.position !== "shadow" && m.call?.outcome === "fault" && m.call.answer === "pass");
    const passedOver = failed === undefined ? "" : `${failed.plugin} could not answer (${d.cause}) and its failure policy counted it as passing; `;
    return `no plugin decided at ${point}: ${passedOver}its default is ${d.decision}`;
  }
  if (d.cause !== "" && d.decision !== "error") return `${d.decidedBy} could not answer at ${point} (${d.cause}): its failure policy made it ${d.decision}${d.reason === "" ? "" : ` (${d.reason})`}`;
  if (d.decision === "error") return `${d.decidedBy} failed at ${point}: ${d.reason}`;
  return `${d.decidedBy} answered ${d.decision} at ${point}${d.rule === "" ? "" : ` (rule ${d.rule})`}${d.reason === "" ? "" : `: ${d.reason}`}`;
}

/** Where the replay and the recorded records part: per point, the decision and (when recorded) the plugins called and their answers. */
export function compareWithRecord(recorded: readonly AuditRecord[], replayed: readonly AuditRecord[]): string[] {
  const differences: string[] = [];
  const points = [...new Set(recorded.map((r) => r.point))];
  const said = (r: AuditRecord | undefined): string => (r === undefined ? "nothing" : `${r.decision} by ${r.plugin}`);
  for (const point of points) {
    for (const kind of ["decision", "invocation", "shadow"] as const) {
      const before = recorded.filter((r) => r.point === point && r.kind === kind);
      if (before.length === 0) continue;
      const after = replayed.filter((r) => r.point === point && r.kind === kind);
      if (kind === "decision") {
        before.forEach((r, i) => {
          const now = after[i];
          if (now?.decision !== r.decision || now.plugin !== r.plugin) differences.push(`${point}: recorded ${said(r)}, replayed ${said(now)}`);
          else if (now.reason !== r.reason) differences.push(`${point}: same decision, but the reason was "${r.reason}" and is now "${now.reason}"`);
          // A record written before rules were named has none to compare.
          else if (r.rule !== undefined && now.rule !== r.rule) differences.push(`${point}: same decision by ${r.plugin}, but by rule "${r.rule}" then and ${now.rule === undefined ? "no rule" : `rule "${now.rule}"`} now`);
        });
        continue;
      }
      // A single recorded call is compared with that plugin's call; a run of them, in order.
      const pairs: [AuditRecord, AuditRecord | undefined][] = before.length === 1 && before[0] !== undefined ? [[before[0], after.find((r) => r.plugin === before[0]?.plugin)]] : before.map((r, i) => [r, after[i]]);
      for (const [r, now] of pairs) {
        if (now === undefined) differences.push(`${point}: ${r.plugin} was called (${r.decision}) and is not now`);
        else if (now.plugin !== r.plugin) differences.push(`${point}: the ${kind === "shadow" ? "shadow " : ""}calls differ: recorded ${r.plugin}, replayed ${now.plugin}`);
        else if (now.decision !== r.decision || (now.outcome ?? "") !== (r.outcome ?? "")) differences.push(`${point}: ${r.plugin} answered ${r.decision} (${r.outcome ?? ""}), now ${now.decision} (${now.outcome ?? ""})`);
      }
      if (before.length > 1 && after.length > before.length) differences.push(`${point}: now ${after.slice(before.length).map((r) => r.plugin).join(", ")} ${after.length - before.length === 1 ? "is" : "are"} called too`);
    }
  }
  return differences;
}
