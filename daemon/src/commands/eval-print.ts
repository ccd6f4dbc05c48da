// `hookd eval`'s explanation for a person: per point a table of the plugins that matched, in
// the order they run (called or not, with answer, latency and reason), the point's decision;
// then the final decision and why, the answer the daemon would send, warnings, and with
// --explain the verdict of the replay. Colour only when asked (a terminal without NO_COLOR).
import { toJsonText } from "@hookd/sdk";
import { tidy } from "./check-report.js";
import type { EvalMatch, EvalReport } from "./eval-report.js";
import { table } from "./table.js";

export interface EvalOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly colour: boolean;
}

const paint = (on: boolean, code: string, text: string): string => (on ? `\x1b[${code}m${text}\x1b[0m` : text);

const VERDICT_COLOUR: { readonly [decision: string]: string } = { allow: "32", deny: "31", ask: "33", reject: "31", block: "31", error: "31" };

function row(m: EvalMatch): string[] {
  const call = m.call;
  if (call === undefined) return [String(m.position), m.plugin, m.kind, String(m.priority), "-", "-", "not called: an earlier plugin decided"];
  const why = tidy([call.rule === "" ? "" : `rule ${call.rule}:`, call.cause === "" ? "" : `(${call.cause})`, call.reason].filter((s) => s !== "").join(" "));
  return [String(m.position), m.plugin, m.kind, String(m.priority), `${call.answer}${call.outcome === "answered" || call.outcome === "passed" || call.outcome === "" ? "" : ` [${call.outcome}]`}`, `${call.latencyMs}ms`, why];
}

export function printEval(report: EvalReport, { out, err, colour }: EvalOutput): void {
  const where = [`session ${report.sessionId}`, ...(report.callId === "" ? [] : [`call ${report.callId}`])].join(", ");
  out(`config ${report.config}\nevent  ${report.event} (${report.input === "proto" ? "hookd proto JSON" : `${report.input} hook JSON`}), ${where}\n`);
  if (report.points.length === 0) out("\nno plugin is subscribed to this event\n");
  for (const p of report.points) {
    out(`\n${paint(colour, "1", p.point)}${p.matchedOn === undefined ? "" : ` (matched on ${p.matchedOn})`}\n`);
    if (p.matched.length === 0) out("  no plugin matched\n");
    else out(table(["#", "PLUGIN", "KIND", "PRIORITY", "ANSWER", "LATENCY", "REASON"], p.matched.map(row)).replace(/^(?=.)/gm, "  "));
    const d = p.decision;
    if (d !== undefined) out(`  decision: ${d.decision} by ${d.decidedBy}${d.rule === "" ? "" : ` (rule ${d.rule})`}${d.cause === "" ? "" : ` (${d.cause})`}${d.reason === "" ? "" : `: ${tidy(d.reason)}`} in ${d.latencyMs}ms\n`);
    for (const m of p.matched) {
      const values = m.call?.values;
      // What the rule that answered saw: the fields it reads and their values in this event.
      if (m.call !== undefined && m.call.rule !== "" && values !== undefined) out(`  rule ${m.call.rule} (${m.plugin}) read: ${Object.entries(values).map(([field, value]) => `${field}=${tidy(toJsonText(value))}`).join(", ")}\n`);
    }
  }
  const { final } = report;
  out(`\n${paint(colour, `1;${VERDICT_COLOUR[final.decision] ?? "0"}`, `decision: ${final.decision}`)}\nwhy: ${tidy(final.why)}\n`);
  out(`${report.input === "proto" ? "response" : `answer (${report.input})`}: ${JSON.stringify(report.answer)}\n`);
  for (const w of report.warmHooks ?? []) {
    const spawned = Object.entries(w.spawned).map(([why, n]) => `${n} spawned (${why.replace(/_/g, " ")})`);
    out(`command hooks of ${w.plugin}: ${[`${w.ranWarm} ran warm`, ...spawned].join(", ")}\n`);
  }
  if (report.warnings.length > 0) out(`\n${paint(colour, "33", `${report.warnings.length} warning${report.warnings.length === 1 ? "" : "s"}:`)}\n${report.warnings.map((w) => `  - ${tidy(w)}\n`).join("")}`);
  const { explain } = report;
  if (explain === undefined) return;
  if (explain.agrees) {
    out(`\n${paint(colour, "32", `replay agrees with the record (${explain.recorded.length} record${explain.recorded.length === 1 ? "" : "s"} compared)`)}\n`);
    return;
  }
  err(`${paint(colour, "31", "replay differs from the record:")}\n${explain.differences.map((d) => `  - ${d}\n`).join("")}`);
}
